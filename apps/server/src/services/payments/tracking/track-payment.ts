import { readTransactionStatus } from '@quicklinks/core/transaction-status'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { formatUnits, type Hash, type PublicClient, type TransactionReceipt } from 'viem'
import { type RouteIntent, relayerDeposits, routeIntentReceipts, routeIntents } from '../../../db/schema.ts'
import { findPayRouterFill } from '../providers/local/payrouter/find-pay-router-fill.ts'
import { parsePayRouterLogs } from '../providers/local/payrouter/parse-pay-router-logs.ts'
import {
  payRouterEscrowState,
  readPayRouterDepositState,
} from '../providers/local/payrouter/read-pay-router-state.ts'
import { readRevertReason } from '../providers/local/payrouter/read-revert-reason.ts'
import {
  isNativeTokenAddress,
  type RouteAction,
  type RouteStatus,
  type RoutingProvider,
} from '../route/routing-provider.ts'
import { buildRouteStepStatuses, type RoutePhase } from './build-route-step-statuses.ts'
import { matchSourceTransaction } from './match-source-transaction.ts'
import { readReceiverCredit } from './read-receiver-credit.ts'

/** A posted hash that no node knows after this long is given up. */
export const receiptNotFoundTimeoutMs = 30 * 60_000
/** Longest wait between two looks at a slow payment. */
const maxBackoffMs = 30_000
/** Posted hashes one look checks at most. */
const receiptsPerLook = 16

export const mismatchMessage = 'Transaction does not match the route'
/** status_raw of a record failed by the payer's own transaction that is not the route's: a matching one may still come. */
export const mismatchStatusRaw = 'failed_mismatch'

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
  /** Called when a cross-chain deposit of a local route is confirmed on its source chain. */
  onDepositConfirmed?(chainId: number): void
}

type Patch = Partial<typeof routeIntents.$inferInsert>
/** A posted hash's verdict, written in the same transaction as the intent's patch it leads to. */
type ReceiptVerdict = { id: string; state: 'matched' | 'rejected'; reason: string | null }
type Write = (patch: Patch, verdict?: ReceiptVerdict) => Promise<void>

type LocalDepositData = {
  kind?: unknown
  destinationPayRouter?: unknown
  destinationFromBlock?: unknown
  fillDeadline?: unknown
}

/**
 * One look at one payment: settles the posted hashes (the first that is the payer's transaction of
 * the route becomes the record's source; the payer's own other transactions fail the record until
 * one matches; anyone else's are ignored), then follows the source receipt, the fill or the
 * provider, and writes the record. A record is `success` only when the chain shows the link's
 * receiver got at least the route's minimum of the link's token on the link's chain, in blocks
 * with the chain's confirmation depth on top; it is watched until twice that depth and moved back
 * when its evidence leaves the chain. Throws on RPC or database errors (the caller retries).
 */
