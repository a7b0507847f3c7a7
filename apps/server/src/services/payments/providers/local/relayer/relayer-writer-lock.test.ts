import { createDatabaseClient, type DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { type RunningPostgres, startPostgres } from '@quicklinks/runtime/test/start-postgres'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../../../../../../test/build-test-app.ts'
import { createRelayerWriterLock } from './relayer-writer-lock.ts'

const relayer = `0x${'a9'.repeat(20)}`
const otherRelayer = `0x${'b7'.repeat(20)}`

describe('the relayer writer lock on PGlite', () => {
  it('gives one writer per key among instances on one database, and the next once it is released', async () => {
    const database = await createTestDatabase()
    const other = await createTestDatabase()
    try {
      const first = createRelayerWriterLock(database.db, relayer)
      const second = createRelayerWriterLock(database.db, relayer)
      expect(await first.acquire()).toBe(true)
      expect(await first.acquire()).toBe(true)
      expect(await second.acquire()).toBe(false)
      // Another key, or another database, has a writer of its own.
      expect(await createRelayerWriterLock(database.db, otherRelayer).acquire()).toBe(true)
      expect(await createRelayerWriterLock(other.db, relayer).acquire()).toBe(true)

      await first.release()
      expect(await first.acquire()).toBe(false)
      expect(await second.acquire()).toBe(true)
    } finally {
      await database.close()
      await other.close()
    }
  })
})

describe('the relayer writer lock on PostgreSQL', () => {
  let postgres: RunningPostgres
  const clients: DatabaseClient[] = []

  beforeAll(async () => {
    postgres = await startPostgres()
  })

  afterAll(async () => {
    for (const client of clients) await client.close()
    await postgres?.stop()
  })

  it('holds a session advisory lock: one writer among processes, passed on at release or when its session dies', async () => {
    const open = async () => {
      const client = await createDatabaseClient({ kind: 'postgres', url: postgres.url })
      clients.push(client)
      return client
    }
    const one = await open()
    const two = await open()
    const first = createRelayerWriterLock(one.db, relayer)
    const second = createRelayerWriterLock(two.db, relayer)
    const third = createRelayerWriterLock(one.db, relayer)
    try {
      expect(await first.acquire()).toBe(true)
      expect(await second.acquire()).toBe(false)
      expect(await first.acquire()).toBe(true)

      await first.release()
      expect(await second.acquire()).toBe(true)
      expect(await first.acquire()).toBe(false)
      expect(await third.acquire()).toBe(false)

      // The holder's session ends (a crash, a dropped connection): the lock goes with it, so another
      // instance can take it, and the former holder finds it taken at its next check. With a
      // timeout, pg_terminate_backend returns once the backend has exited (its locks released).
      const terminated = await one.db.execute<{ isTerminated: boolean }>(
        sql`SELECT pg_terminate_backend(pid, 10000) AS "isTerminated" FROM pg_locks WHERE locktype = 'advisory' AND pid <> pg_backend_pid()`,
      )
      expect(terminated.rows.map((row) => row.isTerminated)).toEqual([true])
      expect(await third.acquire()).toBe(true)
      expect(await second.acquire()).toBe(false)
    } finally {
      // A held lock keeps its pooled connection: the pools only end once the locks are given back.
      await Promise.all([first.release(), second.release(), third.release()])
    }
  })
})
