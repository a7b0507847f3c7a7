import { AppError } from '@quicklinks/core/app-error'
import { z } from 'zod'
import { isNativeTokenAddress, type RouteQuote, type RoutingProvider } from '../../route/routing-provider.ts'
import {
  squidProviderLabel,
  toChecksummed,
  toRouteAction,
  toRoutingChain,
  toRoutingToken,
  toTokenRef,
} from './map-squid-catalogue.ts'
import { deliveredBySource, notFoundStatus, toRouteStatus } from './map-squid-status.ts'
import {
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

/** What a Squid quote keeps for its status calls: the route call's x-request-id and Squid's quoteId. */
export const squidProviderDataSchema = z.object({
  requestId: z
    .string()
    .nullish()
    .transform((value) => value ?? null),
  quoteId: z
    .string()
    .nullish()
    .transform((value) => value ?? null),
})

export type SquidProviderData = z.output<typeof squidProviderDataSchema>

/**
 * The `squid` routing provider: Squid v2's chains (EVM only), tokens (with usdPrice), routes and
 * status, mapped to our shapes. Squid's 4xx on a route becomes a 422 with Squid's own message;
 * a Squid that does not answer, or answers 5xx, becomes a 503. The route call's x-request-id
 * header and quoteId are kept in providerData for status calls.
 */
export function createSquidRoutingProvider(
  options: SquidRoutingProviderOptions,
): RoutingProvider<SquidProviderData> {
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
    providerDataSchema: squidProviderDataSchema,

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
          provider: squidProviderLabel,
          providerLogoURI: '',
          estimatedMs: 0,
        })
      }

      const target = toChecksummed(transaction.target)
      const quote: RouteQuote<SquidProviderData> = {
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
      if (query.fromChainId === query.toChainId) return deliveredBySource(query)
      const params = new URLSearchParams({
        transactionId: query.sourceTxHash,
        fromChainId: String(query.fromChainId),
        toChainId: String(query.toChainId),
      })
      const { requestId, quoteId } = query.providerData
      if (requestId) params.set('requestId', requestId)
      if (quoteId) params.set('quoteId', quoteId)
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
