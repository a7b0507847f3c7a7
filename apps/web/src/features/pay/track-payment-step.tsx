import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useConfig } from 'wagmi'
import { toast } from '../../ui/use-toast'
import type { SubmittedPayment } from './pay-modal-state'
import { ProcessingStep } from './processing-step'
import type { TransactionRecord } from './transaction-record'
import { usePaymentTracking } from './use-payment-tracking'

export type TrackPaymentStepProps = {
  payment: SubmittedPayment
  getChainName: (chainId: number) => string
  /** The payment arrived, as `record` shows it: the modal moves to step 5. */
  onSucceeded: (record: TransactionRecord | null) => void
  /** The payment failed, with the reason when known: the modal moves to step 6. */
  onFailed: (message: string | null) => void
  onSuccess?: (() => void) | undefined
  onFailure?: (() => void) | undefined
}

/**
 * Step 4 'Payment Confirmation': follows the sent payment until it ends, once. Success fires the
 * success callback; failure fires the failure callback and toasts 'Transaction failed'. Either way
 * the payer's balances are read again.
 */
export function TrackPaymentStep({
  payment,
  getChainName,
  onSucceeded,
  onFailed,
  onSuccess,
  onFailure,
}: TrackPaymentStepProps) {
  const config = useConfig()
  const queryClient = useQueryClient()
  const { record, outcome, failureDetail, nowMs } = usePaymentTracking(config, payment, true)
  const settledRef = useRef(false)
  useEffect(() => {
    if (outcome === null || settledRef.current) return
    settledRef.current = true
    void queryClient.invalidateQueries({ queryKey: ['wallet-balances'] })
    if (outcome === 'success') {
      onSucceeded(record ?? null)
      onSuccess?.()
      return
    }
    onFailed(failureDetail)
    toast({
      title: 'Transaction failed',
      description: 'This payment did not complete. You can close the modal and try again.',
      variant: 'destructive',
    })
    onFailure?.()
  }, [outcome, record, failureDetail, onSucceeded, onFailed, onSuccess, onFailure, queryClient])

  return (
    <ProcessingStep
      record={record}
      submittedAtMs={payment.submittedAtMs}
      nowMs={nowMs}
      sourceTxHash={payment.txHash}
      getChainName={getChainName}
    />
  )
}
