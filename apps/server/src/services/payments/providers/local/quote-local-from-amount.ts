import { AppError } from '@quicklinks/core/app-error'
import type { DevnetChainDeployment } from '@quicklinks/devnet/devnet-deployment'
import { formatUnits, type PublicClient } from 'viem'
import { ceilDivide, grossUpForSlippage } from '../../route/quote-route.ts'
import type { RouteRequest } from '../../route/routing-provider.ts'
import type { BuildLocalRouteOptions } from './build-local-route.ts'
import {
  getLocalChainOrThrow,
  getLocalTokenOrThrow,
  getLocalUsdcOrThrow,
  type LocalToken,
} from './local-devnet-chain.ts'
import { isRpcUnreachable } from './local-route-parts.ts'
import { buildLocalSwapPath } from './uniswap/build-local-swap-path.ts'
import { quoteUniswapAmountIn } from './uniswap/quote-uniswap-amount-in.ts'

/** An exact-output request: the receiver must get at least `toAmountMin` after slippage. */
export type LocalExactOutputRequest = Omit<RouteRequest, 'fromAmount'> & { toAmountMin: bigint }

/**
 * The input of a `local` route whose minimum (what buildLocalRoute guarantees after slippage) is at
 * least `toAmountMin`, by walking the route backwards with Uniswap V2's getAmountsIn: the same
 * token on one chain pays the amount itself; a swap buys the amount grossed up for slippage; a
 * cross-chain route needs the destination swap's input (or the amount, for USDC) as the escrow's
 * minimum, which the source swap buys grossed up for its own slippage. Throws AppError 422 for an
 * unknown chain or token or no liquidity for that much, 503 when an RPC does not answer.
 */
export async function quoteLocalFromAmount(
  options: Pick<BuildLocalRouteOptions, 'deployment' | 'getClient'>,
  request: LocalExactOutputRequest,
): Promise<bigint> {
  const fromChain = getLocalChainOrThrow(options.deployment, request.fromChainId, 'fromChain')
  const toChain = getLocalChainOrThrow(options.deployment, request.toChainId, 'toChain')
  const fromToken = getLocalTokenOrThrow(fromChain, request.fromToken, 'fromToken')
  const toToken = getLocalTokenOrThrow(toChain, request.toToken, 'toToken')
  const buy = (chain: DevnetChainDeployment, from: LocalToken, to: LocalToken, amountOut: bigint) => {
    const path = buildLocalSwapPath(from, to, getLocalUsdcOrThrow(chain))
    if (path.length === 0) return Promise.resolve(amountOut)
    return quoteAmountInOrThrow(
      options.getClient(chain),
      chain,
      path,
      to,
      grossUpForSlippage(amountOut, request.slippage),
    )
  }
  if (fromChain.chainId === toChain.chainId) return buy(fromChain, fromToken, toToken, request.toAmountMin)
  // Destination: the relayer's USDC (the escrow's minimum, rescaled) buys the link's token.
  const destinationUsdc = getLocalUsdcOrThrow(toChain)
  const sourceUsdc = getLocalUsdcOrThrow(fromChain)
  const destinationMinIn = await buy(toChain, destinationUsdc, toToken, request.toAmountMin)
  const minEscrow = scaleAmountUp(destinationMinIn, destinationUsdc.decimals, sourceUsdc.decimals)
  // Source: the payer's token buys that escrow, grossed up since the escrow's minimum takes slippage off.
  return buy(fromChain, fromToken, sourceUsdc, minEscrow)
}

/** `amount` between two decimal precisions, rounded up (so scaling it back is never short). */
function scaleAmountUp(amount: bigint, fromDecimals: number, toDecimals: number): bigint {
  if (fromDecimals <= toDecimals) return amount * 10n ** BigInt(toDecimals - fromDecimals)
  return ceilDivide(amount, 10n ** BigInt(fromDecimals - toDecimals))
}

async function quoteAmountInOrThrow(
  client: PublicClient,
  chain: DevnetChainDeployment,
  path: readonly `0x${string}`[],
  toToken: LocalToken,
  amountOut: bigint,
): Promise<bigint> {
  try {
    return await quoteUniswapAmountIn({ client, router: chain.contracts.uniswapV2Router, amountOut, path })
  } catch (error) {
    if (isRpcUnreachable(error)) {
      throw new AppError('SERVICE_UNAVAILABLE', {
        message: `RPC of chain ${chain.chainId} failed during an exact-output quote`,
        userMessage: `${chain.name} is not answering right now. Try again shortly.`,
        cause: error,
      })
    }
    throw new AppError('VALIDATION_FAILED', {
      field: 'toAmount',
      message: `getAmountsIn reverted on chain ${chain.chainId}`,
      userMessage: `No liquidity on ${chain.name} to buy ${formatUnits(amountOut, toToken.decimals)} ${toToken.symbol}: pay in another token.`,
      cause: error,
    })
  }
}
