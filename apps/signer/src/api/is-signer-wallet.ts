import { eq } from 'drizzle-orm'
import { type Address, getAddress } from 'viem'
import type { SignerDatabase } from '../db/signer-database.ts'
import { signerWallets } from '../db/signer-schema.ts'

/**
 * Whether `evmAddress` is the EVM address of a wallet the signer holds (an embedded wallet). Part
 * of the signer's in-process API (`src/api/`): the sponsor service asks it to pay gas only for
 * embedded wallets and the smart accounts they own, not for any EOA that signs in with Ethereum.
 *
 * Rejects only when the database fails.
 */
export async function isSignerWallet(db: SignerDatabase, evmAddress: Address): Promise<boolean> {
  const rows = await db
    .select({ id: signerWallets.id })
    .from(signerWallets)
    // Wallets are stored under their EIP-55 checksummed address.
    .where(eq(signerWallets.evmAddress, getAddress(evmAddress)))
    .limit(1)
  return rows.length === 1
}
