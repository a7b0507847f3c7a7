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

import type { PayStatusRefund } from '@quicklinks/core/api/pay-status'
import type {
  RouteAction,
  RoutingChain,
  RoutingToken,
  TransactionRequest,
} from '@quicklinks/core/api/routing'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { FastifyBaseLogger } from 'fastify'
import type { Hash, Log } from 'viem'
import type { z } from 'zod'
import type { Worker } from '../../workers/start-workers.ts'

/**
 * What every provider's data may say (docs/api.md#transaction-record's request_id): the provider's
 * own id of the quote request (Squid's x-request-id), null or absent when it has none.
 */
export type ProviderData = Readonly<Record<string, unknown>> & {
  readonly requestId?: string | null | undefined
}

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
export type RouteQuote<Data extends ProviderData = ProviderData> = {
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
  /**
   * The route's contract takes an EIP-2612 permit instead of the approval (PayRouter's
   * permitAndCall around the transaction's data; docs/decisions/0029). Absent: approve first.
   */
  acceptsPermit?: boolean
  /**
   * Whatever the provider needs later for status (Squid: x-request-id, quoteId); stored with the
   * intent, in the shape of the provider's `providerDataSchema`.
   */
  providerData: Data
}

/** What the tracker knows of a payment when it asks the provider for progress. */
export type RouteStatusQuery<Data extends ProviderData = ProviderData> = {
  intentId: `0x${string}`
  fromChainId: number
  toChainId: number
  sourceTxHash: `0x${string}`
  /** The intent's provider data, parsed with the provider's `providerDataSchema` when the intent was read. */
  providerData: Data
  /** The mined, successful source transaction as the tracker read it. */
  source: {
    logs: readonly Log[]
    /** It has the source chain's confirmation depth on top (a provider may wait for that before acting on it). */
    isConfirmed: boolean
  }
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
  /**
   * With a success word: the delivering transaction on the destination chain (the source one for a
   * same-chain route), where the verifier reads what the receiver got, whatever the provider says.
   * A success that names none is a failure. One that is neither the source transaction nor paid by
   * `payoutContract` is the provider's word (a shortfall's message says so).
   */
  destTxHash: `0x${string}` | null
  /**
   * Our own PayRouter, when it paid the receiver: its payout events (Paid, SwappedAndPaid, Filled)
   * are trusted for a native payout, which leaves no log of its own. Without it a native payout is
   * the receiver's balance change over the block.
   */
  payoutContract?: `0x${string}` | undefined
  /**
   * With a failure word: false when the failure may still change (the local relayer's escrow not yet
   * refunded), so the record stays watched, slowly. Default true.
   */
  isFinal?: boolean | undefined
  /** The provider's key of the order on chain, when it has one (the local PayRouter order key); only its payout counts. */
  orderKey?: Hash | undefined
  toAmountWei: bigint | null
  steps: RouteStepStatus[]
  gasStatus: string | null
  isGmpTransaction: boolean
  axelarTransactionUrl: string | null
  /** Why it failed, when it did (a revert reason, Squid's error). */
  errorMessage: string | null
}

/** A payment whose escrow a provider is asked about: its source transaction and stored data. */
export type EscrowQuery<Data extends ProviderData = ProviderData> = {
  fromChainId: number
  sourceTxHash: Hash
  providerData: Data
}

/** What the chains say now of a payment's escrow (docs/api.md#pay-status-refund). */
export type EscrowReading =
  /** Filled on the destination chain: the tracker will verify the delivery. */
  | { kind: 'filled' }
  /** Went back to the payer, by `refundTxHash` when its log was found. */
  | { kind: 'refunded'; refundTxHash: Hash | null }
  /**
   * Still escrowed: `isPastFillDeadline` once nobody can fill it any more; `refund` says how and
   * from when the payer takes it back.
   */
  | { kind: 'open'; isPastFillDeadline: boolean; refund: PayStatusRefund }
  /** No escrow of this payment (not a deposit, or settled to the relayer). */
  | { kind: 'none' }

/** What a provider's background workers get from the app that runs them. */
export type PaymentWorkerHost = {
  db: Database
  logger: FastifyBaseLogger
  /** Epoch ms; tests move it. */
  now?: (() => number) | undefined
  /** Runs a lane of a running worker now (something it waits for just happened); a no-op before they start. */
  wake(workerName: string, lane: string): void
}

/**
 * A source of chains, tokens, routes and their status.
 * docs/api.md#routing-providers: `local` reads the devnet, `squid` adapts Squid's API. A provider is
 * all the tracker knows of it: a new one plugs in here, with no change to tracking.
 */
export type RoutingProvider<Data extends ProviderData = ProviderData> = {
  /** Its name in the URL, /api/{name}/chains. */
  readonly name: string
  /** The shape of its `providerData`: parsed once whenever a stored intent is read back. */
  readonly providerDataSchema: z.ZodType<Data>
  /**
   * Its payments finish within seconds (the local relayer fills at once; Squid's bridges take
   * minutes): a posted receipt's answer may wait briefly for the end.
   */
  readonly isQuick?: boolean
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
  route(request: RouteRequest): Promise<RouteQuote<Data>>
  /**
   * Exact output, where the provider can quote it: the input whose route's `toAmountMin` (after
   * `slippage`) is at least `toAmountMin` (the local provider inverts Uniswap V2 with getAmountsIn).
   * Without it, exact output starts from the tokens' USD prices and scales (route/quote-route.ts).
   * Throws like `route`.
   */
  quoteFromAmount?(request: Omit<RouteRequest, 'fromAmount'> & { toAmountMin: bigint }): Promise<bigint>
  /**
   * Progress of a submitted payment beyond its mined source transaction (the tracker reads the
   * source receipt itself, and asks this for every payment, same-chain ones too): a success names
   * its delivery, which the tracker verifies on chain. Throws on transport errors; the tracker retries.
   */
  status(query: RouteStatusQuery<Data>): Promise<RouteStatus>
  /** Background work the provider needs (the local relayer); the app runs it beside the tracker. */
  workers?(host: PaymentWorkerHost): Worker[]
  /**
   * The escrow of a payment not (yet) seen delivered, read from the chains now, for the payer's
   * status page and self-serve refund (docs/api.md#pay-status): only a provider whose payments
   * escrow in a contract the payer can refund from (the local PayRouter) has it. Throws on RPC errors.
   */
  readEscrow?(query: EscrowQuery<Data>): Promise<EscrowReading>
}
