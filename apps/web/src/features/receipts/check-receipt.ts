import { reviveReceiptMessage, type SignedReceipt } from '@quicklinks/core/api/receipts'
import {
  type ReceiptChainCheck,
  type ReceiptChainReader,
  verifyReceiptOnChain,
} from '@quicklinks/core/verify-receipt-on-chain'
import { verifyReceiptSignature } from '@quicklinks/core/verify-receipt-signature'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { createReceiptChainReader, receiptKeys } from './receipts-api'

/** What the page found: a bad signature ends the check; otherwise what the chain said. */
export type ReceiptCheck = { isSignatureValid: false } | { isSignatureValid: true; chain: ReceiptChainCheck }

/**
 * Checks a receipt in the browser: its signature with viem's verifyTypedData (over our own domain
 * and types), then its claims against the chains (verifyReceiptOnChain, the same check as
 * `npm run verify-receipt`). Rejects when a chain cannot be read.
 */
export async function checkReceipt(
  receipt: SignedReceipt,
  getReader: (chainId: number) => ReceiptChainReader | undefined,
): Promise<ReceiptCheck> {
  if (!(await verifyReceiptSignature(receipt))) return { isSignatureValid: false }
  return {
    isSignatureValid: true,
    chain: await verifyReceiptOnChain(reviveReceiptMessage(receipt.message), getReader),
  }
}

export function receiptCheckQueryOptions(intentId: string, receipt: SignedReceipt | undefined) {
  return queryOptions({
    queryKey: receiptKeys.check(intentId, receipt?.signature ?? ''),
    queryFn: () => {
      if (receipt === undefined) throw new Error('No receipt to check')
      const readers = new Map<number, ReturnType<typeof createReceiptChainReader>>()
      return checkReceipt(receipt, (chainId) => {
        const reader = readers.get(chainId) ?? createReceiptChainReader(chainId)
        readers.set(chainId, reader)
        return reader
      })
    },
    enabled: receipt !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  })
}

/** The receipt's check, run once the receipt is loaded. */
export function useReceiptCheck(intentId: string, receipt: SignedReceipt | undefined) {
  return useQuery(receiptCheckQueryOptions(intentId, receipt))
}
