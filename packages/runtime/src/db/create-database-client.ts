import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import pg from 'pg'
/** What `db.execute` resolves to on both drivers: PGlite's Results and pg's QueryResult both carry `rows`. */
export interface RowsQueryResultHKT extends PgQueryResultHKT {
  type: QueryRows<this['row']>
}
type QueryRows<Row> = { rows: Row[] }

/**
 * The Drizzle handle every repository and service takes; the same API on PGlite and Postgres.
 * Queries name their tables (each app's schema.ts), so the handle carries no schema of its own.
 */
export type Database = PgDatabase<RowsQueryResultHKT>

/** Where the data lives: a Postgres server, or PGlite on disk (`dataDir`) or in memory (none). */
export type DatabaseTarget = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir?: string }

/** An open database: the Drizzle handle plus the driver underneath, for migrations and shutdown. */
export type DatabaseClient = {
  db: Database
  /** Closes the pool or the embedded database; safe to call twice. */
  close(): Promise<void>
} & ({ kind: 'pglite'; pglite: PGlite } | { kind: 'postgres'; pool: pg.Pool })

export type CreateDatabaseClientOptions = {
  /** Called when an idle Postgres connection fails (server restart, network); the pool recovers. */
  onPoolError?: (error: Error) => void
  /** Postgres: how long a query waits for a pooled connection (or a new one) before failing; default 5 s. */
  acquireTimeoutMs?: number
  /** Postgres: the server cancels any one statement running longer; default 15 s. */
  statementTimeoutMs?: number
  /** Postgres: connections in the pool; default 10. */
  maxConnections?: number
}

/** Pool size and time-outs: a stuck database fails requests in seconds instead of queueing them forever. */
export const postgresPoolDefaults = {
  max: 10,
  acquireTimeoutMs: 5_000,
  statementTimeoutMs: 15_000,
  /** A transaction left idle (a crashed handler) releases its locks after this. */
  idleInTransactionTimeoutMs: 30_000,
} as const

/**
 * Opens the database behind one interface. PGlite is ready when this resolves; a Postgres pool
 * connects lazily, so a wrong DATABASE_URL surfaces at the first query (`migrate` at start-up).
 * Postgres connections have acquire, statement and idle-in-transaction time-outs
 * (`postgresPoolDefaults`).
 * Throws when PGlite cannot open its directory (for example, another process holds it).
 */
export async function createDatabaseClient(
  target: DatabaseTarget,
  options: CreateDatabaseClientOptions = {},
): Promise<DatabaseClient> {
  if (target.kind === 'postgres') {
    const statementTimeoutMs = options.statementTimeoutMs ?? postgresPoolDefaults.statementTimeoutMs
    const pool = new pg.Pool({
      connectionString: target.url,
      max: options.maxConnections ?? postgresPoolDefaults.max,
      connectionTimeoutMillis: options.acquireTimeoutMs ?? postgresPoolDefaults.acquireTimeoutMs,
      statement_timeout: statementTimeoutMs,
      // The client gives up too should the server not answer at all (a dead network path).
      query_timeout: statementTimeoutMs + 5_000,
      idle_in_transaction_session_timeout: postgresPoolDefaults.idleInTransactionTimeoutMs,
    })
    pool.on('error', (error) => options.onPoolError?.(error))
    const db = drizzleNodePostgres({ client: pool })
    let closed: Promise<void> | undefined
    return { kind: 'postgres', db, pool, close: () => (closed ??= pool.end()) }
  }
  if (target.dataDir !== undefined) mkdirSync(target.dataDir, { recursive: true })
  const pglite = target.dataDir === undefined ? new PGlite() : new PGlite(target.dataDir)
  await pglite.waitReady
  return createPgliteDatabaseClient(pglite)
}

/**
 * Wraps an open PGlite (for example one loaded from a migrated snapshot in tests) in the
 * common interface; closing the client closes the PGlite.
 */
export function createPgliteDatabaseClient(pglite: PGlite): DatabaseClient {
  const db = drizzlePglite({ client: pglite })
  let closed: Promise<void> | undefined
  return {
    kind: 'pglite',
    db,
    pglite,
    close: () => (closed ??= pglite.closed ? Promise.resolve() : pglite.close()),
  }
}
