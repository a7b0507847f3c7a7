import { type HDAccount, mnemonicToAccount } from 'viem/accounts'
import { devnetMnemonic, devnetRelayerAccountIndex } from './devnet-chains.ts'

/**
 * The devnet relayer as a viem account that signs locally: account 9 of the test mnemonic, the
 * `relayer` every devnet PayRouter trusts. For development and tests only; its key is public.
 */
export function getDevnetRelayerAccount(): HDAccount {
  return mnemonicToAccount(devnetMnemonic, { addressIndex: devnetRelayerAccountIndex })
}
