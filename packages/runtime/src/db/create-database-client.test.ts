import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningPostgres, startPostgres } from '../../test/start-postgres.ts'
import { createDatabaseProbe } from '../health/create-database-probe.ts'
import { createDatabaseClient, type DatabaseClient } from './create-database-client.ts'

/** The driver's message under Drizzle's "Failed query" wrapper. */
async function readFailure(query: Promise<unknown>): Promise<string> {
  const error: unknown = await query.then(
    () => undefined,
    (failure: unknown) => failure,
  )
  if (!(error instanceof Error)) throw new Error('expected the query to fail')
  return error.cause instanceof Error ? error.cause.message : error.message
}

describe('createDatabaseClient on PostgreSQL', () => {
  let postgres: RunningPostgres
  let client: DatabaseClient

  beforeAll(async () => {
    postgres = await startPostgres()
    client = await createDatabaseClient(
      { kind: 'postgres', url: postgres.url },
      { statementTimeoutMs: 300, acquireTimeoutMs: 300, maxConnections: 1 },
    )
  }, 60_000)

  afterAll(async () => {
    await client?.close()
    await postgres?.stop()
  })

  it('cancels a statement that runs past the statement time-out, and the pool keeps working', async () => {
    // A real wait on purpose: the server-side statement time-out (300 ms) is what is under test, and
    // only a statement that really runs longer (pg_sleep inside Postgres) can trip it.
    expect(await readFailure(client.db.execute(sql`select pg_sleep(2)`))).toMatch(
      /canceling statement due to statement timeout/,
    )
    const { rows } = await client.db.execute<{ one: number }>(sql`select 1 as one`)
    expect(rows).toEqual([{ one: 1 }])
  })

  it('fails a query that waits past the acquire time-out for a busy pool', async () => {
    if (client.kind !== 'postgres') throw new Error('expected a Postgres client')
    const held = await client.pool.connect()
    try {
      const startedAt = Date.now()
      expect(await readFailure(client.db.execute(sql`select 1`))).toMatch(/timeout/i)
      expect(Date.now() - startedAt).toBeLessThan(5_000)
    } finally {
      held.release()
    }
    const { rows } = await client.db.execute<{ one: number }>(sql`select 1 as one`)
    expect(rows).toEqual([{ one: 1 }])
  })
})

describe('the readiness probe on PostgreSQL', () => {
  it('reaches the database while every connection of the app’s pool is taken, and says when it does not answer', async () => {
    const postgres = await startPostgres()
    const client = await createDatabaseClient(
      { kind: 'postgres', url: postgres.url },
      { acquireTimeoutMs: 300, maxConnections: 1 },
    )
    const probe = createDatabaseProbe(client.db)
    try {
      if (client.kind !== 'postgres') throw new Error('expected a Postgres client')
      const held = await client.pool.connect()
      try {
        // The app's own queries wait for the pool and give up; the probe does not wait for them.
        expect(await readFailure(client.db.execute(sql`select 1`))).toMatch(/timeout/i)
        await expect(probe.probe()).resolves.toBeUndefined()
      } finally {
        held.release()
      }
      await postgres.stop()
      await expect(probe.probe()).rejects.toThrow()
    } finally {
      await probe.close()
      await client.close()
      await postgres.stop().catch(() => {})
    }
  }, 60_000)
})
