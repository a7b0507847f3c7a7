import * as z from 'zod/mini'
import { nativeTokenAddress } from '../native-token-address.ts'
import { balanceEntrySchema } from './balances.ts'
import { routeResultSchema, transactionRequestSchema } from './routing.ts'
import { transactionRecordSchema } from './transactions.ts'

/**
 * The answers a client reads, with the tolerance docs/api.md#client-tolerance promises: this is the
 * one place where the alias spellings and shapes the product accepts are normalised, before the
 * contract's own schemas (which the server answers with) validate them. A client parses with these;
 * the server never does.
 *
 * - a balance entry names its token `contract`, `token_address` or `address`; a native entry may
 *   leave out its address, symbol and decimals (18); an entry that is still not valid drops alone;
 * - a balances answer is a bare list, `{data}` or `{balances}`;
 * - a transaction record may spell its fields in camelCase (`intentId`, `sourceTxHash`, …);
 * - a transaction request names the address it calls `to` or `target` (both are filled);
 * - a route lacking a transaction request with data and an address is still read, with
 *   `transactionRequest: null`, so the client shows `invalidRouteMessage`.
 */

/** What a client shows for a route whose transaction request has no data or no to/target address. */
export const invalidRouteMessage = 'Invalid route: missing transactionRequest target/data'

const addressPattern = /^0x[0-9a-fA-F]{40}$/

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

function firstDefined(...values: unknown[]): unknown {
  return values.find((value) => value !== undefined && value !== null)
}

/** A balance entry under any of its accepted spellings, as the contract's fields (undefined where it has none). */
function normaliseBalanceEntry(value: unknown): unknown {
  const entry = asObject(value)
  if (entry === undefined) return value
  const isNative = entry.native === true || entry.category === 'native'
  const decimals = firstDefined(entry.decimals, isNative ? 18 : undefined)
  const balance = entry.balance
  return {
    address: isNative ? nativeTokenAddress : firstDefined(entry.contract, entry.token_address, entry.address),
    symbol: firstDefined(entry.symbol, isNative ? '' : undefined),
    decimals: typeof decimals === 'string' && /^\d+$/.test(decimals) ? Number(decimals) : decimals,
    // A balance that cannot be read counts as none, as a failed balance read does.
    balance:
      typeof balance === 'number' && Number.isSafeInteger(balance) && balance >= 0
        ? String(balance)
        : typeof balance === 'string' && /^\d+$/.test(balance)
          ? balance
          : '0',
    native: isNative,
  }
}

/** One holding as a client reads it: the contract's address, symbol, decimals, balance and native flag. */
export const balanceEntryAnswerSchema = z.pipe(
  z.transform(normaliseBalanceEntry),
  z.object({
    address: z.string().check(z.regex(addressPattern)),
    symbol: balanceEntrySchema.shape.symbol,
    decimals: balanceEntrySchema.shape.decimals.check(z.nonnegative()),
    balance: balanceEntrySchema.shape.balance,
    native: balanceEntrySchema.shape.native,
  }),
)

/**
 * GET /api/data/wallets/{chain}/{address}/balances as a client reads it: the list bare, under
 * `data` or under `balances`; each entry normalised, an entry still invalid left out alone.
 */
export const walletBalancesAnswerSchema = z.pipe(
  z.transform((body: unknown, context) => {
    const object = asObject(body)
    const list = Array.isArray(body) ? body : firstDefined(object?.data, object?.balances)
    if (Array.isArray(list)) return list as unknown[]
    context.issues.push({ code: 'custom', input: body, message: 'expected a list of balances' })
    return z.NEVER
  }),
  z.transform((entries: unknown[]) =>
    entries.flatMap((entry) => {
      const parsed = z.safeParse(balanceEntryAnswerSchema, entry)
      return parsed.success ? [parsed.data] : []
    }),
  ),
)

/** A transaction request naming its address `to` or `target`: both filled with the first address. */
function normaliseTransactionRequest(value: unknown): unknown {
  const request = asObject(value)
  if (request === undefined) return value
  const address = [request.to, request.target].find(
    (candidate) => typeof candidate === 'string' && addressPattern.test(candidate),
  )
  return address === undefined ? request : { ...request, to: address, target: address }
}

const toCamelCase = (snake: string): string =>
  snake.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase())

/** A record whose fields are spelled snake_case (the contract) or camelCase, as snake_case. */
function normaliseRecordKeys(value: unknown): unknown {
  const record = asObject(value)
  if (record === undefined) return value
  const normalised: Record<string, unknown> = { ...record }
  for (const key of Object.keys(transactionRecordSchema.shape)) {
    if (normalised[key] === undefined) normalised[key] = record[toCamelCase(key)]
  }
  normalised.transaction_request = normaliseTransactionRequest(normalised.transaction_request)
  return normalised
}

/** A transaction record (docs/api.md#transaction-record) as a client reads it: snake_case or camelCase. */
export const transactionRecordAnswerSchema = z.pipe(z.transform(normaliseRecordKeys), transactionRecordSchema)

/** GET /api/route-intent/{intentId} as a client reads it. */
export const routeIntentAnswerSchema = z.object({
  data: transactionRecordAnswerSchema,
})

/**
 * A route answer's transaction request if it can be sent: an object with hex `data` and an address
 * under `to` or `target`; null otherwise.
 */
function readUsableTransactionRequest(value: unknown): unknown {
  const request = asObject(normaliseTransactionRequest(value))
  if (request === undefined || typeof request.to !== 'string' || !addressPattern.test(request.to)) return null
  return typeof request.data === 'string' && request.data.startsWith('0x') ? request : null
}

/** A route answer under `data` or at the top level, its actions under `estimate` or `route`. */
function normaliseRouteAnswer(body: unknown): unknown {
  const top = asObject(body)
  if (top === undefined) return body
  const result = asObject(top.data) ?? top
  const route = asObject(result.route) ?? result
  const estimate = asObject(route.estimate)
  return {
    data: {
      intentId: result.intentId,
      route: {
        ...route,
        transactionRequest: readUsableTransactionRequest(
          firstDefined(route.transactionRequest, result.transactionRequest),
        ),
        ...(estimate === undefined
          ? {}
          : { estimate: { ...estimate, actions: firstDefined(estimate.actions, route.actions) } }),
      },
    },
  }
}

/** A route result whose transaction request may be missing (null): the client then shows `invalidRouteMessage`. */
const routeResultAnswerSchema = z.object({
  intentId: routeResultSchema.shape.intentId,
  route: z.extend(routeResultSchema.shape.route, {
    transactionRequest: z.nullable(transactionRequestSchema),
  }),
})

/** POST /api/{provider}/route's answer as a client reads it. */
export const routeAnswerSchema = z.pipe(
  z.transform(normaliseRouteAnswer),
  z.object({ data: routeResultAnswerSchema }),
)

/** A holding as a client reads it. */
export type BalanceEntryAnswer = z.output<typeof balanceEntryAnswerSchema>
/** A route as a client reads it: the contract's, with `transactionRequest` null when it cannot be sent. */
export type RouteResultAnswer = z.output<typeof routeResultAnswerSchema>
