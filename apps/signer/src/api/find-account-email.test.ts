import { randomUUID } from 'node:crypto'
import { createTestDatabase } from '@quicklinks/runtime/test/pglite-template'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SignerDatabase } from '../db/signer-database.ts'
import { signerOrganizations, signerUsers, signerWallets } from '../db/signer-schema.ts'
import { findAccountEmail } from './find-account-email.ts'
import { findAccountSolanaAddress } from './find-account-solana-address.ts'

let database: Awaited<ReturnType<typeof createTestDatabase>>
let db: SignerDatabase
beforeAll(async () => {
  database = await createTestDatabase()
  db = database.db
})
afterAll(async () => {
  await database.close()
})

async function createAccount(input: { email: string | null; evmAddress: string }): Promise<void> {
  const organizationId = randomUUID()
  const userId = randomUUID()
  await db.insert(signerOrganizations).values({ id: organizationId })
  await db.insert(signerUsers).values({ id: userId, organizationId, email: input.email })
  await db.insert(signerWallets).values({
    id: randomUUID(),
    userId,
    sealedMnemonic: 'sealed',
    evmAddress: input.evmAddress,
    solanaAddress: `solana-${userId}`,
  })
}

describe('findAccountEmail', () => {
  it("reads the e-mail of the signer's user owning the wallet address, whatever its casing", async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    expect(await findAccountEmail(db, account.address)).toBeNull()
    await createAccount({ email: 'lin@example.com', evmAddress: account.address })
    expect(await findAccountEmail(db, account.address.toLowerCase() as `0x${string}`)).toBe('lin@example.com')
  })

  it('answers null for an account without an e-mail (SMS only)', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    await createAccount({ email: null, evmAddress: account.address })
    expect(await findAccountEmail(db, account.address)).toBeNull()
  })
})

describe('findAccountSolanaAddress', () => {
  it('reads the Solana address of the signer wallet with that EVM address, whatever its casing, else null', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    expect(await findAccountSolanaAddress(db, account.address)).toBeNull()
    await createAccount({ email: null, evmAddress: account.address })
    const solanaAddress = await findAccountSolanaAddress(db, account.address.toLowerCase() as `0x${string}`)
    expect(solanaAddress).toMatch(/^solana-/)
    const other = privateKeyToAccount(generatePrivateKey())
    expect(await findAccountSolanaAddress(db, other.address)).toBeNull()
  })
})
