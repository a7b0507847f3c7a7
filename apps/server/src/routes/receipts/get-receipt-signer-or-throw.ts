import { AppError } from '@quicklinks/core/app-error'
import type { ReceiptSigner } from '../../services/receipts/load-receipt-signer.ts'

/** The receipt key, or AppError SERVICE_UNAVAILABLE (503) saying the operator must set one. */
export function getReceiptSignerOrThrow(signer: ReceiptSigner | null): ReceiptSigner {
  if (signer === null) {
    throw new AppError('SERVICE_UNAVAILABLE', {
      message: 'No RECEIPT_SIGNING_KEY configured',
      userMessage: 'Receipts are not set up on this server yet: its operator must set RECEIPT_SIGNING_KEY.',
    })
  }
  return signer
}
