import type { LocalAccount } from 'viem'
import type { ServerConfig } from '../../../../../config/server-env.ts'
import { getSigningAccount } from '../../../../chains/get-signing-account.ts'

/** Index of the devnet's relayer in the test mnemonic (the devnet funds its inventory). */
export const devnetRelayerAccountIndex = 9

/**
 * The key the local relayer signs fills, settlements and refunds with: RELAYER_PRIVATE_KEY, else
 * in dev mode the devnet's relayer account (test mnemonic index 9), else none (cross-chain local
 * routes then answer 503 and no relayer runs). Never throws.
 */
export function getRelayerAccount(
  config: Pick<ServerConfig, 'relayerPrivateKey' | 'devMode'>,
): LocalAccount | undefined {
  return getSigningAccount(config.relayerPrivateKey, config.devMode, devnetRelayerAccountIndex)
}
