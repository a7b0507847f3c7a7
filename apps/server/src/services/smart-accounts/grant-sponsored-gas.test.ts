import { createDatabaseClient, type DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { type RunningPostgres, startPostgres } from '@quicklinks/runtime/test/start-postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../../../test/build-test-app.ts'
import { migrate } from '../../db/migrate.ts'
import { getOrCreateUser } from '../users/get-or-create-user.ts'
import { getGrantedSponsoredGas, grantSponsoredGas } from './grant-sponsored-gas.ts'

/** Ten grants of 3 wei at once against a cap of 10: exactly three may pass, whatever the order. */
async function raceAtTheCap(database: DatabaseClient) {
  const user = await getOrCreateUser(database.db, {
    address: `0x${Math.floor(Math.random() * 2 ** 48)
      .toString(16)
      .padStart(40, '0')}`,
  })
  const key = { userId: user.id, policyId: 'wallet', day: '2026-11-24' }
  const results = await Promise.all(
    Array.from({ length: 10 }, () => grantSponsoredGas(database.db, { ...key, costWei: 3n, capWei: 10n })),
  )
  return {
    granted: results.filter(Boolean).length,
    total: await getGrantedSponsoredGas(database.db, key),
    key,
  }
}

describe('grantSponsoredGas', () => {
  let pglite: DatabaseClient
  beforeAll(async () => {
    pglite = await createTestDatabase()
  })
  afterAll(async () => {
    await pglite?.close()
  })

  it('adds grants up to the cap per user, policy and day, and refuses the one that would pass it', async () => {
    const user = await getOrCreateUser(pglite.db, { address: '0x00000000000000000000000000000000000000a1' })
    const key = { userId: user.id, policyId: 'wallet', day: '2026-11-24' }
    expect(await grantSponsoredGas(pglite.db, { ...key, costWei: 6n, capWei: 10n })).toBe(true)
    expect(await grantSponsoredGas(pglite.db, { ...key, costWei: 5n, capWei: 10n })).toBe(false)
    expect(await grantSponsoredGas(pglite.db, { ...key, costWei: 4n, capWei: 10n })).toBe(true)
    expect(await getGrantedSponsoredGas(pglite.db, key)).toBe(10n)
    expect(await grantSponsoredGas(pglite.db, { ...key, costWei: 1n, capWei: 10n })).toBe(false)
    // Another day and another policy start from nothing; a cost above the cap never passes.
    expect(await grantSponsoredGas(pglite.db, { ...key, day: '2026-11-25', costWei: 10n, capWei: 10n })).toBe(
      true,
    )
    expect(await grantSponsoredGas(pglite.db, { ...key, policyId: 'other', costWei: 11n, capWei: 10n })).toBe(
      false,
    )
    expect(await getGrantedSponsoredGas(pglite.db, { ...key, policyId: 'other' })).toBe(0n)
  })

  it('lets exactly as many racing grants through as the cap holds (PGlite)', async () => {
    const { granted, total } = await raceAtTheCap(pglite)
    expect(granted).toBe(3)
    expect(total).toBe(9n)
  })

  describe('on PostgreSQL, from several connections at once', () => {
    let postgres: RunningPostgres
    const clients: DatabaseClient[] = []
    beforeAll(async () => {
      postgres = await startPostgres()
    }, 120_000)
    afterAll(async () => {
      for (const client of clients) await client.close()
      await postgres?.stop()
    })

    it('lets exactly as many racing grants through as the cap holds', async () => {
      const first = await createDatabaseClient({ kind: 'postgres', url: postgres.url })
      clients.push(first)
      await migrate(first)
      const { key } = await raceAtTheCap(first)
      // Two pools (two instances of the app) race on one user's fresh day: no row exists yet.
      const second = await createDatabaseClient({ kind: 'postgres', url: postgres.url })
      clients.push(second)
      const day = { ...key, day: '2026-11-25' }
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          grantSponsoredGas((index % 2 === 0 ? first : second).db, { ...day, costWei: 4n, capWei: 10n }),
        ),
      )
      expect(results.filter(Boolean)).toHaveLength(2)
      expect(await getGrantedSponsoredGas(second.db, day)).toBe(8n)
      const again = await raceAtTheCap(first)
      expect(again.granted).toBe(3)
      expect(again.total).toBe(9n)
    }, 60_000)
  })
})
