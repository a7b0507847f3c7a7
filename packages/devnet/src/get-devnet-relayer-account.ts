import type { HDAccount } from 'viem/accounts'
import { devnetRelayerAccountIndex } from './devnet-chains.ts'
import { getDevnetAccount } from './get-devnet-account.ts'

/**
 * The devnet relayer as a viem account that signs locally: account 9 of the test mnemonic, the
 * `relayer` every devnet PayRouter trusts. For development and tests only; its key is public.
 */
export function getDevnetRelayerAccount(): HDAccount {
  return getDevnetAccount(devnetRelayerAccountIndex)
}
