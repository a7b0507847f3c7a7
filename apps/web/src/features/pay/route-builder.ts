import { type RouteResult as ApiRouteResult, routeResponseSchema } from '@quicklinks/core/api/routing'
import { AppError } from '@quicklinks/core/app-error'
import { type ApiClient, api } from '../../lib/api-client'
import { getRoutingProvider, type RoutingProviderSource } from '../routing/routing-provider'

/** Slippage in percent and the debounce before a route is built (docs/product.md#route-state). */
export const routeSlippagePercent = 1
export const routeDebounceMs = 250

/** The transaction request, as the wallet sends it (docs/api.md#transaction-request). */
export type PayTransactionRequest = {
  to: `0x${string}`
  data: `0x${string}`
  value: bigint
  gasLimit?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
}

/** One action of a route (swap, bridge, transfer) as the API returns it. */
export type PayRouteAction = {
  type: string
  fromChainId: number
  toChainId: number
  fromSymbol: string
  toSymbol: string
  fromAmount: string
  toAmount: string
  provider: string
  estimatedMs: number
}

/** The route request: chain ids, addresses, integer amount (docs/api.md#route-request). */
export type RouteInput = {
  fromChain: number
  toChain: number
  fromToken: string
  toToken: string
  fromAmount: bigint
  fromAddress: string
  toAddress: string
  linkId?: string
}

/** The route result (docs/api.md#route-result), plus the spender and the input it was built for. */
export type RouteResult = {
  intentId: `0x${string}`
  txReq: PayTransactionRequest
  actions: PayRouteAction[]
  spender: `0x${string}` | null
  estimatedDurationSeconds: number | null
  /** What the receiver is quoted and at least gets, in the link token's smallest unit (null when unknown). */
  toAmount: bigint | null
  toAmountMin: bigint | null
}

/** The route's state (docs/product.md#route-state). */
export type RouteState =
  | { status: 'idle' }
  | { status: 'building'; key: string }
  | ({ status: 'ready'; key: string } & RouteResult)
  | { status: 'error'; key: string; message: string }

/** A stable key for an input: a ready route counts only for the input it was built for. */
export function getRouteInputKey(input: RouteInput): string {
  return [
    input.fromChain,
    input.toChain,
    input.fromToken.toLowerCase(),
    input.toToken.toLowerCase(),
    input.fromAmount.toString(),
    input.fromAddress.toLowerCase(),
    input.toAddress.toLowerCase(),
  ].join('|')
}

const invalidRouteMessage = 'Invalid route: missing transactionRequest target/data'

function readAddress(value: string): `0x${string}` | undefined {
  return /^0x[0-9a-fA-F]{40}$/.test(value) ? (value as `0x${string}`) : undefined
}

function readBigInt(value: string | undefined): bigint | undefined {
  return value === undefined ? undefined : BigInt(value)
}

/**
 * The wallet's view of a route the API answered (already parsed by `routeResponseSchema`,
 * docs/api.md#route-result): the transaction with bigints, the actions by symbol, the spender.
 * Throws 'Invalid route: missing transactionRequest target/data' when the transaction has no data or
 * no address to call.
 */
export function toRouteResult(answer: ApiRouteResult): RouteResult {
  const { route } = answer
  const request = route.transactionRequest
  const to = readAddress(request.to) ?? readAddress(request.target)
  if (to === undefined || !request.data.startsWith('0x')) {
    throw new Error(invalidRouteMessage)
  }
  const gasLimit = readBigInt(request.gasLimit)
  const maxFeePerGas = readBigInt(request.maxFeePerGas)
  const maxPriorityFeePerGas = readBigInt(request.maxPriorityFeePerGas)
  const { estimate } = route
  return {
    intentId: answer.intentId as `0x${string}`,
    txReq: {
      to,
      data: request.data as `0x${string}`,
      value: BigInt(request.value),
      ...(gasLimit === undefined ? {} : { gasLimit }),
      ...(maxFeePerGas === undefined ? {} : { maxFeePerGas }),
      ...(maxPriorityFeePerGas === undefined ? {} : { maxPriorityFeePerGas }),
    },
    actions: estimate.actions.map((action) => ({
      type: action.type,
      fromChainId: action.fromChainId,
      toChainId: action.toChainId,
      fromSymbol: action.fromToken.symbol,
      toSymbol: action.toToken.symbol,
      fromAmount: action.fromAmount,
      toAmount: action.toAmount,
      provider: action.provider,
      estimatedMs: action.estimatedMs,
    })),
    spender: route.spender === null ? null : (readAddress(route.spender) ?? null),
    estimatedDurationSeconds: Number.isFinite(estimate.estimatedRouteDuration)
      ? estimate.estimatedRouteDuration
      : null,
    toAmount: /^\d+$/.test(estimate.toAmount) ? BigInt(estimate.toAmount) : null,
    toAmountMin: /^\d+$/.test(estimate.toAmountMin) ? BigInt(estimate.toAmountMin) : null,
  }
}

