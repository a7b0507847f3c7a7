import { createDatabaseClient, type DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { type RunningPostgres, startPostgres } from '@quicklinks/runtime/test/start-postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../../../test/build-test-app.ts'
import { migrate } from '../../db/migrate.ts'
import { getOrCreateUser } from '../users/get-or-create-user.ts'
import { getGrantedSponsoredGas, grantSponsoredGas } from './grant-sponsored-gas.ts'

/** A policy-wide cap no test here reaches unless it says so. */
const roomy = 10n ** 30n

function createRandomUser(database: DatabaseClient) {
  return getOrCreateUser(database.db, {
    address: `0x${Math.floor(Math.random() * 2 ** 48)
      .toString(16)
      .padStart(40, '0')}`,
  })
}

/** Ten grants of 3 wei at once against a cap of 10: exactly three may pass, whatever the order. */
async function raceAtTheCap(database: DatabaseClient, policyId = 'wallet') {
  const user = await createRandomUser(database)
  const key = { userId: user.id, policyId, day: '2026-11-24' }
  const results = await Promise.all(
    Array.from({ length: 10 }, () =>
      grantSponsoredGas(database.db, { ...key, costWei: 3n, capWei: 10n, globalCapWei: roomy }),
    ),
  )
  return {
    granted: results.filter((result) => result === 'granted').length,
    total: (await getGrantedSponsoredGas(database.db, key)).userWei,
    key,
  }
}

/**
 * Twelve users at once, each granting 4 wei (within their own cap of 10), against a policy-wide cap
 * of 10 on `day`: exactly two may pass, and the refused ones leave nothing on their own rows.
 */
async function raceAtThePolicyCap(databases: DatabaseClient[], policyId: string, day: string) {
  const users = await Promise.all(
    Array.from({ length: 12 }, () => createRandomUser(databases[0] as DatabaseClient)),
  )
  const results = await Promise.all(
    users.map((user, index) =>
      grantSponsoredGas((databases[index % databases.length] as DatabaseClient).db, {
        userId: user.id,
        policyId,
        day,
        costWei: 4n,
        capWei: 10n,
        globalCapWei: 10n,
      }),
    ),
  )
  const totals = await Promise.all(
    users.map(
      async (user) =>
        (
          await getGrantedSponsoredGas((databases[0] as DatabaseClient).db, {
            userId: user.id,
            policyId,
            day,
          })
        ).userWei,
    ),
  )
  return {
    outcomes: results.toSorted(),
    userTotal: totals.reduce((sum, each) => sum + each, 0n),
    policyTotal: (
      await getGrantedSponsoredGas((databases[0] as DatabaseClient).db, {
        userId: users[0]?.id ?? '',
        policyId,
        day,
      })
    ).policyWei,
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
    const grant = (costWei: bigint, more: Partial<typeof key> = {}) =>
      grantSponsoredGas(pglite.db, { ...key, ...more, costWei, capWei: 10n, globalCapWei: roomy })
    expect(await grant(6n)).toBe('granted')
    expect(await grant(5n)).toBe('user-cap')
    expect(await grant(4n)).toBe('granted')
    expect((await getGrantedSponsoredGas(pglite.db, key)).userWei).toBe(10n)
    expect(await grant(1n)).toBe('user-cap')
    // Another day and another policy start from nothing; a cost above the cap never passes.
    expect(await grant(10n, { day: '2026-11-25' })).toBe('granted')
    expect(await grant(11n, { policyId: 'other' })).toBe('user-cap')
    expect(await getGrantedSponsoredGas(pglite.db, { ...key, policyId: 'other' })).toEqual({
      userWei: 0n,
      policyWei: 0n,
    })
  })

  it("counts every user's grants against the policy's daily cap, and rolls back a user's grant it refuses", async () => {
    const [first, second] = await Promise.all([createRandomUser(pglite), createRandomUser(pglite)])
    const day = '2026-11-24'
    const grant = (userId: string, costWei: bigint) =>
      grantSponsoredGas(pglite.db, {
        userId,
        policyId: 'global',
        day,
        costWei,
        capWei: 10n,
        globalCapWei: 12n,
      })
    expect(await grant(first.id, 8n)).toBe('granted')
    expect(await grant(second.id, 5n)).toBe('policy-cap')
    expect(await getGrantedSponsoredGas(pglite.db, { userId: second.id, policyId: 'global', day })).toEqual({
      userWei: 0n,
      policyWei: 8n,
    })
    expect(await grant(second.id, 4n)).toBe('granted')
    expect(await grant(second.id, 1n)).toBe('policy-cap')
    expect(await grant(second.id, 13n)).toBe('user-cap')
  })

  it('lets no more racing users through than the policy cap holds (PGlite)', async () => {
    const { outcomes, userTotal, policyTotal } = await raceAtThePolicyCap([pglite], 'race', '2026-11-24')
    expect(outcomes.filter((outcome) => outcome === 'granted')).toHaveLength(2)
    expect(policyTotal).toBe(8n)
    expect(userTotal).toBe(8n)
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
          grantSponsoredGas((index % 2 === 0 ? first : second).db, {
            ...day,
            costWei: 4n,
            capWei: 10n,
            globalCapWei: roomy,
          }),
        ),
      )
      expect(results.filter((result) => result === 'granted')).toHaveLength(2)
      expect((await getGrantedSponsoredGas(second.db, day)).userWei).toBe(8n)
      const again = await raceAtTheCap(first, 'wallet-2')
      expect(again.granted).toBe(3)
      expect(again.total).toBe(9n)
    }, 60_000)

    it("lets no more racing users through than the policy's cap holds, from two instances", async () => {
      const [first, second] = clients
      if (!first || !second) throw new Error('the previous test makes the clients')
      const { outcomes, userTotal, policyTotal } = await raceAtThePolicyCap(
        [first, second],
        'race',
        '2026-11-26',
      )
      expect(outcomes.filter((outcome) => outcome === 'granted')).toHaveLength(2)
      expect(policyTotal).toBe(8n)
      expect(userTotal).toBe(8n)
    }, 60_000)
  })
})
