import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { findAccountEmail } from '@quicklinks/signer/api/find-account-email'
import { eq } from 'drizzle-orm'
import type { Address } from 'viem'
import { type User, users } from '../../db/schema.ts'
import type { ReadCaches } from '../cache/read-caches.ts'
import { writeAndInvalidate } from '../cache/write-and-invalidate.ts'
import { getOrCreateUser } from '../users/get-or-create-user.ts'
import {
  type SiweLoginInput,
  type SiweLoginOptions,
  verifySiweLoginOrThrow,
} from './verify-siwe-login-or-throw.ts'

export type SignInWithSiweOptions = SiweLoginOptions & {
  /** Where the user's e-mail comes from (default: the signer's record, asked through its API: `findAccountEmail`). */
  getEmail?: (db: Database, address: Address) => Promise<string | null>
  /** The read caches an e-mail refresh invalidates (cached sessions hold the user row). */
  caches?: ReadCaches
}

/**
 * Signs a wallet in to the app: verifies the SIWE login (see `verifySiweLoginOrThrow`), then gets
 * or creates the user of that address, keeping the e-mail in step with the signer's record. The
 * caller starts the session. Rejects with the verifier's AppError, or when the database fails.
 */
export async function signInWithSiwe(
  db: Database,
  input: SiweLoginInput,
  options: SignInWithSiweOptions,
): Promise<User> {
  const { address } = await verifySiweLoginOrThrow(db, input, options)
  const email = await (options.getEmail ?? findAccountEmail)(db, address)
  const user = await getOrCreateUser(db, { address, ...(email === null ? {} : { email }) })
  if (email === null || user.email === email) return user
  // Only a refresh is a write: cached sessions learn it, on every instance, at its commit.
  const updated = await writeAndInvalidate(
    db,
    options.caches,
    async (tx) => {
      const [row] = await tx
        .update(users)
        .set({ email, updatedAt: new Date() })
        .where(eq(users.id, user.id))
        .returning()
      return row
    },
    () => ({ users: [user.id] }),
  )
  return updated ?? user
}
