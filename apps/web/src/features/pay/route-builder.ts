import {
  invalidRouteMessage,
  type RouteResultAnswer,
  routeAnswerSchema,
} from '@quicklinks/core/api/client-answers'
import type { RouteRequestBody } from '@quicklinks/core/api/route-request'
import type { RouteResult, TransactionRequest } from '@quicklinks/core/api/routing'
import { AppError } from '@quicklinks/core/app-error'
import { type ApiClient, api } from '../../lib/api-client'
import { getRoutingProvider, type RoutingProviderSource } from '../routing/routing-provider'

/** Slippage in percent and the debounce before a route is built (docs/product.md#route-state). */
export const routeSlippagePercent = 1
export const routeDebounceMs = 250

/**
 * The route request: chain ids, addresses, one integer amount (docs/api.md#route-request): what
 * the payer pays (`fromAmount`), or for an invoice or a link with an amount what the receiver must
 * get (`toAmount`, exact output: the server computes the input).
 */
export type RouteInput = {
  fromChain: number
  toChain: number
  fromToken: string
  toToken: string
  fromAddress: string
  toAddress: string
  linkId?: string
  /** The invoice paid (docs/api.md#route-request's invoiceId). */
  invoiceId?: string
} & ({ fromAmount: bigint; toAmount?: undefined } | { toAmount: bigint; fromAmount?: undefined })

/**
 * The body sent: the route request, and `invoiceId` beside `linkId` (the invoices API adds it to
 * routeRequestBodySchema; a server without it ignores the field).
 */
type RouteRequestWire = RouteRequestBody & { invoiceId?: string }

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
    input.toAmount === undefined ? input.fromAmount.toString() : `to:${input.toAmount}`,
    input.fromAddress.toLowerCase(),
    input.toAddress.toLowerCase(),
    ...(input.invoiceId === undefined ? [] : [input.invoiceId]),
  ].join('|')
}

/**
 * The route an answer holds (read by `routeAnswerSchema`, docs/api.md#route-result), once it can be
 * sent. Throws 'Invalid route: missing transactionRequest target/data' when the answer's transaction
 * request has no data or no address to call (the schema then reads it as null).
 */
export function toRouteResult(answer: RouteResultAnswer): RouteResult {
  const { transactionRequest } = answer.route
  if (transactionRequest === null) throw new Error(invalidRouteMessage)
  return { ...answer, route: { ...answer.route, transactionRequest } }
}

/** What the wallet sends for a route's transaction request: bigints, viem's `gas` for `gasLimit`. */
export type WalletTransaction = {
  to: `0x${string}`
  data: `0x${string}`
  value: bigint
  gas?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
}

/** The transaction request (docs/api.md#transaction-request) as the wallet sends it. */
export function toWalletTransaction(request: TransactionRequest): WalletTransaction {
  const { gasLimit, maxFeePerGas, maxPriorityFeePerGas } = request
  return {
    to: request.to as `0x${string}`,
    data: request.data as `0x${string}`,
    value: BigInt(request.value),
    ...(gasLimit === undefined ? {} : { gas: BigInt(gasLimit) }),
    ...(maxFeePerGas === undefined ? {} : { maxFeePerGas: BigInt(maxFeePerGas) }),
    ...(maxPriorityFeePerGas === undefined ? {} : { maxPriorityFeePerGas: BigInt(maxPriorityFeePerGas) }),
  }
}

/**
 * POST /api/{provider}/route for one input, the provider named by the server (GET /api/config).
 * Rejects with the server's message (error.message, then message, then 'Failed to build route';
 * the last also when the provider's name cannot be loaded), the invalid-route error, or the
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
  const body = await client.request(`/api/${provider}/route`, routeAnswerSchema, {
    method: 'POST',
    body: {
      fromChain: input.fromChain,
      toChain: input.toChain,
      fromToken: input.fromToken,
      toToken: input.toToken,
      ...(input.toAmount === undefined
        ? { fromAmount: input.fromAmount.toString() }
        : { toAmount: input.toAmount.toString() }),
      fromAddress: input.fromAddress,
      toAddress: input.toAddress,
      slippage: routeSlippagePercent,
      ...(input.linkId === undefined ? {} : { linkId: input.linkId }),
      ...(input.invoiceId === undefined ? {} : { invoiceId: input.invoiceId }),
    } satisfies RouteRequestWire,
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
