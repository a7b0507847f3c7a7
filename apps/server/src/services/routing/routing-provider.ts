import { z } from 'zod'

// The native-token placeholders live with the other token helpers, below every service that needs
// them (the relayer must not import routing); re-exported for the routing provider's callers.
export { isNativeTokenAddress, nativeTokenAddress, zeroAddress } from '../tokens/native-token-address.ts'

/** A chain the routing provider can pay to (SPEC section 3, Chain record), as the API returns it. */
export const routingChainSchema = z
  .object({
    chainId: z.number().int().positive(),
    networkIdentifier: z.string(),
    networkName: z.string(),
    chainIconURI: z.string().describe('A path on this origin, or empty (the web then draws a monogram)'),
    type: z.literal('evm'),
    enabled: z.boolean(),
    visible: z.boolean(),
    nativeCurrency: z.object({ symbol: z.string(), decimals: z.number().int() }),
    rpcUrl: z.string().describe('A public JSON-RPC URL a wallet can add (wallet_addEthereumChain)'),
    blockExplorerUrl: z
      .string()
      .describe('Explorer base without a trailing slash; {base}/tx/{hash} shows a transaction. May be empty'),
  })
  .meta({ id: 'Chain' })

/** A token the routing provider can pay in or to (SPEC section 3, Token), as the API returns it. */
export const routingTokenSchema = z
  .object({
    chainId: z.number().int().positive(),
    address: z.string().describe('Checksummed; the native token uses the all-e placeholder'),
    symbol: z.string(),
    name: z.string(),
    decimals: z.number().int(),
    type: z.literal('evm'),
    logoURI: z.string().describe('A path on this origin, or empty'),
    active: z.boolean(),
    visible: z.boolean(),
    usdPrice: z.number().nullable().describe('USD for one whole token; null when unknown'),
  })
  .meta({ id: 'Token' })

export type RoutingChain = z.infer<typeof routingChainSchema>
export type RoutingToken = z.infer<typeof routingTokenSchema>

const integerStringSchema = z.string().regex(/^\d+$/, 'expected a non-negative integer as a decimal string')

/** A token as a route action names it. */
export const routeTokenRefSchema = z.object({
  chainId: z.number().int().positive(),
  address: z.string(),
  symbol: z.string(),
  decimals: z.number().int(),
  logoURI: z.string(),
})

/**
 * One step of a route (SPEC section 3, Route step, before the web derives it): a swap on one
 * chain, a bridge between two, or a transfer to the receiver. Amounts in the smallest unit.
 */
export const routeActionSchema = z
  .object({
    type: z.enum(['swap', 'bridge', 'transfer']),
    fromChainId: z.number().int().positive(),
    toChainId: z.number().int().positive(),
    fromToken: routeTokenRefSchema,
    toToken: routeTokenRefSchema,
    fromAmount: integerStringSchema,
    toAmount: integerStringSchema,
    toAmountMin: integerStringSchema,
    /** Who does the step: 'Uniswap V2', 'Quick Links relayer', or Squid's provider name. */
    provider: z.string(),
    providerLogoURI: z.string(),
    estimatedMs: z.number().int().nonnegative(),
  })
  .meta({ id: 'RouteAction' })

/** The transaction the payer's wallet sends (SPEC section 3, Transaction request). */
export const transactionRequestSchema = z
  .object({
    /** The contract or account to call; `target` repeats it (Squid's name). */
    to: z.string(),
    target: z.string(),
    data: z.string(),
    value: integerStringSchema,
    gasLimit: integerStringSchema.optional(),
    maxFeePerGas: integerStringSchema.optional(),
    maxPriorityFeePerGas: integerStringSchema.optional(),
  })
  .meta({ id: 'TransactionRequest' })

export type RouteAction = z.infer<typeof routeActionSchema>
export type RouteTokenRef = z.infer<typeof routeTokenRefSchema>
export type TransactionRequest = z.infer<typeof transactionRequestSchema>

/** What a provider needs to quote a payment; addresses checksummed, native = the all-e placeholder. */
export type RouteRequest = {
  fromChainId: number
  toChainId: number
  fromToken: `0x${string}`
  toToken: `0x${string}`
  /** Smallest units of fromToken. */
  fromAmount: bigint
  fromAddress: `0x${string}`
  toAddress: `0x${string}`
  /** Percent, SPEC's default 1. */
  slippage: number
  /** The route intent's id, chosen by the caller (0x + 64 hex); the local provider puts it on chain. */
  intentId: `0x${string}`
}

/** A provider's quote: the transaction to send and what the receiver gets. */
export type RouteQuote = {
  transactionRequest: TransactionRequest
  actions: RouteAction[]
  /** Smallest units of toToken the receiver is quoted, and at least gets. */
  toAmount: bigint
  toAmountMin: bigint
  estimatedDurationMs: number
  /** Whom the payer approves for an ERC-20 (SPEC section 5, spender); usually transactionRequest.to. */
  spender: `0x${string}` | null
  /** Whatever the provider needs later for status (Squid: x-request-id, quoteId); stored with the intent. */
  providerData: Record<string, unknown>
}

/** What the tracker knows of a payment when it asks the provider for progress. */
export type RouteStatusQuery = {
  intentId: `0x${string}`
  fromChainId: number
  toChainId: number
  sourceTxHash: `0x${string}`
  providerData: Record<string, unknown>
}

/** One entry of SPEC's route_status: a step's raw status and its transaction, in route order. */
export type RouteStepStatus = {
  type: RouteAction['type']
  chainId: number
  txHash: string | null
  /** Raw words such as 'success', 'pending', 'failed'; the web derives ok/fail/pending. */
  status: string
}

/** A provider's view of a payment in flight. */
export type RouteStatus = {
  /** The provider's own word (Squid: success, partial_success, needs_gas, ongoing, not_found, ...). */
  statusRaw: string
  destTxHash: `0x${string}` | null
  toAmountWei: bigint | null
  steps: RouteStepStatus[]
  gasStatus: string | null
  isGmpTransaction: boolean
  axelarTransactionUrl: string | null
  /** Why it failed, when it did (a revert reason, Squid's error). */
  errorMessage: string | null
}

/**
 * A source of chains, tokens, routes and their status.
 * ARCHITECTURE.md "Routing": `local` reads the devnet, `squid` adapts Squid's API.
 */
export type RoutingProvider = {
  /** Its name in the URL, /api/{name}/chains. */
  readonly name: string
  /** Every chain it serves. Throws AppError SERVICE_UNAVAILABLE when it has none configured. */
  chains(): Promise<RoutingChain[]>
  /**
   * Every token on those chains, the native one of each included, with usdPrice. Throws like
   * `chains()`. `{ withoutPrices: true }` lets a provider skip reading prices (usdPrice may then be
   * null): the balances read needs only the list.
   */
  tokens(options?: { withoutPrices?: boolean }): Promise<RoutingToken[]>
  /**
   * Quotes a payment. Throws AppError VALIDATION_FAILED (or similar 4xx) for a request it cannot
   * route, with a message the payer can act on; SERVICE_UNAVAILABLE when the provider is down.
   */
  route(request: RouteRequest): Promise<RouteQuote>
  /**
   * Progress of a submitted payment beyond its source transaction (the tracker reads the source
   * receipt itself). Throws on transport errors; the tracker retries.
   */
  status(query: RouteStatusQuery): Promise<RouteStatus>
}
