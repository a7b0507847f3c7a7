import { eq } from 'drizzle-orm'
import { getAddress } from 'viem'
import type { SignerDatabase } from '../db/signer-database.ts'
import { signerWallets } from '../db/signer-schema.ts'

/**
 * The Solana address (base58, m/44'/501'/0'/0') of the signer wallet whose EVM address is
 * `evmAddress`, or null when no signer wallet has that address (an outside wallet signed in with
 * Ethereum). Part of the signer's in-process API (`src/api/`): the app server's Solana fee sponsor
 * asks it which Solana account is the signed-in user's own, so it pays only for transactions that
 * account signs.
 *
 * Rejects only when the database fails.
 */
export async function findAccountSolanaAddress(
  db: SignerDatabase,
  evmAddress: string,
): Promise<string | null> {
  const rows = await db
    .select({ solanaAddress: signerWallets.solanaAddress })
    .from(signerWallets)
    // Wallets are stored under their EIP-55 checksummed address.
    .where(eq(signerWallets.evmAddress, getAddress(evmAddress)))
    .limit(1)
  return rows[0]?.solanaAddress ?? null
}