export async function trackPayment(context: TrackPaymentContext, intent: RouteIntent): Promise<void> {
  const { now } = context
  const later = (): Date => new Date(now() + backoffMs(context.workerIntervalMs, intent.attempts))
  const write: Write = async (patch, verdict) => {
    const updatedAt = new Date(now())
    const updateIntent = (db: Pick<Database, 'update'>) =>
      db
        .update(routeIntents)
        .set({ ...patch, updatedAt })
        .where(eq(routeIntents.id, intent.id))
    if (verdict === undefined) await updateIntent(context.db)
    else {
      // A receipt judged and the intent it moves change together: a crash between the two would
      // leave a matched receipt beside an intent still waiting for one, untracked for good.
      await context.db.transaction(async (tx) => {
        await tx
          .update(routeIntentReceipts)
          .set({ state: verdict.state, reason: verdict.reason, checkedAt: updatedAt })
          .where(eq(routeIntentReceipts.id, verdict.id))
        await updateIntent(tx)
      })
    }
    Object.assign(intent, patch)
  }
  const steps = (phase: RoutePhase, destTxHash: string | null = intent.destTxHash) =>
    stepsFor(intent, phase, destTxHash)
  const waitMore = (patch: Patch = {}): Promise<void> =>
    write({ ...patch, nextCheckAt: later(), lockedUntil: null })
  const fail = (errorMessage: string, phase: RoutePhase, patch: Patch = {}): Promise<void> =>
    write(finalFailure(now(), errorMessage, { routeStatus: steps(phase), ...patch }))

  if (intent.sourceTxHash === null || intent.statusRaw === mismatchStatusRaw) {
    const isMatched = await settlePostedHashes(context, intent, write)
    if (!isMatched) {
      const [pending] = await context.db
        .select({ count: sql<number>`count(*)::int` })
        .from(routeIntentReceipts)
        .where(and(eq(routeIntentReceipts.intentId, intent.id), eq(routeIntentReceipts.state, 'pending')))
      await write({ nextCheckAt: (pending?.count ?? 0) > 0 ? later() : null, lockedUntil: null })
      return
    }
  }
  if (intent.sourceBlockHash === null) {
    // The source is not mined (yet, or no longer after a reorg): a re-sent transaction of the route
    // posted since, already mined, takes its place.
    await settlePostedHashes(context, intent, write, { onlyMined: true })
  }
  const sourceTxHash = intent.sourceTxHash as Hash
  const sourceClient = context.getClient(intent.fromChainId)
  const receipt = await sourceClient.getTransactionReceipt({ hash: sourceTxHash }).catch(() => undefined)
  if (!receipt) {
    if (intent.sourceBlockHash !== null) {
      // The block the record relied on left the chain: back to waiting for the transaction.
      await waitMore({
        statusRaw: 'submitted',
        status: 'submitted',
        sourceBlockNumber: null,
        sourceBlockHash: null,
        destTxHash: null,
        destBlockNumber: null,
        destBlockHash: null,
        toAmountWei: null,
        errorMessage: null,
        completedAt: null,
        finalAt: null,
        routeStatus: steps('submitted', null),
      })
      context.logger.warn({ sourceTxHash }, 'A payment left the chain (reorg); tracking it again')
      return
    }
    const submittedAt = intent.submittedAt?.getTime() ?? intent.createdAt.getTime()
    if (now() - submittedAt > receiptNotFoundTimeoutMs) {
      await fail('The transaction was not found on chain.', 'source_failed')
    } else {
      await waitMore()
    }
    return
  }
  const sourceHead = await sourceClient.getBlockNumber({ cacheTime: 0 })
  const sourceDepth = context.getConfirmations(intent.fromChainId)
  const sourceConfirmations = Number(sourceHead - receipt.blockNumber)
  const sourceBlock: Patch = {
    sourceBlockNumber: Number(receipt.blockNumber),
    sourceBlockHash: receipt.blockHash,
  }
  if (receipt.status !== 'success') {
    if (sourceConfirmations < sourceDepth) return waitMore(sourceBlock)
    const transaction = await sourceClient.getTransaction({ hash: sourceTxHash })
    const reason = await readRevertReason(sourceClient, transaction)
    return fail(reason, 'source_failed', sourceBlock)
  }

  if (intent.fromChainId === intent.toChainId) {
    if (sourceConfirmations < sourceDepth) return waitMore(sourceBlock)
    const credit = await readReceiverCredit({
      receipt,
      token: intent.toToken,
      receiver: intent.toAddress,
      payRouter: intent.provider === 'local' ? readRequestTarget(intent) : undefined,
      client: intent.provider === 'local' ? undefined : sourceClient,
    })
    return finishDelivery(context, intent, write, {
      credit,
      destTxHash: sourceTxHash,
      destBlock: receipt,
      isFinal: sourceConfirmations >= 2 * sourceDepth,
      patch: sourceBlock,
      later,
    })
  }

  // Cross-chain: the source side is done once its block is deep enough.
  if (intent.statusRaw !== 'ongoing' || intent.sourceBlockHash !== receipt.blockHash) {
    await write({
      ...sourceBlock,
      statusRaw: 'ongoing',
      status: 'bridging',
      errorMessage: null,
      routeStatus: steps('source_done', null),
    })
  }
  if (intent.provider === 'local') {
    return trackLocalFill(context, intent, receipt, sourceConfirmations, write, later)
  }
  const status = await context.provider.status({
    intentId: intent.id as Hash,
    fromChainId: intent.fromChainId,
    toChainId: intent.toChainId,
    sourceTxHash,
    providerData: intent.providerData,
  })
  return trackProviderStatus(context, intent, status, write, later)
}

