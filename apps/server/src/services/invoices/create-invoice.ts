import { randomBytes } from 'node:crypto'
import {
  type CreateInvoiceRequest,
  invoiceDefaultExpiresInSeconds,
  invoiceMonitoringWindowSeconds,
} from '@quicklinks/core/api/invoices'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { getLinkTokenOrThrow } from '../links/get-link-token-or-throw.ts'
import { getOwnedLinkOrThrow } from '../links/get-owned-link-or-throw.ts'
import type { RoutingProvider } from '../payments/route/routing-provider.ts'
import { formatTokenAmount, parseTokenAmountOrThrow } from '../tokens/parse-token-amount.ts'
import { type InvoiceWithLink, insertInvoice } from './invoices-repository.ts'

/** A new invoice id: `inv_` + 22 base64url characters of 128 random bits (its public page's address). */
export function createInvoiceId(): string {
  return `inv_${randomBytes(16).toString('base64url')}`
}

/**
 * Creates an invoice on one of the user's links: the amount (a decimal string) converted to the
 * token's smallest unit with the decimals the routing provider's catalogue gives for the link's
 * token; token, symbol, decimals and receiver copied from the link, so editing the link later never
 * changes what the invoice asks for. Expires after `expiresInSeconds` (default 60 min) and is
 * watched for late payments 24 h beyond. `nowMs` is the creation time (tests backdate invoices
 * with it). Throws AppError NOT_FOUND for an unknown or another user's link, VALIDATION_FAILED
 * naming `amount` when it has more decimals than the token, the provider's SERVICE_UNAVAILABLE.
 */
export async function createInvoice(
  db: Database,
  provider: RoutingProvider,
  input: { userId: string; linkId: string; request: CreateInvoiceRequest; nowMs?: number },
): Promise<InvoiceWithLink> {
  const { request } = input
  const link = await getOwnedLinkOrThrow(db, { userId: input.userId, id: input.linkId })
  const token = await getLinkTokenOrThrow(provider, link)
  const amountUnits = parseTokenAmountOrThrow(request.amount, token)
  const nowMs = input.nowMs ?? Date.now()
  const expiresAtMs = nowMs + (request.expiresInSeconds ?? invoiceDefaultExpiresInSeconds) * 1000
  const invoice = await insertInvoice(db, {
    id: createInvoiceId(),
    linkId: link.id,
    userId: input.userId,
    chainId: link.chainId,
    tokenAddress: link.tokenAddress.toLowerCase(),
    tokenSymbol: token.symbol,
    tokenDecimals: token.decimals,
    receiverAddress: link.receiverAddress.toLowerCase(),
    amount: formatTokenAmount(amountUnits, token.decimals),
    amountUnits: amountUnits.toString(),
    toleranceBps: request.toleranceBps ?? 0,
    reference: emptyToNull(request.reference),
    memo: emptyToNull(request.memo),
    expiresAt: new Date(expiresAtMs),
    monitorUntil: new Date(expiresAtMs + invoiceMonitoringWindowSeconds * 1000),
    createdAt: new Date(nowMs),
    updatedAt: new Date(nowMs),
  })
  return { invoice, link }
}

function emptyToNull(text: string | null | undefined): string | null {
  return text === undefined || text === null || text.trim() === '' ? null : text.trim()
}
