import type { RoutingToken } from '@quicklinks/core/api/routing'
import { AppError } from '@quicklinks/core/app-error'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { Link } from '../../../db/schema.ts'
import type { PublicLinkCache } from '../../cache/public-link-cache.ts'
import { getLinkTokenOrThrow } from '../../links/get-link-token-or-throw.ts'
import { getPublicLinkOrThrow } from '../../links/get-public-link-or-throw.ts'
import { readInvoiceDue } from '../../payments/deposits/deposits-repository.ts'
import { assertRoutePaysInvoice } from '../../payments/route/assert-route-pays-invoice.ts'
import type { RoutingProvider } from '../../payments/route/routing-provider.ts'
import { parseTokenAmountOrThrow } from '../../tokens/parse-token-amount.ts'

/** What one x402 resource sells: a link (or one of its invoices) for an amount of the link's token. */
export type X402Resource = {
  link: Link
  invoiceId: string | null
  /** What the receiver gets on the link's chain, in the link's token's smallest unit. */
  amountUnits: bigint
  linkToken: RoutingToken
}

export type ReadX402ResourceContext = {
  db: Database
  publicLinks: PublicLinkCache
  provider: RoutingProvider
  nowMs: number
}

/**
 * The resource behind GET /x402/pay/{slug}[/{invoiceId}] (docs/decisions/0031). The amount is the
 * invoice's remaining due, else the link's own amount, else `?amount=` (as deposits take it).
 * Throws AppError 404 for an unknown or disabled link or an unknown invoice; 422 for an invoice that
 * takes no more payments (paid, refunded, expired, another link's), an open link without
 * `?amount=`, an amount with more decimals than the token, or a token no longer in the catalogue.
 */
export async function readX402ResourceOrThrow(
  context: ReadX402ResourceContext,
  request: { slug: string; invoiceId?: string | undefined; amount?: string | undefined },
): Promise<X402Resource> {
  const { db, provider, nowMs } = context
  const link = await getPublicLinkOrThrow(db, context.publicLinks, request.slug)
  const linkToken = await getLinkTokenOrThrow(provider, link)
  const invoiceId = request.invoiceId ?? null
  if (invoiceId !== null) {
    await assertRoutePaysInvoice(
      db,
      {
        linkId: link.id,
        invoiceId,
        toChain: link.chainId,
        toToken: link.tokenAddress as `0x${string}`,
        toAddress: link.receiverAddress as `0x${string}`,
      },
      nowMs,
    )
    const due = await readInvoiceDue(db, invoiceId)
    if (!due || due.dueUnits <= 0n) {
      throw new AppError('VALIDATION_FAILED', {
        field: 'invoiceId',
        userMessage: 'This invoice is already paid: it takes no more payments.',
      })
    }
    return { link, invoiceId, amountUnits: due.dueUnits, linkToken }
  }
  if (link.amount)
    return { link, invoiceId, amountUnits: parseTokenAmountOrThrow(link.amount, linkToken), linkToken }
  if (request.amount === undefined) {
    throw new AppError('VALIDATION_FAILED', {
      field: 'amount',
      message: `x402 resource of open link ${link.id} asked for without ?amount=`,
      userMessage: `This link has no amount: add ?amount= with a decimal amount of ${linkToken.symbol}, such as ?amount=5.`,
    })
  }
  return { link, invoiceId, amountUnits: parseTokenAmountOrThrow(request.amount, linkToken), linkToken }
}
