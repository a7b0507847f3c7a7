import { randomUUID } from 'node:crypto'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { signerOrganizations, signerUsers, signerWallets } from '@quicklinks/signer/db/signer-schema'
import type { Address } from 'viem'

/**
 * Records `evmAddress` as an embedded wallet of the signer (an organization, a user and a wallet
 * whose sealed mnemonic is a placeholder): what a sign-up through the signer leaves, for tests and
 * benches whose user holds the wallet's key itself. The sponsor service pays gas only for such
 * wallets and their smart accounts (`accounts: "embedded"`).
 */
export async function insertSignerWallet(db: Database, evmAddress: Address): Promise<void> {
  const organizationId = randomUUID()
  const userId = randomUUID()
  await db.insert(signerOrganizations).values({ id: organizationId })
  await db.insert(signerUsers).values({ id: userId, organizationId })
  await db.insert(signerWallets).values({
    id: randomUUID(),
    userId,
    sealedMnemonic: 'test-placeholder',
    evmAddress,
    solanaAddress: `test-${userId}`,
  })
}
