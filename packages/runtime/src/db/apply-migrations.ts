import type { MigrationConfig } from 'drizzle-orm/migrator'
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres'
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import type { DatabaseClient } from './create-database-client.ts'

// Any constant shared by all instances of every process; serialises concurrent start-ups on one
// Postgres (the app server and a standalone signer migrating the same database together).
const migrationLockId = 7_286_510_331

/**
 * Applies every pending migration of each set, in order, each once (Drizzle records them in each
 * set's own table). On Postgres it holds an advisory lock meanwhile, so several instances starting
 * together never race. Rejects on a connection or SQL failure; a failed migration is rolled back by
 * Drizzle's transaction.
 */
export async function applyMigrations(
  client: DatabaseClient,
  migrationSets: readonly MigrationConfig[],
): Promise<void> {
  if (client.kind === 'pglite') {
    for (const migrationSet of migrationSets) {
      await migratePglite(drizzlePglite({ client: client.pglite }), migrationSet)
    }
    return
  }
  const connection = await client.pool.connect()
  try {
    // Waiting for another instance's migration, or building an index, may take longer than a
    // request's statement time-out; this session lifts it, and resets it before going back to the pool.
    await connection.query('SET statement_timeout = 0')
    await connection.query('SELECT pg_advisory_lock($1)', [migrationLockId])
    try {
      for (const migrationSet of migrationSets) {
        await migrateNodePostgres(drizzleNodePostgres({ client: connection }), migrationSet)
      }
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [migrationLockId])
      await connection.query('RESET statement_timeout')
    }
  } finally {
    connection.release()
  }
}
