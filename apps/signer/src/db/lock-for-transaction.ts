import { sql } from 'drizzle-orm'
import type { SignerDatabase } from './signer-database.ts'

/**
 * Takes a Postgres advisory lock on `key` until the surrounding transaction ends, so check-then-
 * write sequences on one contact (count the sends, then insert one; find the account, else create
 * it) never interleave, on one instance or many. Call it inside `db.transaction`.
 */
export async function lockForTransaction(tx: SignerDatabase, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`)
}
