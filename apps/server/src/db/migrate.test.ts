import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  createDatabaseClient,
  type DatabaseClient,
  type DatabaseTarget,
} from '@quicklinks/runtime/db/create-database-client'
import { startPostgres } from '@quicklinks/runtime/test/start-postgres'
import { signerMigrations } from '@quicklinks/signer/db/signer-migrations'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp } from '../../test/build-test-app.ts'
import { createSession } from '../services/sessions/create-session.ts'
import { getSessionUser } from '../services/sessions/get-session-user.ts'
import { revokeSession } from '../services/sessions/revoke-session.ts'
import { getOrCreateUser } from '../services/users/get-or-create-user.ts'
import { migrate, migrationsFolder } from './migrate.ts'

/** How many migrations are checked in (drizzle-kit's journal lists each once). */
const migrationCount = (
  JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }
).entries.length

/** How many migrations the signer's own set holds. */
const signerMigrationCount = (
  JSON.parse(readFileSync(join(signerMigrations.migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[]
  }
).entries.length

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'

async function listTables(database: DatabaseClient): Promise<string[]> {
  const result = await database.db.execute<{ table_name: string }>(
    sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
  )
  return result.rows.map((row) => row.table_name)
}

/** The same checks on each backend: migrate from empty, twice, then a session round trip through the app. */
function describeBackend(
  name: string,
  startBackend: () => Promise<{ target: DatabaseTarget; stop(): Promise<void> }>,
) {
  describe(`migrations on ${name}`, () => {
    let database: DatabaseClient
    let stopBackend: (() => Promise<void>) | undefined
    beforeAll(async () => {
      const backend = await startBackend()
      stopBackend = backend.stop
      database = await createDatabaseClient(backend.target)
    })
    afterAll(async () => {
      await database?.close()
      await stopBackend?.()
    })

    it('create every table from an empty database, and a second run changes nothing', async () => {
      expect(await listTables(database)).toEqual([])
      await migrate(database)
      expect(await listTables(database)).toEqual(expect.arrayContaining(['sessions', 'siwe_nonces', 'users']))
      await migrate(database)
      const applied = await database.db.execute<{ count: number }>(
        sql`SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations`,
      )
      expect(migrationCount).toBeGreaterThan(1)
      expect(applied.rows[0]?.count).toBe(migrationCount)
    })

    it("run the signer's own migration set too, recorded apart", async () => {
      expect(await listTables(database)).toEqual(
        expect.arrayContaining(['signer_organizations', 'signer_users', 'signer_wallets']),
      )
      const applied = await database.db.execute<{ count: number }>(
        sql`SELECT count(*)::int AS count FROM drizzle.__signer_migrations`,
      )
      expect(applied.rows[0]?.count).toBe(signerMigrationCount)
    })

    it('support a session round trip through the services and the app', async () => {
      const user = await getOrCreateUser(database.db, {
        address: '0x00000000000000000000000000000000000000aA',
      })
      expect(
        (await getOrCreateUser(database.db, { address: '0x00000000000000000000000000000000000000AA' })).id,
      ).toBe(user.id)
      const { token } = await createSession(database.db, { userId: user.id })
      expect((await getSessionUser(database.db, token))?.id).toBe(user.id)

      const testApp = await buildTestApp({}, { database })
      try {
        const me = await testApp.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          cookies: { ql_session: token },
        })
        expect(me.statusCode).toBe(200)
        expect(me.json().data.id).toBe(user.id)
        const logout = await testApp.app.inject({
          method: 'POST',
          url: '/api/auth/logout',
          cookies: { ql_session: token, csrf_token: csrf },
          headers: { 'x-csrf-token': csrf },
        })
        expect(logout.statusCode).toBe(200)
        const after = await testApp.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          cookies: { ql_session: token },
        })
        expect(after.statusCode).toBe(401)
      } finally {
        await testApp.app.close()
      }
      await revokeSession(database.db, token)
      expect(await getSessionUser(database.db, token)).toBeNull()
    })
  })
}

describeBackend('PGlite', async () => ({ target: { kind: 'pglite' }, stop: async () => {} }))

// A real server from Debian's binaries; if they are missing this fails with the apt-get command.
describeBackend('PostgreSQL 15', async () => {
  const postgres = await startPostgres()
  return { target: { kind: 'postgres', url: postgres.url }, stop: postgres.stop }
})
