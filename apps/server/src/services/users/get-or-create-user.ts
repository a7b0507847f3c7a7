import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { type User, users } from '../../db/schema.ts'

const evmAddressPattern = /^0x[0-9a-fA-F]{40}$/

/**
 * The user owning an EVM address, created on first sight. The address is stored lower-case so
 * checksum casing never creates a second account. Throws a TypeError for a malformed address
 * (callers validate first); rejects when the database fails.
 */
export async function getOrCreateUser(
  db: Database,
  input: { address: string; email?: string },
): Promise<User> {
  if (!evmAddressPattern.test(input.address)) throw new TypeError(`Not an EVM address: ${input.address}`)
  const address = input.address.toLowerCase()
  // The no-op update makes RETURNING yield the existing row on conflict, in one round trip.
  const [user] = await db
    .insert(users)
    .values({ address, email: input.email ?? null })
    .onConflictDoUpdate({ target: users.address, set: { address } })
    .returning()
  if (!user) throw new Error('Upsert of users returned no row')
  return user
}
