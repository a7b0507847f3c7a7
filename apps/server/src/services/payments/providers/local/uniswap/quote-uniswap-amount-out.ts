import { uniswapV2Router02Abi } from '@quicklinks/contracts/generated/uniswap-v2-router02'
import type { PublicClient } from 'viem'

export type QuoteUniswapAmountOutOptions = {
  client: PublicClient
  /** The chain's Uniswap V2 router. */
  router: `0x${string}`
  amountIn: bigint
  /** Token addresses from input to output (see buildLocalSwapPath); at least two. */
  path: readonly `0x${string}`[]
}

/**
 * What Uniswap V2's router says `amountIn` of the path's first token buys of its last one
 * (`getAmountsOut`, on the pools' current reserves). The route builder quotes with it and the
 * relayer checks a fill with it, so both read the same number. Throws viem's error when the call
 * reverts (no pool, no liquidity, an amount the pools cannot take) or the RPC fails.
 */
export async function quoteUniswapAmountOut(options: QuoteUniswapAmountOutOptions): Promise<bigint> {
  const amounts = await options.client.readContract({
    address: options.router,
    abi: uniswapV2Router02Abi,
    functionName: 'getAmountsOut',
    args: [options.amountIn, [...options.path]],
  })
  return amounts[amounts.length - 1] ?? 0n
}
