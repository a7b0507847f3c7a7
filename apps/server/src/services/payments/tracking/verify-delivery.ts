import { readTransactionStatus } from '@quicklinks/core/transaction-status'
import { formatUnits, type TransactionReceipt } from 'viem'
import type { RouteIntent } from '../../../db/schema.ts'
import type { RouteIntentPatch } from '../route/route-intents-repository.ts'
import { isNativeTokenAddress, type RouteAction, type RouteStatus } from '../route/routing-provider.ts'
import type { RoutePhase } from './build-route-step-statuses.ts'
import {
  evidenceGone,
  finalFailure,
  type Look,
  maxBackoffMs,
  receiptNotFoundTimeoutMs,
  stepsFor,
  waitPatch,
} from './payment-patches.ts'
import { readReceiverCredit } from './read-receiver-credit.ts'

/** The mined, successful source transaction a provider's status is about. */
export type VerifiedSource = {
  receipt: TransactionReceipt
  /** Blocks on top of it, and the depth its chain needs. */
  confirmations: number
  depth: number
  /** What the record keeps of it (its block), written with whatever this look writes. */
  patch: RouteIntentPatch
}

/**
 * The verifier: whatever the provider (local, Squid, any other) says, a record is `success` only
 * when the delivery it names is on the destination chain, deep enough, and credits the link's
 * receiver at least the route's minimum of the link's token. A failure or progress word is written
 * as the provider's. Answers the next row.
 */
export async function verifyProviderStatus(
  look: Look,
  intent: RouteIntent,
  status: RouteStatus,
  source: VerifiedSource,
): Promise<RouteIntent> {
  const { context } = look
  const now = context.now()
  const reading = readTransactionStatus(status.statusRaw)
  const common: RouteIntentPatch = {
    ...source.patch,
    gasStatus: status.gasStatus,
    isGmp: status.isGmpTransaction,
    axelarUrl: status.axelarTransactionUrl,
    ...(status.orderKey && status.orderKey !== intent.orderKey ? { orderKey: status.orderKey } : {}),
  }
  const failProvider = (errorMessage: string): Promise<RouteIntent> =>
    look.save(
      intent,
      finalFailure(now, errorMessage, {
        ...common,
        destTxHash: status.destTxHash,
        routeStatus: stepsFor(intent, 'failed', status.destTxHash, status.steps),
      }),
    )

  if (reading.status === 'success') {
    const destTxHash = status.destTxHash
    if (!destTxHash)
      return failProvider('The routing service reports success but names no destination transaction.')
    const destinationClient = context.getClient(intent.toChainId)
    const isSource = destTxHash === source.receipt.transactionHash && intent.toChainId === intent.fromChainId
    const receipt = isSource
      ? source.receipt
      : await destinationClient.getTransactionReceipt({ hash: destTxHash }).catch(() => undefined)
    if (!receipt) {
      // The destination RPC may lag the provider's indexer by a few blocks.
      const since = intent.submittedAt?.getTime() ?? intent.createdAt.getTime()
      if (now - since > receiptNotFoundTimeoutMs) {
        return failProvider(
          `The routing service reports success, but its destination transaction ${destTxHash} is not on chain ${intent.toChainId}.`,
        )
      }
      return look.save(
        intent,
        waitPatch(look, { ...common, ...(intent.statusRaw === 'success' ? evidenceGone(intent) : {}) }),
      )
    }
    const depth = context.getConfirmations(intent.toChainId)
    const confirmations = isSource
      ? source.confirmations
      : Number((await destinationClient.getBlockNumber({ cacheTime: 0 })) - receipt.blockNumber)
    if (confirmations < depth) return look.save(intent, waitPatch(look, common))
    const credit =
      receipt.status === 'success'
        ? await readReceiverCredit({
            receipt,
            token: intent.toToken,
            receiver: intent.toAddress,
            payRouter: status.payoutContract,
            orderKey: status.payoutContract ? status.orderKey : undefined,
            client: status.payoutContract ? undefined : destinationClient,
          })
        : 0n
    return finishDelivery(look, intent, {
      credit,
      destTxHash,
      destBlock: receipt,
      isFinal: confirmations >= 2 * depth && source.confirmations >= 2 * source.depth,
      patch: common,
      // Neither the payer's own transaction nor our contract's payout: the provider's word.
      ...(!isSource && !status.payoutContract ? { claim: 'The routing service reports success, but' } : {}),
    })
  }
  const isFailed = reading.status === 'failed'
  const isFinal = isFailed && status.isFinal !== false
  const phase: RoutePhase = reading.isRefunded ? 'refunded' : isFailed ? 'failed' : 'source_done'
  // The source transaction is mined: a provider that has not indexed it yet (not_found) keeps the record bridging.
  const statusRaw = reading.status === 'submitted' ? 'ongoing' : status.statusRaw
  return look.save(intent, {
    ...(intent.statusRaw === 'success' ? evidenceGone(intent) : {}),
    ...common,
    statusRaw,
    status: readTransactionStatus(statusRaw).status,
    isRefunded: reading.isRefunded,
    destTxHash: status.destTxHash,
    errorMessage: status.errorMessage,
    // A failure's destination side failed, whatever the provider says of its own legs.
    routeStatus: stepsFor(intent, phase, status.destTxHash, isFinal ? undefined : status.steps),
    completedAt: isFailed ? new Date(now) : null,
    finalAt: isFinal ? new Date(now) : null,
    // A failure that may still change (an escrow not yet refunded) is still watched, slowly.
    nextCheckAt: isFinal ? null : isFailed ? new Date(now + maxBackoffMs) : look.later(),
    lockedUntil: null,
  })
}

