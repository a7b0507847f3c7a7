import { signerUsers, signerWallets } from '@quicklinks/signer/db/signer-schema'
import { eq } from 'drizzle-orm'
import { type Address, getAddress } from 'viem'
import type { Database } from '../../db/create-database-client.ts'

/**
 * The e-mail the signer service holds for the owner of the wallet with this EVM address, or null
 * (no such wallet, or an SMS-only account). The app session takes the e-mail from here,
 * server-side, never from the client. Rejects only when the database fails.
 */
export async function getSignerEmail(db: Database, address: Address): Promise<string | null> {
  const rows = await db
    .select({ email: signerUsers.email })
    .from(signerWallets)
    .innerJoin(signerUsers, eq(signerUsers.id, signerWallets.userId))
    // The signer stores EIP-55 checksummed addresses.
    .where(eq(signerWallets.evmAddress, getAddress(address)))
    .limit(1)
  return rows[0]?.email ?? null
}
