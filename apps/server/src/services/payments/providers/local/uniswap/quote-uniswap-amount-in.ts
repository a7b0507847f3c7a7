import { uniswapV2Router02Abi } from '@quicklinks/contracts/generated/uniswap-v2-router02'
import type { PublicClient } from 'viem'

export type QuoteUniswapAmountInOptions = {
  client: PublicClient
  /** The chain's Uniswap V2 router. */
  router: `0x${string}`
  amountOut: bigint
  /** Token addresses from input to output (see buildLocalSwapPath); at least two. */
  path: readonly `0x${string}`[]
}

/**
 * What `amountOut` of the path's last token costs in its first one (Uniswap V2's `getAmountsIn`,
 * on the pools' current reserves): `getAmountsOut` of the answer is at least `amountOut`, so an
 * exact-output route quotes with it. Throws viem's error when the call reverts (no pool, or more
 * than the pool holds) or the RPC fails.
 */
export async function quoteUniswapAmountIn(options: QuoteUniswapAmountInOptions): Promise<bigint> {
  const amounts = await options.client.readContract({
    address: options.router,
    abi: uniswapV2Router02Abi,
    functionName: 'getAmountsIn',
    args: [options.amountOut, [...options.path]],
  })
  return amounts[0] ?? 0n
}
