import { randomUUID } from 'node:crypto'
import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { signerOrganizations, signerUsers, signerWallets } from '@quicklinks/signer/db/signer-schema'
import { eq } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../../../test/build-test-app.ts'
import { siweNonces } from '../../db/schema.ts'
import { createReadCaches } from '../cache/read-caches.ts'
import { consumeSiweNonce } from './consume-siwe-nonce.ts'
import { createSiweNonce, siweNonceLifetimeMs } from './create-siwe-nonce.ts'
import { signInWithSiwe } from './sign-in-with-siwe.ts'

const publicOrigin = 'http://localhost:3000'

describe('SIWE services', () => {
  let database: DatabaseClient
  beforeAll(async () => {
    database = await createTestDatabase()
  })
  afterAll(async () => {
    await database.close()
  })

  it('a nonce works once, and not after 10 minutes', async () => {
    const issued = new Date('2030-01-01T00:00:00Z')
    const once = await createSiweNonce(database.db, issued)
    expect(await consumeSiweNonce(database.db, once, issued)).toBe(true)
    expect(await consumeSiweNonce(database.db, once, issued)).toBe(false)

    const late = await createSiweNonce(database.db, issued)
    const justBefore = new Date(issued.getTime() + siweNonceLifetimeMs - 1)
    const atExpiry = new Date(issued.getTime() + siweNonceLifetimeMs)
    expect(await consumeSiweNonce(database.db, late, atExpiry)).toBe(false)
    const onTime = await createSiweNonce(database.db, issued)
    expect(await consumeSiweNonce(database.db, onTime, justBefore)).toBe(true)
  })

  it('sweeps expired nonces when handing out a new one', async () => {
    const old = await createSiweNonce(database.db, new Date('2020-01-01T00:00:00Z'))
    await createSiweNonce(database.db)
    expect(await database.db.select().from(siweNonces).where(eq(siweNonces.nonce, old))).toEqual([])
  })

  it("takes the user's e-mail from the signer's record, never from the message, and keeps it in step", async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    let signerEmail: string | null = 'ada@example.com'
    // A cached session lookup: whether a sign-in made the caches forget it (the loader runs again).
    const caches = createReadCaches()
    const isSessionCacheEmptied = async () => {
      let loads = 0
      const load = async () => {
        loads += 1
        return null
      }
      await caches.sessionUsers.get('some-session', load)
      return loads === 1
    }
    const signIn = async () => {
      const message = createSiweMessage({
        address: account.address,
        chainId: 8453,
        domain: 'localhost:3000',
        nonce: await createSiweNonce(database.db),
        uri: publicOrigin,
        version: '1',
        statement: 'Sign in as mallory@example.com',
      })
      return signInWithSiwe(
        database.db,
        { message, signature: await account.signMessage({ message }) },
        {
          publicOrigin,
          caches,
          getEmail: async (_db, address) => {
            expect(address).toBe(account.address)
            return signerEmail
          },
        },
      )
    }
    const first = await signIn()
    expect(first).toMatchObject({ address: account.address.toLowerCase(), email: 'ada@example.com' })
    await caches.sessionUsers.get('some-session', async () => ({
      user: first,
      expiresAt: Date.now() + 60_000,
    }))
    await signIn()
    // The same e-mail: nothing was written, the cached sessions stay.
    expect(await isSessionCacheEmptied()).toBe(false)
    signerEmail = 'ada@new.example.com'
    const second = await signIn()
    expect(second).toMatchObject({ id: first.id, email: 'ada@new.example.com' })
    // A refreshed e-mail: cached sessions, which hold the user row, are forgotten.
    expect(await isSessionCacheEmptied()).toBe(true)
    // The signer knows no e-mail (an SMS-only account): the stored one stays.
    signerEmail = null
    expect((await signIn()).email).toBe('ada@new.example.com')
  })

  it("reads the e-mail of the signer's user owning the wallet address", async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const organizationId = randomUUID()
    const userId = randomUUID()
    await database.db.insert(signerOrganizations).values({ id: organizationId })
    await database.db.insert(signerUsers).values({ id: userId, organizationId, email: 'lin@example.com' })
    await database.db.insert(signerWallets).values({
      id: randomUUID(),
      userId,
      sealedMnemonic: 'sealed',
      evmAddress: account.address,
      solanaAddress: `solana-${userId}`,
    })

    const message = createSiweMessage({
      address: account.address,
      chainId: 8453,
      domain: 'localhost:3000',
      nonce: await createSiweNonce(database.db),
      uri: publicOrigin,
      version: '1',
    })
    const user = await signInWithSiwe(
      database.db,
      { message, signature: await account.signMessage({ message }) },
      { publicOrigin },
    )
    expect(user.email).toBe('lin@example.com')
  })
})
