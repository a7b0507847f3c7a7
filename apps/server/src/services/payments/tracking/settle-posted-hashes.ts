import type { Hash } from 'viem'
import type { RouteIntent } from '../../../db/schema.ts'
import {
  listRouteIntentReceipts,
  mismatchStatusRaw,
  paysAnotherRouteIntent,
  settleRouteIntentReceipt,
} from '../route/route-intents-repository.ts'
import { listPayerCalls } from './list-payer-calls.ts'
import { matchSourceTransaction } from './match-source-transaction.ts'
import { type Look, mismatchMessage, receiptNotFoundTimeoutMs, stepsFor } from './payment-patches.ts'

/** Posted hashes one look checks at most. */
const receiptsPerLook = 16

/**
 * Looks at the posted hashes still pending, oldest first. The payer's transaction of the route
 * becomes the source (`isMatched`). The payer's other transactions fail the record (a matching one
 * later still wins); hashes of other wallets, of another of the payer's routes, or unknown to
 * the chain for 30 minutes are rejected quietly. `onlyMined`: only a mined transaction of the route
 * replaces the current source. Answers the next row.
 */
export async function settlePostedHashes(
  look: Look,
  start: RouteIntent,
  options: { onlyMined?: boolean } = {},
): Promise<{ intent: RouteIntent; isMatched: boolean }> {
  const { context } = look
  let intent = start
  // A receipt matched while the intent kept no source (a crash between the two writes, before they
  // shared a transaction) is judged again, so such a payment is not left untracked.
  const states = intent.sourceTxHash === null ? ['pending', 'matched'] : ['pending']
  const candidates = await listRouteIntentReceipts(context.db, intent.id, states, receiptsPerLook)
  if (candidates.length === 0) return { intent, isMatched: false }
  const client = context.getClient(intent.fromChainId)
  for (const candidate of candidates) {
    const transaction = await client.getTransaction({ hash: candidate.txHash as Hash }).catch(() => undefined)
    if (!transaction) {
      if (context.now() - candidate.createdAt.getTime() > receiptNotFoundTimeoutMs) {
        const reason = 'The transaction was not found on chain.'
        await settleRouteIntentReceipt(
          context.db,
          { id: candidate.id, state: 'rejected', reason },
          context.now(),
        )
      }
      continue
    }
    const mismatch = matchSourceTransaction(intent, transaction)
    if (options.onlyMined) {
      // Only a mined transaction of the route replaces the current source; the rest wait their turn.
      if (mismatch !== null || transaction.blockNumber === null) continue
    }
    if (mismatch === null) {
      intent = await look.save(
        intent,
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
      return { intent, isMatched: true }
    }
    const reason = `${mismatchMessage}: ${mismatch}.`
    const isPayers = transaction.from.toLowerCase() === intent.fromAddress.toLowerCase()
    if (!isPayers || (await paysAnotherOfTheirRoutes(look, intent, transaction))) {
      await settleRouteIntentReceipt(
        context.db,
        { id: candidate.id, state: 'rejected', reason },
        context.now(),
      )
      continue
    }
    // The payer sent something else than the route under this payment's name: the record says so.
    intent = await look.save(
      intent,
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
  return { intent, isMatched: false }
}

/** Whether the transaction, or a call of its batch or permit wrapper, is another stored route of the payer. */
async function paysAnotherOfTheirRoutes(
  look: Look,
  intent: RouteIntent,
  transaction: Parameters<typeof listPayerCalls>[0],
): Promise<boolean> {
  for (const input of new Set([transaction.input, ...listPayerCalls(transaction).map((call) => call.data)])) {
    if (await paysAnotherRouteIntent(look.context.db, intent, input)) return true
  }
  return false
}
