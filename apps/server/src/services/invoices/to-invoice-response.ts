import type { Invoice as InvoiceResponse, PublicInvoice } from '@quicklinks/core/api/invoices'
import type { Invoice } from '../../db/schema.ts'
import { formatTokenAmount } from '../tokens/parse-token-amount.ts'
import type { InvoiceWithLink } from './invoices-repository.ts'

/** The invoice's public page: /pay/{slug}/{id} on the origin the browser sees (config.publicOrigin). */
export function buildInvoiceUrl(publicOrigin: string, slug: string, id: string): string {
  return `${publicOrigin.replace(/\/+$/, '')}/pay/${encodeURIComponent(slug)}/${id}`
}

function toToken(invoice: Invoice): InvoiceResponse['token'] {
  return {
    chainId: invoice.chainId,
    address: invoice.tokenAddress,
    symbol: invoice.tokenSymbol,
    decimals: invoice.tokenDecimals,
  }
}

/** An invoice as its owner's API answers it (docs/api.md#invoice-object). */
export function toInvoiceResponse({ invoice, link }: InvoiceWithLink, publicOrigin: string): InvoiceResponse {
  return {
    id: invoice.id,
    linkId: invoice.linkId,
    state: invoice.state,
    amount: invoice.amount,
    amountPaid: formatTokenAmount(BigInt(invoice.amountPaidUnits), invoice.tokenDecimals),
    toleranceBps: invoice.toleranceBps,
    token: toToken(invoice),
    receiverAddress: invoice.receiverAddress,
    reference: invoice.reference,
    memo: invoice.memo,
    expiresAt: invoice.expiresAt.toISOString(),
    monitorUntil: invoice.monitorUntil.toISOString(),
    paidAt: invoice.paidAt?.toISOString() ?? null,
    createdAt: invoice.createdAt.toISOString(),
    updatedAt: invoice.updatedAt.toISOString(),
    url: buildInvoiceUrl(publicOrigin, link.aliasSlug, invoice.id),
  }
}

/** What a payer sees (docs/api.md#pay-invoice): no reference, no owner's times; what is left to pay. */
export function toPublicInvoiceResponse(
  { invoice, link }: InvoiceWithLink,
  publicOrigin: string,
): PublicInvoice {
  const due = BigInt(invoice.amountUnits) - BigInt(invoice.amountPaidUnits)
  return {
    id: invoice.id,
    linkId: invoice.linkId,
    linkSlug: link.aliasSlug,
    linkAlias: link.alias,
    state: invoice.state,
    amount: invoice.amount,
    amountPaid: formatTokenAmount(BigInt(invoice.amountPaidUnits), invoice.tokenDecimals),
    amountDue: formatTokenAmount(due > 0n ? due : 0n, invoice.tokenDecimals),
    token: toToken(invoice),
    receiverAddress: invoice.receiverAddress,
    memo: invoice.memo,
    expiresAt: invoice.expiresAt.toISOString(),
    url: buildInvoiceUrl(publicOrigin, link.aliasSlug, invoice.id),
  }
}
