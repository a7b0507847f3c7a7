import { AppError } from '@quicklinks/core/app-error'
import type { DevnetChainDeployment, DevnetDeployment } from '@quicklinks/devnet/devnet-deployment'
import { erc20Abi, formatUnits, type PublicClient } from 'viem'
import { scaleAmount } from '../../../tokens/scale-amount.ts'
import type { RouteAction, RouteQuote, RouteRequest, RouteTokenRef } from '../../route/routing-provider.ts'
import {
  getLocalChainOrThrow,
  getLocalTokenOrThrow,
  getLocalUsdcOrThrow,
  type LocalToken,
} from './local-devnet-chain.ts'
import { encodePayRouterCall } from './payrouter/encode-pay-router-call.ts'
import { getPayRouterAddressOrThrow } from './payrouter/get-pay-router-address-or-throw.ts'
import { buildLocalSwapPath } from './uniswap/build-local-swap-path.ts'
import { quoteUniswapAmountOut } from './uniswap/quote-uniswap-amount-out.ts'

/**
 * Step estimates of the devnet (the web's own estimate of a swap is 15 s,
 * docs/product.md#payment-progress; the relayer fills in seconds).
 */
export const localStepEstimatesMs = { swap: 15_000, bridge: 30_000, transfer: 5_000 } as const
/** How long a cross-chain deposit waits for the relayer before the payer may take it back. */
export const localFillWindowSeconds = 600
/** How long a same-chain swap stays valid once sent. */
const swapDeadlineSeconds = 1200
const swapProvider = 'Uniswap V2'
const bridgeProvider = 'Quick Links relayer'
const transferProvider = 'PayRouter'

export type BuildLocalRouteOptions = {
  /** The devnet, as the deployment file says. */
  deployment: DevnetDeployment
  /** A public client for a chain (RPC_URL_<id> first, else the devnet's URL). */
  getClient: (chain: DevnetChainDeployment) => PublicClient
  /** The relayer account that fills cross-chain intents; without it cross-chain routes answer 503. */
  relayerAddress: `0x${string}` | undefined
  /** Epoch ms; tests move it. */
  now?: () => number
}

/**
 * Quotes a `local` route and builds the PayRouter call the payer sends (docs/decisions/0009):
 * `pay` for the same token on the same chain, `swapAndPay` for another token on the same chain,
 * `deposit` for another chain (escrow in the source chain's USDC, filled by the relayer). Quotes
 * come from Uniswap V2's `getAmountsOut`; minimums take `slippage` percent off.
 * Throws AppError 422 naming the field for an unknown chain or token, a payment to oneself, no
 * liquidity or an amount too small; 503 when cross-chain is asked for and no relayer is configured.
 */
export async function buildLocalRoute(
  options: BuildLocalRouteOptions,
  request: RouteRequest,
): Promise<RouteQuote> {
  const now = options.now ?? Date.now
  const fromChain = getLocalChainOrThrow(options.deployment, request.fromChainId, 'fromChain')
  const toChain = getLocalChainOrThrow(options.deployment, request.toChainId, 'toChain')
  const fromToken = getLocalTokenOrThrow(fromChain, request.fromToken, 'fromToken')
  const toToken = getLocalTokenOrThrow(toChain, request.toToken, 'toToken')
  if (request.fromAmount <= 0n) {
    throw new AppError('VALIDATION_FAILED', {
      field: 'fromAmount',
      userMessage: "fromAmount must be a positive integer in the token's smallest unit.",
    })
  }
  const payRouter = getPayRouterAddressOrThrow(fromChain)
  const context: RouteContext = { options, request, fromChain, toChain, fromToken, toToken, payRouter, now }
  if (fromChain.chainId !== toChain.chainId) return buildCrossChainRoute(context)
  if (fromToken.address === toToken.address) return buildTransferRoute(context)
  return buildSwapRoute(context)
}

type RouteContext = {
  options: BuildLocalRouteOptions
  request: RouteRequest
  fromChain: DevnetChainDeployment
  toChain: DevnetChainDeployment
  fromToken: LocalToken
  toToken: LocalToken
  payRouter: `0x${string}`
  now: () => number
}

