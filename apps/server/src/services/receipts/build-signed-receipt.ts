import {
  type ReceiptMessage,
  receiptDomain,
  receiptPrimaryType,
  receiptTypes,
  type SignedReceipt,
  toReceiptMessageJson,
} from '@quicklinks/core/api/receipts'
import { AppError } from '@quicklinks/core/app-error'
import { getAddress } from 'viem'
import type { RouteIntent } from '../../db/schema.ts'
import type { ReceiptSigner } from './load-receipt-signer.ts'

/** The route intent's columns a receipt is made of. */
export type ReceiptSource = Pick<
  RouteIntent,
  | 'id'
  | 'status'
  | 'finalAt'
  | 'linkId'
  | 'invoiceId'
  | 'toAddress'
  | 'toChainId'
  | 'toToken'
  | 'toAmountWei'
  | 'fromChainId'
  | 'sourceTxHash'
  | 'destTxHash'
  | 'fromAddress'
>

/**
 * The receipt's message for a verified payment: the receiver's verified credit, both hashes, the
 * payer, and `issuedAt` = when the payment became final, so the same payment always gives the same
 * receipt (and, RFC 6979 signatures being deterministic, the same signature). Throws AppError
 * CONFLICT (409) while the payment is not a final success.
 */
export function buildReceiptMessageOrThrow(intent: ReceiptSource): ReceiptMessage {
  if (
    intent.status !== 'success' ||
    intent.finalAt === null ||
    intent.toAmountWei === null ||
    intent.sourceTxHash === null ||
    intent.destTxHash === null
  ) {
    throw new AppError('CONFLICT', {
      message: `Receipt asked for payment ${intent.id}, which is not a final success (${intent.status})`,
      userMessage:
        'This payment is not verified yet: its receipt is issued once the payment is final on chain.',
    })
  }
  return {
    linkId: intent.linkId ?? '',
    invoiceId: intent.invoiceId ?? '',
    receiver: getAddress(intent.toAddress),
    destinationChainId: BigInt(intent.toChainId),
    destinationToken: getAddress(intent.toToken),
    amountReceived: BigInt(intent.toAmountWei),
    sourceChainId: BigInt(intent.fromChainId),
    sourceTxHash: intent.sourceTxHash as `0x${string}`,
    destinationTxHash: intent.destTxHash as `0x${string}`,
    payer: getAddress(intent.fromAddress),
    issuedAt: BigInt(Math.floor(intent.finalAt.getTime() / 1000)),
  }
}

/**
 * Signs the receipt of a verified payment with the instance's key: viem's `verifyTypedData`
 * arguments with the message as JSON carries it. Throws as buildReceiptMessageOrThrow does.
 */
export async function buildSignedReceiptOrThrow(
  intent: ReceiptSource,
  signer: ReceiptSigner,
): Promise<SignedReceipt> {
  const message = buildReceiptMessageOrThrow(intent)
  const signature = await signer.account.signTypedData({
    domain: receiptDomain,
    types: receiptTypes,
    primaryType: receiptPrimaryType,
    message,
  })
  return {
    domain: { ...receiptDomain },
    types: { Receipt: receiptTypes.Receipt.map((field) => ({ ...field })) },
    primaryType: receiptPrimaryType,
    message: toReceiptMessageJson(message),
    signature,
    signer: signer.account.address,
  }
}
