import { sql } from 'drizzle-orm'
import pg from 'pg'
import type { Database } from '../db/create-database-client.ts'

/** Asks the database whether it answers, apart from the work the app is doing on it. */
export type DatabaseProbe = {
  /** Runs `select 1`; rejects when the database does not answer. */
  probe(): Promise<void>
  /** Closes the probe's own connection; safe to call twice. */
  close(): Promise<void>
}

/**
 * The readiness probe's way to the database. On Postgres it is a connection of its own (a pool of
 * one, opened on first use), not one of the app's pool: a busy instance whose pool is all in use
 * still reaches its database, and a load balancer must not take it out for being busy (the load
 * would move to the others, which would then fail the same way). On PGlite, in process, it is the
 * app's own handle.
 */
export function createDatabaseProbe(db: Database): DatabaseProbe {
  const driver = (db as { $client?: unknown }).$client
  if (!(driver instanceof pg.Pool)) {
    return {
      probe: async () => {
        await db.execute(sql`select 1`)
      },
      close: async () => {},
    }
  }
  let own: pg.Pool | undefined
  let closed: Promise<void> | undefined
  return {
    probe: async () => {
      if (closed !== undefined) throw new Error('The readiness probe is closed')
      if (own === undefined) {
        own = new pg.Pool({ ...driver.options, max: 1, idleTimeoutMillis: 60_000 })
        // An idle connection the server dropped reports here, not as an uncaught error; the next
        // probe opens another.
        own.on('error', () => {})
      }
      await own.query('select 1')
    },
    close: () => (closed ??= own?.end() ?? Promise.resolve()),
  }
}
