import { AppError } from '@quicklinks/core/app-error'
import type { DevnetChainDeployment, DevnetDeployment } from '@quicklinks/devnet/devnet-deployment'
import type { PublicClient } from 'viem'
import { scaleAmount } from '../../../tokens/scale-amount.ts'
import type { RouteAction, RouteQuote, RouteRequest } from '../../route/routing-provider.ts'
import {
  getLocalChainOrThrow,
  getLocalTokenOrThrow,
  getLocalUsdcOrThrow,
  type LocalToken,
} from './local-devnet-chain.ts'
import type { LocalProviderData } from './local-provider-data.ts'
import {
  applySlippage,
  assertNotTooSmall,
  assertRelayerCanFill,
  bridgeProvider,
  buildAction,
  buildTransactionRequest,
  getLocalGasLimit,
  localStepEstimatesMs,
  quoteSwapOrThrow,
} from './local-route-parts.ts'
import { encodePayRouterCall } from './payrouter/encode-pay-router-call.ts'
import { getPayRouterAddressOrThrow } from './payrouter/get-pay-router-address-or-throw.ts'
import { buildLocalSwapPath } from './uniswap/build-local-swap-path.ts'

/** How long a cross-chain deposit waits for the relayer before the payer may take it back. */
export const localFillWindowSeconds = 600
/** How long a same-chain swap stays valid once sent. */
const swapDeadlineSeconds = 1200

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
 * Quotes a `local` route and builds the PayRouter call the payer sends (docs/decisions/0009; for a
 * token, PayRouter also takes it wrapped in permitAndCall with a permit, docs/decisions/0029):
 * `pay` for the same token on the same chain, `swapAndPay` for another token on the same chain,
 * `deposit` for another chain (escrow in the source chain's USDC, filled by the relayer). Quotes
 * come from Uniswap V2's `getAmountsOut`; minimums take `slippage` percent off.
 * Throws AppError 422 naming the field for an unknown chain or token, a payment to oneself, no
 * liquidity or an amount too small; 503 when cross-chain is asked for and no relayer is configured.
 */
export async function buildLocalRoute(
  options: BuildLocalRouteOptions,
  request: RouteRequest,
): Promise<RouteQuote<LocalProviderData>> {
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

function buildTransferRoute({ request, fromToken, payRouter }: RouteContext): RouteQuote<LocalProviderData> {
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
    acceptsPermit: !fromToken.isNative,
    providerData: { kind: 'pay', payRouter },
  }
}

async function buildSwapRoute(context: RouteContext): Promise<RouteQuote<LocalProviderData>> {
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
    acceptsPermit: !fromToken.isNative,
    providerData: { kind: 'swapAndPay', payRouter, path, deadline: deadline.toString() },
  }
}

async function buildCrossChainRoute(context: RouteContext): Promise<RouteQuote<LocalProviderData>> {
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
    acceptsPermit: !fromToken.isNative,
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
