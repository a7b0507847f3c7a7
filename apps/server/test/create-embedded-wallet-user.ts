import { randomUUID } from 'node:crypto'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { signerOrganizations, signerUsers, signerWallets } from '@quicklinks/signer/db/signer-schema'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { User } from '../src/db/schema.ts'
import { getOrCreateUser } from '../src/services/users/get-or-create-user.ts'

/**
 * An app user who signed in with an embedded wallet whose Solana account is `solanaAddress`: the
 * signer's records (organisation, user, wallet with a fresh EVM address and that Solana address)
 * as sign-up writes them, and the app's user of that EVM address. For tests that need the user's
 * Solana key in hand (a generated kit key pair) instead of signing through the signer.
 */
export async function createEmbeddedWalletUser(db: Database, solanaAddress: string): Promise<User> {
  const evmAddress = privateKeyToAccount(generatePrivateKey()).address
  const organizationId = randomUUID()
  const userId = randomUUID()
  await db.insert(signerOrganizations).values({ id: organizationId })
  await db.insert(signerUsers).values({ id: userId, organizationId })
  await db.insert(signerWallets).values({
    id: randomUUID(),
    userId,
    sealedMnemonic: 'sealed',
    evmAddress,
    solanaAddress,
  })
  return getOrCreateUser(db, { address: evmAddress })
}
