import { randomUUID } from 'node:crypto'
import { createTestDatabase } from '@quicklinks/runtime/test/pglite-template'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SignerDatabase } from '../db/signer-database.ts'
import { signerOrganizations, signerUsers, signerWallets } from '../db/signer-schema.ts'
import { isSignerWallet } from './is-signer-wallet.ts'

let database: Awaited<ReturnType<typeof createTestDatabase>>
let db: SignerDatabase
beforeAll(async () => {
  database = await createTestDatabase()
  db = database.db
})
afterAll(async () => {
  await database.close()
})

describe('isSignerWallet', () => {
  it("answers true for a signer wallet's address, whatever its casing, and false for any other", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey())
    const stranger = privateKeyToAccount(generatePrivateKey())
    const organizationId = randomUUID()
    const userId = randomUUID()
    await db.insert(signerOrganizations).values({ id: organizationId })
    await db.insert(signerUsers).values({ id: userId, organizationId, email: null })
    await db.insert(signerWallets).values({
      id: randomUUID(),
      userId,
      sealedMnemonic: 'sealed',
      evmAddress: wallet.address,
      solanaAddress: `solana-${userId}`,
    })
    expect(await isSignerWallet(db, wallet.address.toLowerCase() as `0x${string}`)).toBe(true)
    expect(await isSignerWallet(db, stranger.address)).toBe(false)
  })
})
