import type { ChainContracts } from '@quicklinks/core/api/routing'
import { AppError } from '@quicklinks/core/app-error'
import { getAddress, isAddress } from 'viem'
import type { z } from 'zod'
import {
  isNativeTokenAddress,
  nativeTokenAddress,
  type RouteAction,
  type RouteQuote,
  type RouteStatus,
  type RouteStepStatus,
  type RouteTokenRef,
  type RoutingChain,
  type RoutingProvider,
  type RoutingToken,
} from '../../route/routing-provider.ts'
import {
  type SquidAction,
  type SquidChain,
  type SquidStatusResponse,
  type SquidToken,
  squidChainSchema,
  squidRouteResponseSchema,
  squidStatusResponseSchema,
  squidTokenSchema,
} from './squid-schemas.ts'

export type SquidRoutingProviderOptions = {
  /** Squid's API origin without a trailing slash (SQUID_API_URL), e.g. https://v2.api.squidrouter.com. */
  apiUrl: string
  /** Sent as x-integrator-id on every call (SQUID_INTEGRATOR_ID). */
  integratorId: string | undefined
  /** Per-call timeout; default 15 s. */
  timeoutMs?: number
}

const providerLabel = 'Squid'
const hashPattern = /^0x[0-9a-fA-F]{64}$/

/**
 * The `squid` routing provider: Squid v2's chains (EVM only), tokens (with usdPrice), routes and
 * status, mapped to our shapes. Squid's 4xx on a route becomes a 422 with Squid's own message;
 * a Squid that does not answer, or answers 5xx, becomes a 503. The route call's x-request-id
 * header and quoteId are kept in providerData for status calls.
 */
