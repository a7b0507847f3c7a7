import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { FastifyBaseLogger } from 'fastify'
import type { PublicClient } from 'viem'
import type { RouteIntent } from '../../../db/schema.ts'
import type {
  PaymentEventWriter,
  ReceiptVerdict,
  RouteIntentPatch,
} from '../route/route-intents-repository.ts'
import type { ProviderData, RouteAction, RouteStatus, RoutingProvider } from '../route/routing-provider.ts'
import { buildRouteStepStatuses, type RoutePhase } from './build-route-step-statuses.ts'

/** A posted hash that no node knows after this long is given up. */
export const receiptNotFoundTimeoutMs = 30 * 60_000
/** Longest wait between two looks at a slow payment. */
export const maxBackoffMs = 30_000

export const mismatchMessage = 'Transaction does not match the route'

export type TrackPaymentContext = {
  db: Database
  provider: RoutingProvider
  logger: FastifyBaseLogger
  now: () => number
  workerIntervalMs: number
  /** A public client for a chain id; throws AppError 503 when the chain has no RPC. */
  getClient(chainId: number): PublicClient
  /** Confirmation depth of a chain (getConfirmations). */
  getConfirmations(chainId: number): number
  /** Writes the webhook events of the changes (with each change, in its transaction). */
  paymentEvents?: PaymentEventWriter | undefined
}

/** One look at one payment: its context, its parsed provider data, and how it writes its next row. */
export type Look = {
  context: TrackPaymentContext
  /** The intent's provider data, parsed once with the provider's schema when the intent was read. */
  providerData: ProviderData
  /** When a payment still in flight is looked at next. */
  later(): Date
  /** Writes a patch (and a posted hash's verdict with it); answers the next row. */
  save(intent: RouteIntent, patch: RouteIntentPatch, verdict?: ReceiptVerdict): Promise<RouteIntent>
}

/** Quick for the first minute of a payment, then slower, never beyond 30 s. */
export function backoffMs(intervalMs: number, attempts: number): number {
  return Math.min(
    maxBackoffMs,
    attempts < 60 ? intervalMs : intervalMs * 2 ** Math.min(5, Math.floor(attempts / 60)),
  )
}

/** A patch that leaves the record as it is and looks again later. */
export function waitPatch(look: Look, patch: RouteIntentPatch = {}): RouteIntentPatch {
  return { ...patch, nextCheckAt: look.later(), lockedUntil: null }
}

/** A failure that is final: the record stops being watched. `patch` adds to it or overrides it. */
export function finalFailure(
  nowMs: number,
  errorMessage: string,
  patch: RouteIntentPatch = {},
): RouteIntentPatch {
  return {
    statusRaw: 'failed',
    status: 'failed',
    errorMessage,
    completedAt: new Date(nowMs),
    finalAt: new Date(nowMs),
    nextCheckAt: null,
    lockedUntil: null,
    ...patch,
  }
}

/** A success whose destination evidence left the chain (reorg) goes back to bridging. */
export function evidenceGone(intent: RouteIntent): RouteIntentPatch {
  return {
    statusRaw: 'ongoing',
    status: 'bridging',
    destTxHash: null,
    destBlockNumber: null,
    destBlockHash: null,
    toAmountWei: null,
    completedAt: null,
    finalAt: null,
    routeStatus: stepsFor(intent, 'source_done', null),
  }
}

/** The record's route_status for a phase of the payment. */
export function stepsFor(
  intent: RouteIntent,
  phase: RoutePhase,
  destTxHash: string | null,
  providerSteps?: RouteStatus['steps'],
): unknown[] {
  return buildRouteStepStatuses(intent.actions as RouteAction[], {
    phase,
    fromChainId: intent.fromChainId,
    sourceTxHash: intent.sourceTxHash,
    destTxHash,
    ...(providerSteps ? { providerSteps } : {}),
  })
}
