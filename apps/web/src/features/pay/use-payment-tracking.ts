import { AppError } from '@quicklinks/core/app-error'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import type { Config } from 'wagmi'
import { waitForTransactionReceipt } from 'wagmi/actions'
import { toast } from '../../ui/use-toast'
import type { SubmittedPayment } from './pay-modal-state'
import {
  getPaymentOutcome,
  getPaymentRecord,
  type PaymentOutcome,
  type TransactionRecord,
} from './transaction-record'

/** The transaction poll while step 4 is open (docs/product.md#step-processing). */
export const transactionPollMs = 2000

export type PaymentTracking = {
  /** The intent's record as it concerns this payment, as the server answers it (see `getPaymentRecord`). */
  record: TransactionRecord | undefined
  outcome: PaymentOutcome | null
  /** The revert reason or the record's error, for the failure view. */
  failureDetail: string | null
  nowMs: number
}

/**
 * Step 4: polls GET /api/route-intent/{intentId} once as soon as the receipt post settled (its
 * answer may already hold the final status), then every 2 s; a receipt post that hangs delays the
 * first poll by one interval at most. Only the record of the very transaction the wallet sent can
 * end the payment (`getPaymentOutcome`). Meanwhile it waits for the source receipt through the
 * wallet, so a revert fails at once ('unknown reason' when the chain gives none). A poll failure
 * toasts 'Unable to update transaction' once per distinct message.
 */
export function usePaymentTracking(
  config: Config,
  payment: SubmittedPayment | null,
  isActive: boolean,
): PaymentTracking {
  const [nowMs, setNowMs] = useState(() => Date.now())
  useEffect(() => {
    if (!isActive) return
    setNowMs(Date.now())
    const interval = setInterval(() => setNowMs(Date.now()), 1000)
    return () => clearInterval(interval)
  }, [isActive])

  const txHash = payment?.txHash ?? null
  const isReceiptPosted = payment?.isReceiptPosted === true
  // The receipt post's latest start for the polls, per transaction: one poll interval after sending.
  const [overdueTxHash, setOverdueTxHash] = useState<string | null>(null)
  useEffect(() => {
    if (!isActive || txHash === null || isReceiptPosted) return
    const timer = setTimeout(() => setOverdueTxHash(txHash), transactionPollMs)
    return () => clearTimeout(timer)
  }, [isActive, txHash, isReceiptPosted])
  const isOverdue = txHash !== null && overdueTxHash === txHash
  const canPoll = isActive && txHash !== null && (isReceiptPosted || isOverdue)

  const recordQuery = useQuery({
    // Keyed by the transaction too: a new payment never shows the previous one's answer.
    queryKey: ['pay-payment', payment?.intentId.toLowerCase() ?? '', txHash?.toLowerCase() ?? ''],
    // Null while the server has no record for this payer yet (react-query keeps no undefined).
    queryFn: async () => (payment === null ? null : ((await getPaymentRecord(payment)) ?? null)),
    // Enabling it fetches at once: the first poll follows the receipt post without waiting 2 s.
    enabled: canPoll,
    refetchInterval: canPoll ? transactionPollMs : false,
    retry: false,
    staleTime: 0,
  })
  // Polling began before the receipt post settled (it hung): ask once more as soon as it has.
  const { refetch } = recordQuery
  useEffect(() => {
    if (isActive && isReceiptPosted && isOverdue) void refetch()
  }, [isActive, isReceiptPosted, isOverdue, refetch])

  const record = payment === null ? undefined : (recordQuery.data ?? undefined)

  const [receiptFailure, setReceiptFailure] = useState<string | null>(null)
  const fromChainId = payment?.fromChainId ?? null
  // Keyed by the transaction, not the payment object: the receipt post settling changes the latter.
  useEffect(() => {
    if (!isActive || txHash === null || fromChainId === null) return
    setReceiptFailure(null)
    let isCurrent = true
    waitForTransactionReceipt(config, { hash: txHash as `0x${string}`, chainId: fromChainId })
      .then((receipt) => {
        if (isCurrent && receipt.status === 'reverted') setReceiptFailure('unknown reason')
      })
      .catch((error: unknown) => console.warn('Receipt wait failed', error))
    return () => {
      isCurrent = false
    }
  }, [isActive, txHash, fromChainId, config])

  const shownErrors = useRef(new Set<string>())
  const pollError = isActive ? recordQuery.error : null
  const pollErrorMessage =
    pollError === null
      ? null
      : pollError instanceof AppError
        ? pollError.userMessage
        : 'Failed to load transaction'
  useEffect(() => {
    if (pollErrorMessage === null || shownErrors.current.has(pollErrorMessage)) return
    shownErrors.current.add(pollErrorMessage)
    toast({ title: 'Unable to update transaction', description: pollErrorMessage, variant: 'destructive' })
  }, [pollErrorMessage])

  const recordOutcome = payment === null ? null : getPaymentOutcome(record, payment.txHash)
  const outcome = recordOutcome ?? (receiptFailure === null ? null : 'failed')
  return { record, outcome, failureDetail: record?.errorMessage ?? receiptFailure, nowMs }
}