function buildTransferRoute({ request, fromToken, payRouter }: RouteContext): RouteQuote {
  if (request.fromAddress.toLowerCase() === request.toAddress.toLowerCase()) {
    throw new AppError('VALIDATION_FAILED', {
      field: 'toAddress',
      userMessage:
        'The receiver is the paying wallet: paying yourself the same token on the same chain does nothing.',
    })
  }
  const amount = request.fromAmount
  const data = encodePayRouterCall({
    functionName: 'pay',
    args: [request.intentId, fromToken.contractAddress, amount, request.toAddress],
  })
  return {
    transactionRequest: buildTransactionRequest(
      payRouter,
      data,
      fromToken.isNative ? amount : 0n,
      getLocalGasLimit(0),
    ),
    actions: [buildAction('transfer', fromToken, fromToken, amount, amount, amount)],
    toAmount: amount,
    toAmountMin: amount,
    estimatedDurationMs: localStepEstimatesMs.transfer,
    spender: fromToken.isNative ? null : payRouter,
    providerData: { kind: 'pay', payRouter },
  }
}

async function buildSwapRoute(context: RouteContext): Promise<RouteQuote> {
  const { options, request, fromChain, fromToken, toToken, payRouter, now } = context
  const usdc = getLocalUsdcOrThrow(fromChain)
  const path = buildLocalSwapPath(fromToken, toToken, usdc)
  if (path.length === 0) {
    throw new AppError('VALIDATION_FAILED', {
      field: 'toToken',
      userMessage: `No route from ${fromToken.symbol} to ${toToken.symbol} on ${fromChain.name}: pay in another token.`,
    })
  }
  const client = options.getClient(fromChain)
  const toAmount = await quoteSwapOrThrow(client, fromChain, request.fromAmount, path, fromToken)
  const toAmountMin = applySlippage(toAmount, request.slippage)
  assertNotTooSmall(toAmountMin, fromToken, request.fromAmount)
  const deadline = BigInt(Math.floor(now() / 1000) + swapDeadlineSeconds)
  const data = encodePayRouterCall({
    functionName: 'swapAndPay',
    args: [
      request.intentId,
      fromToken.contractAddress,
      request.fromAmount,
      path,
      toToken.contractAddress,
      toAmountMin,
      request.toAddress,
      deadline,
    ],
  })
  return {
    transactionRequest: buildTransactionRequest(
      payRouter,
      data,
      fromToken.isNative ? request.fromAmount : 0n,
      getLocalGasLimit(path.length - 1),
    ),
    actions: [
      buildAction('swap', fromToken, toToken, request.fromAmount, toAmount, toAmountMin),
      buildAction('transfer', toToken, toToken, toAmount, toAmount, toAmountMin),
    ],
    toAmount,
    toAmountMin,
    estimatedDurationMs: localStepEstimatesMs.swap + localStepEstimatesMs.transfer,
    spender: fromToken.isNative ? null : payRouter,
    providerData: { kind: 'swapAndPay', payRouter, path, deadline: deadline.toString() },
  }
}

