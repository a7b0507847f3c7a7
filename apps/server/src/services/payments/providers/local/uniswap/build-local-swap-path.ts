import type { LocalToken } from '../local-devnet-chain.ts'

/**
 * The Uniswap V2 path from one token to another through the devnet's pools, which all pair
 * with USDC: direct when either end is USDC, otherwise through USDC. Empty when both ends are the
 * same pool token (ETH and WETH), which no swap connects.
 */
export function buildLocalSwapPath(from: LocalToken, to: LocalToken, usdc: LocalToken): `0x${string}`[] {
  if (from.poolAddress === to.poolAddress) return []
  if (from.poolAddress === usdc.poolAddress || to.poolAddress === usdc.poolAddress) {
    return [from.poolAddress, to.poolAddress]
  }
  return [from.poolAddress, usdc.poolAddress, to.poolAddress]
}
