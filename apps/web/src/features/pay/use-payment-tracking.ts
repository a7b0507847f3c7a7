import { AppError } from '@quicklinks/core/app-error'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import type { Config } from 'wagmi'
import { waitForTransactionReceipt } from 'wagmi/actions'
import { toast } from '../../ui/use-toast'
import type { SubmittedPayment } from './pay-modal-state'
import { getTransactions, pickTransaction, type TransactionRecord } from './transaction-record'

/** SPEC §9: the transaction poll while step 4 is open. */
export const transactionPollMs = 2000

export type PaymentTracking = {
  record: TransactionRecord | undefined
  outcome: 'success' | 'failed' | null
  /** The revert reason or the record's error, for the failure view. */
  failureDetail: string | null
  nowMs: number
}

/**
 * Step 4: polls GET /api/data/transactions/{payer} every 2 s and picks the record of the intent;
 * meanwhile waits for the source receipt through the wallet, so a revert fails at once ('unknown
 * reason' when the chain gives none). A poll failure toasts 'Unable to update transaction' once
 * per distinct message.
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

  const transactionsQuery = useQuery({
    queryKey: ['pay-transactions', payment?.payer.toLowerCase() ?? ''],
    queryFn: () => getTransactions(payment?.payer ?? ''),
    enabled: isActive && payment !== null,
    refetchInterval: isActive ? transactionPollMs : false,
    retry: false,
    staleTime: 0,
  })
  const record =
    transactionsQuery.data === undefined || payment === null
      ? undefined
      : pickTransaction(transactionsQuery.data, payment.intentId)

  const [receiptFailure, setReceiptFailure] = useState<string | null>(null)
  useEffect(() => {
    if (!isActive || payment === null) return
    setReceiptFailure(null)
    let isCurrent = true
    waitForTransactionReceipt(config, { hash: payment.txHash as `0x${string}`, chainId: payment.fromChainId })
      .then((receipt) => {
        if (isCurrent && receipt.status === 'reverted') setReceiptFailure('unknown reason')
      })
      .catch((error: unknown) => console.warn('Receipt wait failed', error))
    return () => {
      isCurrent = false
    }
  }, [isActive, payment, config])

  const shownErrors = useRef(new Set<string>())
  const pollError = isActive ? transactionsQuery.error : null
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

  const outcome =
    record?.status === 'success'
      ? 'success'
      : record?.status === 'failed' || receiptFailure !== null
        ? 'failed'
        : null
  return { record, outcome, failureDetail: record?.errorMessage ?? receiptFailure, nowMs }
}
