import { isNativeTokenAddress } from '@quicklinks/core/native-token-address'
import { type Address, getAddress, isAddress } from 'viem'
import type { SponsorPolicyConfig } from '../../config/sponsor-policy-settings.ts'
import type { SmartAccountChain } from './list-smart-account-chains.ts'

/** What a policy lets an account call on one chain, by lower-case address. */
export type SponsorPolicyTargets = {
  /** ERC-20s whose transfer and approve are paid for. */
  tokens: ReadonlySet<string>
  /** Contracts any call to which is paid for. */
  contracts: ReadonlySet<string>
}

/**
 * A policy's tokens and contracts on `chain`: addresses as given, token symbols looked up among the
 * chain's catalogue tokens (case-insensitive; the native token has no contract and is skipped),
 * `devnetContracts` from the devnet deployment. Pure.
 */
export function resolveSponsorPolicyTargets(
  policy: SponsorPolicyConfig,
  chain: Pick<SmartAccountChain, 'chainId' | 'payRouter'>,
  catalogueTokens: readonly { chainId: number; address: string; symbol: string }[],
): SponsorPolicyTargets {
  const tokens = new Set<string>()
  for (const entry of policy.tokens) {
    if (isAddress(entry, { strict: false })) {
      tokens.add(entry.toLowerCase())
      continue
    }
    for (const token of catalogueTokens) {
      if (token.chainId !== chain.chainId || token.symbol.toUpperCase() !== entry.toUpperCase()) continue
      if (isNativeTokenAddress(token.address)) continue
      tokens.add(token.address.toLowerCase())
    }
  }
  const contracts = new Set<string>(policy.contracts.map((address) => address.toLowerCase()))
  for (const name of policy.devnetContracts ?? []) {
    const address: Address | null = name === 'payRouter' ? chain.payRouter : null
    if (address !== null) contracts.add(getAddress(address).toLowerCase())
  }
  return { tokens, contracts }
}
