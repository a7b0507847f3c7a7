import { devnetPaymasterSignerIndex } from '@quicklinks/devnet/deploy-account-abstraction'
import { getDevnetAccount } from '@quicklinks/devnet/get-devnet-account'
import type { LocalAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { ServerConfig } from '../../config/server-env.ts'

/**
 * The key the sponsor service signs SponsorPaymaster data with: PAYMASTER_SIGNER_KEY, else in dev
 * mode the devnet paymaster's signer (test mnemonic index 12, which the devnet's SponsorPaymaster
 * trusts), else none (then nothing is sponsored). Never throws.
 */
export function getPaymasterSigner(
  config: Pick<ServerConfig, 'paymasterSignerKey' | 'devMode'>,
): LocalAccount | undefined {
  if (config.paymasterSignerKey) return privateKeyToAccount(config.paymasterSignerKey)
  if (config.devMode) return getDevnetAccount(devnetPaymasterSignerIndex)
  return undefined
}