/**
 * Looks at the posted hashes still pending, oldest first. The payer's transaction of the route
 * becomes the source (true). The payer's other transactions fail the record (a matching one
 * later still wins); hashes of other wallets, of another of the payer's routes, or unknown to
 * the chain for 30 minutes are rejected quietly.
 */
async function settlePostedHashes(
  context: TrackPaymentContext,
  intent: RouteIntent,
  write: Write,
  options: { onlyMined?: boolean } = {},
): Promise<boolean> {
  // A receipt matched while the intent kept no source (a crash between the two writes, before they
  // shared a transaction) is judged again, so such a payment is not left untracked.
  const states = intent.sourceTxHash === null ? ['pending', 'matched'] : ['pending']
  const candidates = await context.db
    .select()
    .from(routeIntentReceipts)
    .where(and(eq(routeIntentReceipts.intentId, intent.id), inArray(routeIntentReceipts.state, states)))
    .orderBy(asc(routeIntentReceipts.createdAt))
    .limit(receiptsPerLook)
  if (candidates.length === 0) return false
  const client = context.getClient(intent.fromChainId)
  const settle = (id: string, state: 'matched' | 'rejected', reason: string | null) =>
    context.db
      .update(routeIntentReceipts)
      .set({ state, reason, checkedAt: new Date(context.now()) })
      .where(eq(routeIntentReceipts.id, id))
  for (const candidate of candidates) {
    const transaction = await client.getTransaction({ hash: candidate.txHash as Hash }).catch(() => undefined)
    if (!transaction) {
      if (context.now() - candidate.createdAt.getTime() > receiptNotFoundTimeoutMs) {
        await settle(candidate.id, 'rejected', 'The transaction was not found on chain.')
      }
      continue
    }
    const mismatch = matchSourceTransaction(intent, transaction)
    if (options.onlyMined) {
      // Only a mined transaction of the route replaces the current source; the rest wait their turn.
      if (mismatch !== null || transaction.blockNumber === null) continue
    }
    if (mismatch === null) {
      await write(
        {
          sourceTxHash: candidate.txHash,
          statusRaw: 'submitted',
          status: 'submitted',
          errorMessage: null,
          completedAt: null,
          finalAt: null,
          routeStatus: stepsFor({ ...intent, sourceTxHash: candidate.txHash }, 'submitted', null),
        },
        { id: candidate.id, state: 'matched', reason: null },
      )
      return true
    }
    const reason = `${mismatchMessage}: ${mismatch}.`
    const isPayers = transaction.from.toLowerCase() === intent.fromAddress.toLowerCase()
    if (!isPayers || (await paysAnotherRoute(context.db, intent, transaction.input))) {
      await settle(candidate.id, 'rejected', reason)
      continue
    }
    // The payer sent something else than the route under this payment's name: the record says so.
    await write(
      {
        sourceTxHash: candidate.txHash,
        statusRaw: mismatchStatusRaw,
        status: 'failed',
        errorMessage: reason,
        toAmountWei: null,
        destTxHash: null,
        completedAt: new Date(context.now()),
        routeStatus: stepsFor({ ...intent, sourceTxHash: candidate.txHash }, 'source_failed', null),
      },
      { id: candidate.id, state: 'rejected', reason },
    )
  }
  return false
}

