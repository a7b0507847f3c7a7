import { AppError } from '@quicklinks/core/app-error'
import type { DevnetChainDeployment } from '@quicklinks/devnet/devnet-deployment'
import { erc20Abi, formatUnits, type PublicClient } from 'viem'
import type { RouteAction, RouteQuote, RouteTokenRef } from '../../route/routing-provider.ts'
import type { LocalToken } from './local-devnet-chain.ts'
import { quoteUniswapAmountOut } from './uniswap/quote-uniswap-amount-out.ts'

// The pieces every local route is made of (build-local-route.ts): PayRouter transaction requests,
// route actions, Uniswap quotes and the checks that turn a route down with a sentence.

/**
 * Step estimates of the devnet (the web's own estimate of a swap is 15 s,
 * docs/product.md#payment-progress; the relayer fills in seconds).
 */
export const localStepEstimatesMs = { swap: 15_000, bridge: 30_000, transfer: 5_000 } as const
const swapProvider = 'Uniswap V2'
/** The bridge step's provider name. */
export const bridgeProvider = 'Quick Links relayer'
const transferProvider = 'PayRouter'

/** The transaction request of a PayRouter call, `to` and `target` alike. */
export function buildTransactionRequest(
  to: `0x${string}`,
  data: `0x${string}`,
  value: bigint,
  gasLimit: bigint,
): RouteQuote['transactionRequest'] {
  return { to, target: to, data, value: value.toString(), gasLimit: gasLimit.toString() }
}

/**
 * A generous gas limit for a PayRouter call with `swapHops` pool hops. Wallets cannot estimate an
 * ERC-20 payment before its approval, and an estimate made in one block second falls short when a
 * pool's first swap of the next second also writes its price accumulators; unused gas is refunded.
 */
export function getLocalGasLimit(swapHops: number): bigint {
  return 200_000n + 150_000n * BigInt(swapHops)
}

function toTokenRef(token: LocalToken): RouteTokenRef {
  return {
    chainId: token.chainId,
    address: token.address,
    symbol: token.symbol,
    decimals: token.decimals,
    logoURI: '',
  }
}

/** One route action between two local tokens, with the devnet's step estimate. */
export function buildAction(
  type: RouteAction['type'],
  from: LocalToken,
  to: LocalToken,
  fromAmount: bigint,
  toAmount: bigint,
  toAmountMin: bigint,
  provider: string = type === 'swap' ? swapProvider : type === 'bridge' ? bridgeProvider : transferProvider,
): RouteAction {
  return {
    type,
    fromChainId: from.chainId,
    toChainId: to.chainId,
    fromToken: toTokenRef(from),
    toToken: toTokenRef(to),
    fromAmount: fromAmount.toString(),
    toAmount: toAmount.toString(),
    toAmountMin: toAmountMin.toString(),
    provider,
    providerLogoURI: '',
    estimatedMs: localStepEstimatesMs[type],
  }
}

/** `amount` less `slippage` percent (basis-point precision), rounded down. */
export function applySlippage(amount: bigint, slippage: number): bigint {
  const basisPoints = BigInt(Math.round(slippage * 100))
  return (amount * (10_000n - basisPoints)) / 10_000n
}

/** Uniswap V2's quote for `amountIn` along `path`; 422 when the pools cannot take it. */
export async function quoteSwapOrThrow(
  client: PublicClient,
  chain: DevnetChainDeployment,
  amountIn: bigint,
  path: readonly `0x${string}`[],
  fromToken: LocalToken,
): Promise<bigint> {
  try {
    return await quoteUniswapAmountOut({ client, router: chain.contracts.uniswapV2Router, amountIn, path })
  } catch (error) {
    if (isRpcUnreachable(error)) {
      throw new AppError('SERVICE_UNAVAILABLE', {
        message: `RPC of chain ${chain.chainId} failed during a quote`,
        userMessage: `${chain.name} is not answering right now. Try again shortly.`,
        cause: error,
      })
    }
    throw new AppError('VALIDATION_FAILED', {
      field: 'fromAmount',
      message: `getAmountsOut reverted on chain ${chain.chainId}`,
      userMessage: `No liquidity on ${chain.name} to swap ${formatUnits(amountIn, fromToken.decimals)} ${fromToken.symbol}: try a smaller amount or another token.`,
      cause: error,
    })
  }
}

/** True when `error` is the RPC not answering (rather than a call that reverted). */
export function isRpcUnreachable(error: unknown): boolean {
  const unreachable = AppError.walk(
    error,
    (candidate) =>
      candidate instanceof Error &&
      (candidate.name === 'HttpRequestError' || candidate.name === 'TimeoutError'),
  )
  return unreachable !== undefined
}

/** 422 when a minimum rounds down to nothing. */
export function assertNotTooSmall(amount: bigint, fromToken: LocalToken, fromAmount: bigint): void {
  if (amount > 0n) return
  throw new AppError('VALIDATION_FAILED', {
    field: 'fromAmount',
    userMessage: `${formatUnits(fromAmount, fromToken.decimals)} ${fromToken.symbol} is too small to route: enter a larger amount.`,
  })
}

/** 422 when the relayer's USDC on the destination cannot fill `amount`. */
export async function assertRelayerCanFill(
  client: PublicClient,
  chain: DevnetChainDeployment,
  usdc: LocalToken,
  relayer: `0x${string}`,
  amount: bigint,
): Promise<void> {
  const balance = await client.readContract({
    address: usdc.contractAddress,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [relayer],
  })
  if (balance >= amount) return
  throw new AppError('VALIDATION_FAILED', {
    field: 'fromAmount',
    userMessage: `The relayer cannot fill ${formatUnits(amount, usdc.decimals)} USDC on ${chain.name} right now: enter a smaller amount.`,
  })
}
