import type { Address } from 'viem'
import type { Database } from '../../db/create-database-client.ts'

/**
 * The e-mail the signer service holds for the wallet owning `address`, or null. The app session
 * takes the e-mail from here, server-side, never from the client.
 *
 * The signer's tables are not in this database's schema yet, so this answers null until they are;
 * then it reads the owner of the wallet account with this EVM address.
 */
export async function getSignerEmail(_db: Database, _address: Address): Promise<string | null> {
  return null
}