type Delivery = {
  /** What the receiver got of the link's token in the delivering transaction. */
  credit: bigint
  destTxHash: string
  destBlock: Pick<TransactionReceipt, 'blockNumber' | 'blockHash'>
  /** Deep enough that nothing will be looked at again. */
  isFinal: boolean
  patch: RouteIntentPatch
  /** How the failure sentence starts; default 'The transaction ran, but'. */
  claim?: string
}

/** Writes success when the receiver got at least the route's minimum, else a failure saying what arrived. */
export async function finishDelivery(
  look: Look,
  intent: RouteIntent,
  delivery: Delivery,
): Promise<RouteIntent> {
  const now = look.context.now()
  const minimum = BigInt(intent.toAmountMin)
  const steps = (phase: RoutePhase) => stepsFor(intent, phase, delivery.destTxHash)
  const evidence: RouteIntentPatch = {
    ...delivery.patch,
    destTxHash: delivery.destTxHash,
    destBlockNumber: Number(delivery.destBlock.blockNumber),
    destBlockHash: delivery.destBlock.blockHash,
    toAmountWei: delivery.credit.toString(),
  }
  const settled: RouteIntentPatch = {
    finalAt: delivery.isFinal ? new Date(now) : null,
    nextCheckAt: delivery.isFinal ? null : look.later(),
    lockedUntil: null,
  }
  if (delivery.credit >= minimum && delivery.credit > 0n) {
    const wasSuccess = intent.statusRaw === 'success'
    return look.save(intent, {
      ...evidence,
      statusRaw: 'success',
      status: 'success',
      errorMessage: null,
      routeStatus: steps('success'),
      completedAt: wasSuccess && intent.completedAt ? intent.completedAt : new Date(now),
      ...settled,
    })
  }
  const lastAction = (intent.actions as RouteAction[]).at(-1)
  const decimals = lastAction?.toToken.decimals ?? 18
  const symbol = lastAction?.toToken.symbol ?? ''
  const amount = (value: bigint) => `${formatUnits(value, decimals)}${symbol ? ` ${symbol}` : ''}`
  return look.save(intent, {
    ...evidence,
    statusRaw: 'failed',
    status: 'failed',
    errorMessage: `${delivery.claim ?? 'The transaction ran, but'} the receiver got ${amount(delivery.credit)} of the ${amount(minimum)} the route promised on chain ${intent.toChainId}${isNativeTokenAddress(intent.toToken) ? '' : ` (token ${intent.toToken})`}.`,
    routeStatus: steps('failed'),
    completedAt: new Date(now),
    ...settled,
  })
}
