import { readFileSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { getPgliteRuntime } from '@quicklinks/runtime/test/pglite-template'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { afterEach, describe, expect, it } from 'vitest'
import { signerMigrations } from './signer-migrations.ts'

/** The signer tables as the app server's migrations made them before the signer had its own. */
const preSplitSql = readFileSync(
  new URL('../../test/fixtures/pre-split-signer-tables.sql', import.meta.url),
  'utf8',
)

const opened: PGlite[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((pglite) => pglite.close()))
})

async function openDatabase() {
  const pglite = new PGlite({ ...(await getPgliteRuntime()) })
  await pglite.waitReady
  opened.push(pglite)
  return drizzle({ client: pglite })
}

type Database = Awaited<ReturnType<typeof openDatabase>>

/** Every column, index and constraint of the signer's tables: what the signer's queries rely on. */
async function describeSignerTables(db: Database) {
  const columns = await db.execute<Record<string, string>>(sql`
    SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity
    FROM information_schema.columns WHERE table_name LIKE 'signer\_%'
    ORDER BY table_name, column_name`)
  const indexes = await db.execute<Record<string, string>>(sql`
    SELECT tablename, indexname, indexdef FROM pg_indexes WHERE tablename LIKE 'signer\_%'
    ORDER BY tablename, indexname`)
  const constraints = await db.execute<Record<string, string>>(sql`
    SELECT conname, pg_get_constraintdef(oid) AS definition FROM pg_constraint
    WHERE conrelid::regclass::text LIKE 'signer\_%' ORDER BY conname`)
  return { columns: columns.rows, indexes: indexes.rows, constraints: constraints.rows }
}

async function countApplied(db: Database): Promise<number | undefined> {
  const result = await db.execute<{ count: number }>(
    sql`SELECT count(*)::int AS count FROM drizzle.__signer_migrations`,
  )
  return result.rows[0]?.count
}

describe('the signer migrations', () => {
  it('create every signer table on an empty database, and a second run changes nothing', async () => {
    const db = await openDatabase()
    await migrate(db, signerMigrations)
    const first = await describeSignerTables(db)
    expect(new Set(first.columns.map((column) => column.table_name))).toEqual(
      new Set([
        'signer_activities',
        'signer_auth_methods',
        'signer_code_failures',
        'signer_contact_locks',
        'signer_oauth_links',
        'signer_organizations',
        'signer_otps',
        'signer_service_keys',
        'signer_session_keys',
        'signer_stamp_replays',
        'signer_totp_failures',
        'signer_users',
        'signer_wallet_reservations',
        'signer_wallets',
      ]),
    )
    await migrate(db, signerMigrations)
    expect(await describeSignerTables(db)).toEqual(first)
    expect(await countApplied(db)).toBe(4)
  })

  it('take over a database whose signer tables the app server made before the move: same shape, rows kept', async () => {
    const fresh = await openDatabase()
    await migrate(fresh, signerMigrations)

    const existing = await openDatabase()
    await existing.$client.exec(preSplitSql)
    await existing.execute(sql`INSERT INTO signer_organizations (id) VALUES ('org-before-the-move')`)
    await migrate(existing, signerMigrations)

    expect(await countApplied(existing)).toBe(4)
    const rows = await existing.execute<{ id: string }>(sql`SELECT id FROM signer_organizations`)
    expect(rows.rows).toEqual([{ id: 'org-before-the-move' }])
    // Column order may differ (ALTER TABLE appends); everything the queries see is the same.
    expect(await describeSignerTables(existing)).toEqual(await describeSignerTables(fresh))
  })
})