/**
 * POST /api/{provider}/route for one input, the provider named by the server (GET /api/config).
 * Rejects with the server's message (error.message, then message, then 'Failed to build route';
 * the last also when the provider's name cannot be loaded), an invalid-route error, or the
 * AbortError when aborted.
 */
export async function buildRoute(
  input: RouteInput,
  signal: AbortSignal,
  client: ApiClient = api,
  loadProvider: RoutingProviderSource = getRoutingProvider,
): Promise<RouteResult> {
  let provider: string
  try {
    provider = await loadProvider()
  } catch (error) {
    throw new AppError('INTERNAL', {
      message: 'The routing provider could not be loaded',
      userMessage: 'Failed to build route',
      cause: error,
    })
  }
  const body = await client.request(`/api/${provider}/route`, routeResponseSchema, {
    method: 'POST',
    body: {
      fromChain: input.fromChain,
      toChain: input.toChain,
      fromToken: input.fromToken,
      toToken: input.toToken,
      fromAmount: input.fromAmount.toString(),
      fromAddress: input.fromAddress,
      toAddress: input.toAddress,
      slippage: routeSlippagePercent,
      ...(input.linkId === undefined ? {} : { linkId: input.linkId }),
    },
    signal,
    queueWhenOffline: false,
    fallbackMessage: 'Failed to build route',
  })
  return toRouteResult(body.data)
}

/** A failed build's message: the AppError's user message, else the error's, else the default. */
export function describeRouteError(error: unknown): string {
  if (error instanceof AppError) return error.userMessage
  if (error instanceof Error && error.message.length > 0) return error.message
  return 'Route failed'
}

function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof Error && error.name === 'AbortError')
}

export type RouteScheduler = {
  /** A new input (or null when one is missing): debounce, abort the previous build, build. */
  update(input: RouteInput | null): void
  /** Builds the current input again at once (the countdown ran out). */
  rebuild(): void
  dispose(): void
}

/**
 * The route state (docs/product.md#route-state): idle while any input is missing; otherwise, after
 * `debounceMs`, building (the previous request aborted), then ready or error. An aborted request leaves no
 * error.
 */
export function createRouteScheduler({
  build,
  onState,
  debounceMs = routeDebounceMs,
}: {
  build: (input: RouteInput, signal: AbortSignal) => Promise<RouteResult>
  onState: (state: RouteState) => void
  debounceMs?: number
}): RouteScheduler {
  let timer: ReturnType<typeof setTimeout> | undefined
  let controller: AbortController | undefined
  let current: RouteInput | null = null
  let disposed = false

  const stop = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    controller?.abort()
    controller = undefined
  }

  const run = (input: RouteInput) => {
    const key = getRouteInputKey(input)
    const own = new AbortController()
    controller = own
    onState({ status: 'building', key })
    build(input, own.signal).then(
      (result) => {
        if (own.signal.aborted || disposed) return
        onState({ status: 'ready', key, ...result })
      },
      (error: unknown) => {
        if (isAbort(error, own.signal) || disposed) return
        onState({ status: 'error', key, message: describeRouteError(error) })
      },
    )
  }

  return {
    update(input) {
      if (disposed) return
      const same = input !== null && current !== null && getRouteInputKey(input) === getRouteInputKey(current)
      if (same) return
      stop()
      current = input
      if (input === null) {
        onState({ status: 'idle' })
        return
      }
      timer = setTimeout(() => {
        timer = undefined
        run(input)
      }, debounceMs)
    },
    rebuild() {
      if (disposed || current === null) return
      stop()
      run(current)
    },
    dispose() {
      disposed = true
      stop()
    },
  }
}
