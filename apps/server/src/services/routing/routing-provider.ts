// The native-token placeholders live with the other token helpers, below every service that needs
// them (the relayer must not import routing); re-exported for the routing provider's callers.

// The API's shapes of chains, tokens, route actions and transaction requests are the contract's
// (docs/api.md#chain-object, #token-object, #route-action, #transaction-request); re-exported for
// the providers, which build them.
export type {
  RouteAction,
  RouteTokenRef,
  RoutingChain,
  RoutingToken,
  TransactionRequest,
} from '@quicklinks/core/api/routing'
export { isNativeTokenAddress, nativeTokenAddress, zeroAddress } from '@quicklinks/core/native-token-address'

import type {
  RouteAction,
  RoutingChain,
  RoutingToken,
  TransactionRequest,
} from '@quicklinks/core/api/routing'

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
  /** Percent, 1 by default (docs/api.md#route-request). */
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
  /**
   * Whom the payer approves for an ERC-20 (docs/product.md#approval-and-spender); usually
   * transactionRequest.to.
   */
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

/** A route_status entry (docs/api.md#transaction-record): a step's raw status and transaction, in order. */
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
 * docs/api.md#routing-providers: `local` reads the devnet, `squid` adapts Squid's API.
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