async function buildCrossChainRoute(context: RouteContext): Promise<RouteQuote> {
  const { options, request, fromChain, toChain, fromToken, toToken, payRouter, now } = context
  if (!options.relayerAddress) {
    throw new AppError('SERVICE_UNAVAILABLE', {
      message: 'Cross-chain route asked for without a relayer key',
      userMessage:
        'Cross-chain payments are not available: this server has no relayer configured (RELAYER_PRIVATE_KEY). Pay on the same chain.',
    })
  }
  const sourceUsdc = getLocalUsdcOrThrow(fromChain)
  const destinationUsdc = getLocalUsdcOrThrow(toChain)
  const destinationPayRouter = getPayRouterAddressOrThrow(toChain)
  const sourceClient = options.getClient(fromChain)
  const destinationClient = options.getClient(toChain)

  // Source side: swap into USDC unless the payer already pays in it.
  const sourcePath = buildLocalSwapPath(fromToken, sourceUsdc, sourceUsdc)
  const escrowAmount =
    sourcePath.length === 0
      ? request.fromAmount
      : await quoteSwapOrThrow(sourceClient, fromChain, request.fromAmount, sourcePath, fromToken)
  const minEscrowAmount =
    sourcePath.length === 0 ? escrowAmount : applySlippage(escrowAmount, request.slippage)
  assertNotTooSmall(minEscrowAmount, fromToken, request.fromAmount)

  // Destination side: the relayer pays USDC from its inventory, swapping it when the link wants another token.
  const destinationIn = scaleAmount(escrowAmount, sourceUsdc.decimals, destinationUsdc.decimals)
  const destinationMinIn = scaleAmount(minEscrowAmount, sourceUsdc.decimals, destinationUsdc.decimals)
  const destinationPath = buildLocalSwapPath(destinationUsdc, toToken, destinationUsdc)
  const toAmount =
    destinationPath.length === 0
      ? destinationIn
      : await quoteSwapOrThrow(destinationClient, toChain, destinationIn, destinationPath, destinationUsdc)
  const toAmountMin =
    destinationPath.length === 0
      ? destinationMinIn
      : applySlippage(
          await quoteSwapOrThrow(
            destinationClient,
            toChain,
            destinationMinIn,
            destinationPath,
            destinationUsdc,
          ),
          request.slippage,
        )
  assertNotTooSmall(toAmountMin, fromToken, request.fromAmount)
  await assertRelayerCanFill(
    destinationClient,
    toChain,
    destinationUsdc,
    options.relayerAddress,
    destinationIn,
  )

  // A fill of this route cannot come before this destination block: fill log queries start here.
  const destinationFromBlock = await destinationClient.getBlockNumber({ cacheTime: 0 })
  const fillDeadline = BigInt(Math.floor(now() / 1000) + localFillWindowSeconds)
  const data = encodePayRouterCall({
    functionName: 'deposit',
    args: [
      request.intentId,
      fromToken.contractAddress,
      request.fromAmount,
      sourcePath,
      minEscrowAmount,
      BigInt(toChain.chainId),
      toToken.contractAddress,
      toAmountMin,
      request.toAddress,
      fillDeadline,
    ],
  })
  const actions: RouteAction[] = []
  if (sourcePath.length > 0) {
    actions.push(
      buildAction('swap', fromToken, sourceUsdc, request.fromAmount, escrowAmount, minEscrowAmount),
    )
  }
  actions.push(
    buildAction(
      'bridge',
      sourceUsdc,
      destinationUsdc,
      escrowAmount,
      destinationIn,
      destinationMinIn,
      bridgeProvider,
    ),
  )
  if (destinationPath.length > 0) {
    actions.push(buildAction('swap', destinationUsdc, toToken, destinationIn, toAmount, toAmountMin))
  }
  actions.push(buildAction('transfer', toToken, toToken, toAmount, toAmount, toAmountMin))
  return {
    transactionRequest: buildTransactionRequest(
      payRouter,
      data,
      fromToken.isNative ? request.fromAmount : 0n,
      getLocalGasLimit(Math.max(0, sourcePath.length - 1)),
    ),
    actions,
    toAmount,
    toAmountMin,
    estimatedDurationMs: actions.reduce((total, action) => total + action.estimatedMs, 0),
    spender: fromToken.isNative ? null : payRouter,
    providerData: {
      kind: 'deposit',
      payRouter,
      destinationPayRouter,
      fillDeadline: Number(fillDeadline),
      escrowToken: sourceUsdc.address.toLowerCase(),
      minEscrowAmount: minEscrowAmount.toString(),
      destinationFromBlock: Number(destinationFromBlock),
    },
  }
}

function buildTransactionRequest(
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

function buildAction(
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

function isRpcUnreachable(error: unknown): boolean {
  const unreachable = AppError.walk(
    error,
    (candidate) =>
      candidate instanceof Error &&
      (candidate.name === 'HttpRequestError' || candidate.name === 'TimeoutError'),
  )
  return unreachable !== undefined
}

function assertNotTooSmall(amount: bigint, fromToken: LocalToken, fromAmount: bigint): void {
  if (amount > 0n) return
  throw new AppError('VALIDATION_FAILED', {
    field: 'fromAmount',
    userMessage: `${formatUnits(fromAmount, fromToken.decimals)} ${fromToken.symbol} is too small to route: enter a larger amount.`,
  })
}

async function assertRelayerCanFill(
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