export function createSquidRoutingProvider(options: SquidRoutingProviderOptions): RoutingProvider {
  const timeoutMs = options.timeoutMs ?? 15_000

  const call = async (path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> => {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (options.integratorId) headers['x-integrator-id'] = options.integratorId
    if (init.body !== undefined) headers['content-type'] = 'application/json'
    try {
      return await fetch(`${options.apiUrl}${path}`, {
        method: init.method ?? 'GET',
        headers,
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      throw unavailable(`Squid ${path} did not answer`, error)
    }
  }

  const readJson = async <Schema extends z.ZodType>(
    response: Response,
    schema: Schema,
    path: string,
  ): Promise<z.infer<Schema>> => {
    let json: unknown
    try {
      json = await response.json()
    } catch (error) {
      throw unavailable(`Squid ${path} answered something that is not JSON`, error)
    }
    const parsed = schema.safeParse(json)
    if (!parsed.success) throw unavailable(`Squid ${path} answered an unexpected shape`, parsed.error)
    return parsed.data
  }

  const getList = async <Item>(path: string, key: string, itemSchema: z.ZodType<Item>): Promise<Item[]> => {
    const response = await call(path)
    if (!response.ok) throw unavailable(`Squid ${path} answered ${response.status}`)
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null
    const items = body?.[key]
    if (!Array.isArray(items)) throw unavailable(`Squid ${path} has no ${key} list`)
    // One odd entry (another chain family, a field of an unexpected type) is skipped, not fatal.
    return items.flatMap((item) => {
      const parsed = itemSchema.safeParse(item)
      return parsed.success ? [parsed.data] : []
    })
  }

  return {
    name: 'squid',

    async chains() {
      const chains = await getList('/v2/chains', 'chains', squidChainSchema)
      return chains.flatMap((chain) => {
        const mapped = toRoutingChain(chain)
        return mapped ? [mapped] : []
      })
    },

    async tokens() {
      const tokens = await getList('/v2/tokens', 'tokens', squidTokenSchema)
      return tokens.flatMap((token) => {
        const mapped = toRoutingToken(token)
        return mapped ? [mapped] : []
      })
    },

    async route(request) {
      const path = '/v2/route'
      const response = await call(path, {
        method: 'POST',
        body: {
          fromChain: String(request.fromChainId),
          toChain: String(request.toChainId),
          fromToken: request.fromToken,
          toToken: request.toToken,
          fromAmount: request.fromAmount.toString(),
          fromAddress: request.fromAddress,
          toAddress: request.toAddress,
          slippage: request.slippage,
          quoteOnly: false,
        },
      })
      if (response.status >= 400 && response.status < 500) {
        const message = await readSquidErrorMessage(response)
        throw new AppError('VALIDATION_FAILED', {
          message: `Squid refused the route (${response.status}): ${message}`,
          userMessage: message ? `No route: ${message}` : 'No route found for this payment.',
        })
      }
      if (!response.ok) throw unavailable(`Squid ${path} answered ${response.status}`)
      const { route } = await readJson(response, squidRouteResponseSchema, path)
      const transaction = route.transactionRequest
      if (!transaction) throw unavailable('Squid returned a quote without a transaction')

      const durationSeconds = route.estimate.estimatedRouteDuration ?? 0
      const actions = route.estimate.actions.flatMap((action) => {
        const mapped = toRouteAction(action, durationSeconds)
        return mapped ? [mapped] : []
      })
      const last = route.estimate.actions.at(-1)
      if (last) {
        // The receiver's side, as every local route ends: Squid delivers toToken to toAddress.
        const toToken = toTokenRef(last.toToken, Number(last.toChain))
        actions.push({
          type: 'transfer',
          fromChainId: request.toChainId,
          toChainId: request.toChainId,
          fromToken: toToken,
          toToken,
          fromAmount: route.estimate.toAmount,
          toAmount: route.estimate.toAmount,
          toAmountMin: route.estimate.toAmountMin,
          provider: providerLabel,
          providerLogoURI: '',
          estimatedMs: 0,
        })
      }

      const target = toChecksummed(transaction.target)
      const quote: RouteQuote = {
        transactionRequest: {
          to: target,
          target,
          data: transaction.data,
          value: transaction.value ?? '0',
          ...(transaction.gasLimit === undefined ? {} : { gasLimit: transaction.gasLimit }),
          ...(transaction.maxFeePerGas === undefined ? {} : { maxFeePerGas: transaction.maxFeePerGas }),
          ...(transaction.maxPriorityFeePerGas === undefined
            ? {}
            : { maxPriorityFeePerGas: transaction.maxPriorityFeePerGas }),
        },
        actions,
        toAmount: BigInt(route.estimate.toAmount),
        toAmountMin: BigInt(route.estimate.toAmountMin),
        estimatedDurationMs: Math.round(durationSeconds * 1000),
        spender: isNativeTokenAddress(request.fromToken) ? null : (target as `0x${string}`),
        providerData: {
          requestId: response.headers.get('x-request-id'),
          quoteId: route.quoteId ?? null,
        },
      }
      return quote
    },

    async status(query) {
      const params = new URLSearchParams({
        transactionId: query.sourceTxHash,
        fromChainId: String(query.fromChainId),
        toChainId: String(query.toChainId),
      })
      const { requestId, quoteId } = query.providerData
      if (typeof requestId === 'string' && requestId) params.set('requestId', requestId)
      if (typeof quoteId === 'string' && quoteId) params.set('quoteId', quoteId)
      const path = '/v2/status'
      const response = await call(`${path}?${params}`)
      // Squid answers an unknown transaction with a 404 or with a 200 saying not_found.
      if (response.status === 404) return notFoundStatus(query.fromChainId, query.sourceTxHash)
      if (!response.ok) throw unavailable(`Squid ${path} answered ${response.status}`)
      const body = await readJson(response, squidStatusResponseSchema, path)
      return toRouteStatus(body, query.fromChainId, query.toChainId, query.sourceTxHash)
    },
  }
}

function unavailable(message: string, cause?: unknown): AppError {
  return new AppError('SERVICE_UNAVAILABLE', {
    message,
    userMessage: 'The routing service (Squid) is not answering. Try again shortly.',
    ...(cause === undefined ? {} : { cause }),
  })
}

async function readSquidErrorMessage(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null
  if (!body) return ''
  if (typeof body.message === 'string') return body.message
  const errors = body.errors
  if (Array.isArray(errors)) {
    const first = errors[0] as Record<string, unknown> | undefined
    if (typeof first?.message === 'string') return first.message
  }
  if (typeof body.error === 'string') return body.error
  return ''
}

function toChecksummed(address: string): string {
  if (isNativeTokenAddress(address))
    return address.toLowerCase() === nativeTokenAddress.toLowerCase() ? nativeTokenAddress : address
  return isAddress(address, { strict: false }) ? getAddress(address) : address
}

function toPositiveChainId(value: string): number | null {
  if (!/^\d+$/.test(value)) return null
  const id = Number(value)
  return Number.isSafeInteger(id) && id > 0 ? id : null
}

function toRoutingChain(chain: SquidChain): RoutingChain | null {
  if (chain.chainType !== 'evm') return null
  const chainId = toPositiveChainId(chain.chainId)
  if (chainId === null) return null
  const networkName = chain.networkName ?? chain.chainName ?? chain.axelarChainName ?? String(chainId)
  const contracts = chain.squidContracts ?? {}
  return {
    chainId,
    networkIdentifier: (chain.networkIdentifier ?? chain.axelarChainName ?? networkName)
      .toLowerCase()
      .replace(/\s+/g, '-'),
    ...(chain.axelarChainName ? { axelarChainName: chain.axelarChainName } : {}),
    networkName,
    chainIconURI: chain.chainIconURI ?? '',
    type: 'evm',
    enabled: true,
    visible: true,
    nativeCurrency: {
      symbol: chain.nativeCurrency?.symbol ?? 'ETH',
      decimals: chain.nativeCurrency?.decimals ?? 18,
    },
    rpcUrl: chain.rpc ?? '',
    blockExplorerUrl: (chain.blockExplorerUrls?.[0] ?? '').replace(/\/+$/, ''),
    // What the pay modal's spender falls back to (docs/product.md#approval-and-spender).
    contracts: {
      ...toContractAddress('router', contracts.squidRouter),
      ...toContractAddress('multicall', contracts.squidMulticall),
      ...toContractAddress('coralMulticall', contracts.squidCoralMulticall),
    },
  }
}

/** `{[name]: address}` checksummed, or nothing when Squid gives no address. */
function toContractAddress(name: keyof ChainContracts, address: string | undefined): ChainContracts {
  return address !== undefined && isAddress(address, { strict: false }) ? { [name]: getAddress(address) } : {}
}

function toRoutingToken(token: SquidToken): RoutingToken | null {
  if (token.type !== undefined && token.type !== 'evm') return null
  const chainId = toPositiveChainId(token.chainId)
  if (chainId === null || !isAddress(token.address, { strict: false })) return null
  const price = typeof token.usdPrice === 'string' ? Number(token.usdPrice) : token.usdPrice
  return {
    chainId,
    address: toChecksummed(token.address),
    symbol: token.symbol,
    name: token.name ?? token.symbol,
    decimals: token.decimals,
    type: 'evm',
    logoURI: token.logoURI ?? '',
    active: token.disabled !== true,
    visible: true,
    usdPrice: typeof price === 'number' && Number.isFinite(price) ? price : null,
  }
}

function toTokenRef(token: SquidAction['fromToken'], fallbackChainId: number): RouteTokenRef {
  const chainId = token.chainId === undefined ? null : toPositiveChainId(token.chainId)
  return {
    chainId: chainId ?? fallbackChainId,
    address: toChecksummed(token.address),
    symbol: token.symbol,
    decimals: token.decimals,
    logoURI: token.logoURI ?? '',
  }
}

/** Squid's action types: swaps and wraps are one-chain steps; bridges, intents (rfq) and IBC move between chains. */
function toRouteAction(action: SquidAction, routeDurationSeconds: number): RouteAction | null {
  const fromChainId = toPositiveChainId(action.fromChain)
  const toChainId = toPositiveChainId(action.toChain)
  if (fromChainId === null || toChainId === null) return null
  const kind = action.type.toLowerCase()
  let type: RouteAction['type']
  if (['swap', 'wrap'].includes(kind)) type = fromChainId === toChainId ? 'swap' : 'bridge'
  else if (['bridge', 'rfq', 'ibc-transfer', 'squid-send'].includes(kind))
    type = fromChainId === toChainId ? 'swap' : 'bridge'
  else return null // fee and custom-call actions are not steps of the payment
  const seconds = action.estimatedDuration ?? (type === 'bridge' ? routeDurationSeconds : 0)
  return {
    type,
    fromChainId,
    toChainId,
    fromToken: toTokenRef(action.fromToken, fromChainId),
    toToken: toTokenRef(action.toToken, toChainId),
    fromAmount: action.fromAmount,
    toAmount: action.toAmount,
    toAmountMin: action.toAmountMin ?? action.toAmount,
    provider: action.provider ?? action.data?.provider ?? action.data?.name ?? providerLabel,
    providerLogoURI: action.logoURI ?? '',
    estimatedMs: Math.max(0, Math.round(seconds * 1000)),
  }
}

function notFoundStatus(fromChainId: number, sourceTxHash: string): RouteStatus {
  return {
    statusRaw: 'not_found',
    destTxHash: null,
    toAmountWei: null,
    steps: [{ type: 'bridge', chainId: fromChainId, txHash: sourceTxHash, status: 'pending' }],
    gasStatus: null,
    isGmpTransaction: false,
    axelarTransactionUrl: null,
    errorMessage: null,
  }
}

/** Squid's words for one chain's routeStatus entries, reduced to success / failed / pending. */
function reduceStepStatus(statuses: string[]): string {
  if (statuses.some((status) => /fail|error/i.test(status))) return 'failed'
  if (statuses.length > 0 && statuses.every((status) => /success/i.test(status))) return 'success'
  return 'pending'
}

function toRouteStatus(
  body: SquidStatusResponse,
  fromChainId: number,
  toChainId: number,
  sourceTxHash: string,
): RouteStatus {
  const raw = (body.squidTransactionStatus ?? body.status ?? 'not_found').toLowerCase()
  const statusRaw = raw === 'refund' ? 'refunded' : raw
  if (statusRaw === 'not_found') return notFoundStatus(fromChainId, sourceTxHash)

  const destinationHash = body.toChain?.transactionId ?? null
  const destTxHash =
    destinationHash && hashPattern.test(destinationHash) ? (destinationHash as `0x${string}`) : null
  const isCrossChain = fromChainId !== toChainId
  const entries = body.routeStatus ?? []
  const wordsOn = (chainId: number) =>
    entries.filter((entry) => Number(entry.chainId) === chainId).map((entry) => entry.status ?? '')

  // Without routeStatus entries, the overall word says how far each side got.
  const overall: Record<string, [string, string]> = {
    success: ['success', 'success'],
    partial_success: ['success', 'failed'],
    failed_on_destination: ['success', 'failed'],
    refunded: ['success', 'failed'],
    needs_gas: ['success', 'pending'],
    ongoing: ['success', 'pending'],
  }
  const [sourceFallback, destinationFallback] = overall[statusRaw] ?? ['pending', 'pending']
  const sourceWords = wordsOn(fromChainId)
  const destinationWords = isCrossChain ? wordsOn(toChainId) : []
  const sourceStep: RouteStepStatus = {
    type: isCrossChain ? 'bridge' : 'swap',
    chainId: fromChainId,
    txHash: body.fromChain?.transactionId ?? sourceTxHash,
    status: sourceWords.length > 0 ? reduceStepStatus(sourceWords) : sourceFallback,
  }
  const steps: RouteStepStatus[] = [sourceStep]
  steps.push({
    type: 'transfer',
    chainId: toChainId,
    txHash: isCrossChain ? destTxHash : sourceStep.txHash,
    status: isCrossChain
      ? destinationWords.length > 0
        ? reduceStepStatus(destinationWords)
        : destinationFallback
      : sourceStep.status,
  })

  const isFailure = /fail|refund|partial/.test(statusRaw)
  return {
    statusRaw,
    destTxHash,
    toAmountWei: body.toAmount && /^\d+$/.test(body.toAmount) ? BigInt(body.toAmount) : null,
    steps,
    gasStatus: body.gasStatus ?? null,
    isGmpTransaction: body.isGMPTransaction ?? false,
    axelarTransactionUrl: body.axelarTransactionUrl ?? null,
    errorMessage: isFailure ? (readErrorMessage(body.error) ?? statusRaw.replace(/_/g, ' ')) : null,
  }
}

function readErrorMessage(error: unknown): string | null {
  if (typeof error === 'string' && error) return error
  if (Array.isArray(error)) return readErrorMessage(error[0])
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
    return error.message
  }
  return null
}
