import type { User } from '../../db/schema.ts'

/** The user as the API shows it to its owner. */
export type PublicUser = {
  id: string
  address: string
  email: string | null
  /** The claimed username, or null before a claim. */
  username: string | null
  createdAt: string
}

/** Maps a user row to its API shape (ISO dates, no internal columns). */
export function toPublicUser(user: User): PublicUser {
  return {
    id: user.id,
    address: user.address,
    email: user.email,
    username: user.username,
    createdAt: user.createdAt.toISOString(),
  }
}