/** Whether calldata is exactly another stored route of the same payer (someone posted it against the wrong one). */
async function paysAnotherRoute(db: Database, intent: RouteIntent, input: string): Promise<boolean> {
  const [other] = await db
    .select({ id: routeIntents.id })
    .from(routeIntents)
    .where(
      and(
        eq(routeIntents.fromAddress, intent.fromAddress),
        eq(routeIntents.fromChainId, intent.fromChainId),
        sql`lower(${routeIntents.transactionRequest}->>'data') = ${input.toLowerCase()}`,
        sql`${routeIntents.id} <> ${intent.id}`,
      ),
    )
    .limit(1)
  return other !== undefined
}

async function trackLocalFill(
  context: TrackPaymentContext,
  intent: RouteIntent,
  receipt: TransactionReceipt,
  sourceConfirmations: number,
  write: Write,
  later: () => Date,
): Promise<void> {
  const data = intent.providerData as LocalDepositData
  const sourceRouter = readRequestTarget(intent)
  const [deposit] = sourceRouter ? parsePayRouterLogs(receipt.logs, sourceRouter, 'Deposited') : []
  const destinationRouter =
    typeof data.destinationPayRouter === 'string' ? data.destinationPayRouter : undefined
  if (!deposit || !destinationRouter) {
    await write(finalFailure(context.now(), 'The deposit is missing from the source transaction.'))
    return
  }
  const orderKey = deposit.args.orderKey
  if (intent.orderKey !== orderKey) await write({ orderKey })
  const sourceDepth = context.getConfirmations(intent.fromChainId)
  if (sourceConfirmations < sourceDepth) {
    await write({ nextCheckAt: later(), lockedUntil: null })
    return
  }
  context.onDepositConfirmed?.(intent.fromChainId)
  const destinationClient = context.getClient(intent.toChainId)
  const [hint] = await context.db
    .select({ fillTxHash: relayerDeposits.fillTxHash })
    .from(relayerDeposits)
    .where(and(eq(relayerDeposits.sourceChainId, intent.fromChainId), eq(relayerDeposits.orderKey, orderKey)))
    .limit(1)
  const fill = await findPayRouterFill({
    client: destinationClient,
    payRouter: destinationRouter as `0x${string}`,
    orderKey,
    fromBlock: BigInt(typeof data.destinationFromBlock === 'number' ? data.destinationFromBlock : 0),
    hintTxHash: (hint?.fillTxHash ?? null) as Hash | null,
  })
  if (fill) {
    const head = await destinationClient.getBlockNumber({ cacheTime: 0 })
    const depth = context.getConfirmations(intent.toChainId)
    const confirmations = Number(head - fill.receipt.blockNumber)
    if (confirmations < depth) {
      await write({ nextCheckAt: later(), lockedUntil: null })
      return
    }
    const credit = await readReceiverCredit({
      receipt: fill.receipt,
      token: intent.toToken,
      receiver: intent.toAddress,
      payRouter: destinationRouter,
      orderKey,
    })
    return finishDelivery(context, intent, write, {
      credit,
      destTxHash: fill.txHash,
      destBlock: fill.receipt,
      isFinal: confirmations >= 2 * depth && sourceConfirmations >= 2 * sourceDepth,
      patch: {},
      later,
    })
  }
  const escrowState = await readPayRouterDepositState(
    context.getClient(intent.fromChainId),
    sourceRouter as `0x${string}`,
    orderKey,
  )
  if (escrowState === payRouterEscrowState.refunded) {
    await write(
      finalFailure(
        context.now(),
        'The relayer did not fill this payment before its deadline; the deposit went back to the payer.',
        { statusRaw: 'refunded', isRefunded: true, routeStatus: stepsFor(intent, 'refunded', null) },
      ),
    )
    return
  }
  const deadline = Number(deposit.args.order.fillDeadline)
  const destinationTime = Number((await destinationClient.getBlock({ blockTag: 'latest' })).timestamp)
  if (destinationTime > deadline) {
    // Nobody can fill it any more; the escrow goes back to the payer once the settlement window ends.
    await write({
      statusRaw: 'failed',
      status: 'failed',
      errorMessage: `The relayer did not fill this payment before its deadline; the payer can take the deposit back after ${new Date((deadline + 3600) * 1000).toISOString()}.`,
      routeStatus: stepsFor(intent, 'failed', null),
      completedAt: new Date(context.now()),
      // Still watched, slowly, so the record says when the escrow was refunded.
      nextCheckAt: new Date(context.now() + maxBackoffMs),
      lockedUntil: null,
    })
    return
  }
  await write({
    ...(intent.statusRaw === 'success' ? evidenceGone(intent) : {}),
    nextCheckAt: later(),
    lockedUntil: null,
  })
}

