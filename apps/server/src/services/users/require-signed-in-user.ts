import { AppError } from '@quicklinks/core/app-error'
import type { User } from '../../db/schema.ts'

/** The session's user, or AppError UNAUTHORIZED (401) when the request is signed out. */
export function requireSignedInUser(user: User | null): User {
  if (user === null) throw new AppError('UNAUTHORIZED', { message: 'No live session' })
  return user
}
