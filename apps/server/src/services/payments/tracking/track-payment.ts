import type { Hash } from 'viem'
import type { RouteIntent } from '../../../db/schema.ts'
import {
  hasPendingRouteIntentReceipts,
  mismatchStatusRaw,
  updateRouteIntent,
} from '../route/route-intents-repository.ts'
import type { ProviderData, RouteStatus } from '../route/routing-provider.ts'
import { isX402Intent } from './match-source-transaction.ts'
import {
  backoffMs,
  finalFailure,
  type Look,
  receiptNotFoundTimeoutMs,
  stepsFor,
  type TrackPaymentContext,
  waitPatch,
} from './payment-patches.ts'
import { readRevertReason } from './read-revert-reason.ts'
import { settlePostedHashes } from './settle-posted-hashes.ts'
import { verifyProviderStatus } from './verify-delivery.ts'

export {
  backoffMs,
  mismatchMessage,
  receiptNotFoundTimeoutMs,
  type TrackPaymentContext,
} from './payment-patches.ts'

/**
 * One look at one payment: settles the posted hashes (the first that is the payer's transaction of
 * the route becomes the record's source; the payer's own other transactions fail the record until
 * one matches; anyone else's are ignored), then follows the source receipt, asks the provider for
 * the rest (`provider.status`, for every payment and provider alike) and verifies what it names
 * (verifyProviderStatus). A record is `success` only when the chain shows the link's receiver got
 * at least the route's minimum of the link's token on the link's chain, in blocks with the chain's
 * confirmation depth on top; it is watched until twice that depth and moved back when its evidence
 * leaves the chain. Answers the next row. Throws on RPC or database errors (the caller retries).
 */
export async function trackPayment(
  context: TrackPaymentContext,
  start: RouteIntent,
  providerData: ProviderData,
): Promise<RouteIntent> {
  const { now } = context
  const look: Look = {
    context,
    providerData,
    later: () => new Date(now() + backoffMs(context.workerIntervalMs, start.attempts)),
    save: (intent, patch, verdict) =>
      updateRouteIntent(context.db, intent, patch, { nowMs: now(), verdict, events: context.paymentEvents }),
  }
  let intent = start

  if (intent.sourceTxHash === null || intent.statusRaw === mismatchStatusRaw) {
    const settled = await settlePostedHashes(look, intent)
    intent = settled.intent
    if (!settled.isMatched) {
      const isWaiting = await hasPendingRouteIntentReceipts(context.db, intent.id)
      return look.save(intent, { nextCheckAt: isWaiting ? look.later() : null, lockedUntil: null })
    }
  }
  if (intent.sourceBlockHash === null) {
    // The source is not mined (yet, or no longer after a reorg): a re-sent transaction of the route
    // posted since, already mined, takes its place.
    intent = (await settlePostedHashes(look, intent, { onlyMined: true })).intent
  }
  const sourceTxHash = intent.sourceTxHash as Hash
  const sourceClient = context.getClient(intent.fromChainId)
  const receipt = await sourceClient.getTransactionReceipt({ hash: sourceTxHash }).catch(() => undefined)
  if (!receipt) {
    if (intent.sourceBlockHash !== null) {
      // The block the record relied on left the chain: back to waiting for the transaction.
      context.logger.warn({ sourceTxHash }, 'A payment left the chain (reorg); tracking it again')
      return look.save(
        intent,
        waitPatch(look, {
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
          routeStatus: stepsFor(intent, 'submitted', null),
        }),
      )
    }
    const submittedAt = intent.submittedAt?.getTime() ?? intent.createdAt.getTime()
    if (now() - submittedAt > receiptNotFoundTimeoutMs) {
      const failure = finalFailure(now(), 'The transaction was not found on chain.', {
        routeStatus: stepsFor(intent, 'source_failed', intent.destTxHash),
      })
      return look.save(intent, failure)
    }
    return look.save(intent, waitPatch(look))
  }
  const sourceDepth = context.getConfirmations(intent.fromChainId)
  const sourceConfirmations = Number(
    (await sourceClient.getBlockNumber({ cacheTime: 0 })) - receipt.blockNumber,
  )
  const sourceBlock = { sourceBlockNumber: Number(receipt.blockNumber), sourceBlockHash: receipt.blockHash }
  if (receipt.status !== 'success') {
    if (sourceConfirmations < sourceDepth) return look.save(intent, waitPatch(look, sourceBlock))
    const transaction = await sourceClient.getTransaction({ hash: sourceTxHash })
    const reason = await readRevertReason(sourceClient, transaction)
    return look.save(
      intent,
      finalFailure(now(), reason, {
        routeStatus: stepsFor(intent, 'source_failed', intent.destTxHash),
        ...sourceBlock,
      }),
    )
  }
  // Cross-chain: the source side is done once it is mined; the record shows the payment bridging.
  const isCrossChain = intent.fromChainId !== intent.toChainId
  if (isCrossChain && (intent.statusRaw !== 'ongoing' || intent.sourceBlockHash !== receipt.blockHash)) {
    intent = await look.save(intent, {
      ...sourceBlock,
      statusRaw: 'ongoing',
      status: 'bridging',
      errorMessage: null,
      routeStatus: stepsFor(intent, 'source_done', null),
    })
  }
  // An x402 payment is the token's own transfer to the receiver: its mined transaction is the
  // delivery, and no provider knows it (docs/decisions/0031).
  const status = isX402Intent(intent)
    ? x402DeliveryStatus(sourceTxHash)
    : await context.provider.status({
        intentId: intent.id as Hash,
        fromChainId: intent.fromChainId,
        toChainId: intent.toChainId,
        sourceTxHash,
        providerData,
        source: { logs: receipt.logs, isConfirmed: sourceConfirmations >= sourceDepth },
      })
  return verifyProviderStatus(look, intent, status, {
    receipt,
    confirmations: sourceConfirmations,
    depth: sourceDepth,
    patch: isCrossChain ? {} : sourceBlock,
  })
}

/** An x402 payment's status: delivered by its own mined transaction, verified like any delivery. */
function x402DeliveryStatus(sourceTxHash: Hash): RouteStatus {
  return {
    statusRaw: 'success',
    destTxHash: sourceTxHash,
    toAmountWei: null,
    steps: [],
    gasStatus: null,
    isGmpTransaction: false,
    axelarTransactionUrl: null,
    errorMessage: null,
  }
}
