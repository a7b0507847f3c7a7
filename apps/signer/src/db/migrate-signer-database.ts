import { applyMigrations } from '@quicklinks/runtime/db/apply-migrations'
import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { signerMigrations } from './signer-migrations.ts'

/**
 * Applies the signer's pending migrations (its own set, docs/decisions/0016): what the standalone
 * signer runs at start. The app server runs the same set after its own. Rejects on a connection or
 * SQL failure.
 */
export function migrateSignerDatabase(client: DatabaseClient): Promise<void> {
  return applyMigrations(client, [signerMigrations])
}