/** A success whose destination evidence left the chain (reorg) goes back to bridging. */
function evidenceGone(intent: RouteIntent): Patch {
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

/** Squid (or any provider that reports its own progress): its word, checked on the destination chain. */
async function trackProviderStatus(
  context: TrackPaymentContext,
  intent: RouteIntent,
  status: RouteStatus,
  write: Write,
  later: () => Date,
): Promise<void> {
  const reading = readTransactionStatus(status.statusRaw)
  const providerSteps = status.steps
  const common: Patch = {
    gasStatus: status.gasStatus,
    isGmp: status.isGmpTransaction,
    axelarUrl: status.axelarTransactionUrl,
  }
  if (reading.status === 'success') {
    if (!status.destTxHash) {
      return failProvider('The routing service reports success but names no destination transaction.')
    }
    const destinationClient = context.getClient(intent.toChainId)
    const destReceipt = await destinationClient
      .getTransactionReceipt({ hash: status.destTxHash })
      .catch(() => undefined)
    if (!destReceipt) {
      // The destination RPC may lag the provider's indexer by a few blocks.
      const since = intent.submittedAt?.getTime() ?? intent.createdAt.getTime()
      if (context.now() - since > receiptNotFoundTimeoutMs) {
        return failProvider(
          `The routing service reports success, but its destination transaction ${status.destTxHash} is not on chain ${intent.toChainId}.`,
        )
      }
      await write({
        ...common,
        ...(intent.statusRaw === 'success' ? evidenceGone(intent) : {}),
        nextCheckAt: later(),
        lockedUntil: null,
      })
      return
    }
    const head = await destinationClient.getBlockNumber({ cacheTime: 0 })
    const depth = context.getConfirmations(intent.toChainId)
    const confirmations = Number(head - destReceipt.blockNumber)
    if (confirmations < depth) {
      await write({ ...common, nextCheckAt: later(), lockedUntil: null })
      return
    }
    const credit =
      destReceipt.status === 'success'
        ? await readReceiverCredit({
            receipt: destReceipt,
            token: intent.toToken,
            receiver: intent.toAddress,
            client: destinationClient,
          })
        : 0n
    return finishDelivery(context, intent, write, {
      credit,
      destTxHash: status.destTxHash,
      destBlock: destReceipt,
      isFinal: confirmations >= 2 * depth,
      patch: common,
      later,
      claim: 'The routing service reports success, but',
    })
  }
  const isFinal = reading.status === 'failed'
  const phase: RoutePhase = reading.isRefunded ? 'refunded' : isFinal ? 'failed' : 'source_done'
  // The source transaction is mined: a provider that has not indexed it yet (not_found) keeps the record bridging.
  const statusRaw = reading.status === 'submitted' ? 'ongoing' : status.statusRaw
  await write({
    ...common,
    statusRaw,
    status: readTransactionStatus(statusRaw).status,
    isRefunded: reading.isRefunded,
    destTxHash: status.destTxHash,
    errorMessage: status.errorMessage,
    // A failure's destination side failed, whatever the provider says of its own legs.
    routeStatus: stepsFor(intent, phase, status.destTxHash, isFinal ? undefined : providerSteps),
    completedAt: isFinal ? new Date(context.now()) : null,
    finalAt: isFinal ? new Date(context.now()) : null,
    nextCheckAt: isFinal ? null : later(),
    lockedUntil: null,
  })

  async function failProvider(errorMessage: string): Promise<void> {
    await write(
      finalFailure(context.now(), errorMessage, {
        ...common,
        destTxHash: status.destTxHash,
        routeStatus: stepsFor(intent, 'failed', status.destTxHash, providerSteps),
      }),
    )
  }
}

type Delivery = {
  /** What the receiver got of the link's token in the delivering transaction. */
  credit: bigint
  destTxHash: string
  destBlock: Pick<TransactionReceipt, 'blockNumber' | 'blockHash'>
  /** Deep enough that nothing will be looked at again. */
  isFinal: boolean
  patch: Patch
  later: () => Date
  /** How the failure sentence starts; default 'The transaction ran, but'. */
  claim?: string
}

/** Writes success when the receiver got at least the route's minimum, else a failure saying what arrived. */
async function finishDelivery(
  context: TrackPaymentContext,
  intent: RouteIntent,
  write: Write,
  delivery: Delivery,
): Promise<void> {
  const minimum = BigInt(intent.toAmountMin)
  const steps = (phase: RoutePhase) => stepsFor(intent, phase, delivery.destTxHash)
  const evidence: Patch = {
    ...delivery.patch,
    destTxHash: delivery.destTxHash,
    destBlockNumber: Number(delivery.destBlock.blockNumber),
    destBlockHash: delivery.destBlock.blockHash,
    toAmountWei: delivery.credit.toString(),
  }
  if (delivery.credit >= minimum && delivery.credit > 0n) {
    const wasSuccess = intent.statusRaw === 'success'
    await write({
      ...evidence,
      statusRaw: 'success',
      status: 'success',
      errorMessage: null,
      routeStatus: steps('success'),
      completedAt: wasSuccess && intent.completedAt ? intent.completedAt : new Date(context.now()),
      finalAt: delivery.isFinal ? new Date(context.now()) : null,
      nextCheckAt: delivery.isFinal ? null : delivery.later(),
      lockedUntil: null,
    })
    return
  }
  const decimals = (intent.actions as RouteAction[]).at(-1)?.toToken.decimals ?? 18
  const symbol = (intent.actions as RouteAction[]).at(-1)?.toToken.symbol ?? ''
  const amount = (value: bigint) => `${formatUnits(value, decimals)}${symbol ? ` ${symbol}` : ''}`
  await write({
    ...evidence,
    statusRaw: 'failed',
    status: 'failed',
    errorMessage: `${delivery.claim ?? 'The transaction ran, but'} the receiver got ${amount(delivery.credit)} of the ${amount(minimum)} the route promised on chain ${intent.toChainId}${isNativeTokenAddress(intent.toToken) ? '' : ` (token ${intent.toToken})`}.`,
    routeStatus: steps('failed'),
    completedAt: new Date(context.now()),
    finalAt: delivery.isFinal ? new Date(context.now()) : null,
    nextCheckAt: delivery.isFinal ? null : delivery.later(),
    lockedUntil: null,
  })
}

/** A failure that is final: the record stops being watched. `patch` adds to it or overrides it. */
function finalFailure(nowMs: number, errorMessage: string, patch: Patch = {}): Patch {
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

/** The record's route_status for a phase of the payment. */
function stepsFor(
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

function readRequestTarget(intent: RouteIntent): string | undefined {
  const to = (intent.transactionRequest as { to?: unknown }).to
  return typeof to === 'string' ? to : undefined
}

/** Quick for the first minute of a payment, then slower, never beyond 30 s. */
export function backoffMs(intervalMs: number, attempts: number): number {
  return Math.min(
    maxBackoffMs,
    attempts < 60 ? intervalMs : intervalMs * 2 ** Math.min(5, Math.floor(attempts / 60)),
  )
}
