import { eq } from 'drizzle-orm'
import { type Address, getAddress } from 'viem'
import type { SignerDatabase } from '../db/signer-database.ts'
import { signerUsers, signerWallets } from '../db/signer-schema.ts'

/**
 * The e-mail the signer holds for the owner of the wallet with this EVM address, or null (no such
 * wallet, or an SMS-only account). Part of the signer's in-process API (`src/api/`): the app server
 * asks this instead of reading the signer's tables, so the tables stay the signer's own. The app
 * session takes the e-mail from here, server-side, never from the client.
 *
 * Rejects only when the database fails.
 */
export async function findAccountEmail(db: SignerDatabase, evmAddress: Address): Promise<string | null> {
  const rows = await db
    .select({ email: signerUsers.email })
    .from(signerWallets)
    .innerJoin(signerUsers, eq(signerUsers.id, signerWallets.userId))
    // Wallets are stored under their EIP-55 checksummed address.
    .where(eq(signerWallets.evmAddress, getAddress(evmAddress)))
    .limit(1)
  return rows[0]?.email ?? null
}
