import { createValidationError } from '@quicklinks/core/parse-input-or-throw'
import { isNativeTokenAddress, type RoutingProvider } from '../payments/route/routing-provider.ts'

/** Base, the default chain of a link (docs/product.md#constants). */
export const defaultChainId = 8453

export type LinkTarget = { chain: string; chainId: number; tokenName: string; tokenAddress: string }

/**
 * Checks a link's chain and token against the routing provider's catalogue and returns them in
 * stored form: chain as its network identifier, the token's own symbol, the address lower-cased.
 * Throws AppError VALIDATION_FAILED naming chain, chain_id, token_address or token_name; the
 * provider's SERVICE_UNAVAILABLE passes through when it has no chains.
 */
export async function resolveLinkTarget(
  provider: RoutingProvider,
  input: {
    chain?: string | undefined
    chainId?: number | undefined
    tokenAddress: string
    tokenName?: string | undefined
  },
): Promise<LinkTarget> {
  const chains = (await provider.chains()).filter((chain) => chain.enabled && chain.visible)
  const listed = chains.map((chain) => `${chain.chainId} (${chain.networkIdentifier})`).join(', ')
  let chain = undefined as (typeof chains)[number] | undefined
  if (input.chainId !== undefined) {
    chain = chains.find((candidate) => candidate.chainId === input.chainId)
    if (!chain)
      throw createValidationError(
        'chain_id',
        `${input.chainId} is not a supported chain; use one of ${listed}`,
      )
    if (input.chain !== undefined && input.chain !== chain.networkIdentifier) {
      throw createValidationError(
        'chain',
        `must be "${chain.networkIdentifier}" for chain_id ${chain.chainId}`,
      )
    }
  } else if (input.chain !== undefined) {
    chain = chains.find((candidate) => candidate.networkIdentifier === input.chain)
    if (!chain)
      throw createValidationError('chain', `"${input.chain}" is not a supported chain; use one of ${listed}`)
  } else {
    chain = chains.find((candidate) => candidate.chainId === defaultChainId) ?? chains[0]
    if (!chain) throw createValidationError('chain_id', 'no chain is available')
  }
  const chainId = chain.chainId

  const tokens = (await provider.tokens({ withoutPrices: true })).filter(
    (token) => token.chainId === chainId && token.active && token.visible,
  )
  const address = input.tokenAddress.toLowerCase()
  const token = isNativeTokenAddress(address)
    ? tokens.find((candidate) => isNativeTokenAddress(candidate.address))
    : tokens.find((candidate) => candidate.address.toLowerCase() === address)
  if (!token) {
    const symbols = tokens.map((candidate) => candidate.symbol).join(', ')
    throw createValidationError('token_address', `is not a token on ${chain.networkName}; it has ${symbols}`)
  }
  if (input.tokenName !== undefined && input.tokenName.toLowerCase() !== token.symbol.toLowerCase()) {
    throw createValidationError('token_name', `must be "${token.symbol}", the symbol of token_address`)
  }
  return { chain: chain.networkIdentifier, chainId, tokenName: token.symbol, tokenAddress: address }
}
