import type { PublicInvoice } from '@quicklinks/core/api/invoices'
import { AppError } from '@quicklinks/core/app-error'
import { CircleCheck, Clock, FileX2, Wallet } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link, useParams } from 'react-router'
import { getAddress, isAddress } from 'viem'
import { formatChainName, maskMiddle } from '../../lib/format'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { Skeleton } from '../../ui/skeleton'
import { SendFromAnywhere } from '../deposits/send-from-anywhere'
import { LazyPayModal, payModalIntentHandlers } from '../pay/lazy-pay-modal'
import { type PublicLink, usePublicLink } from '../pay/public-link'
import { describeInvoiceState, formatExpiry } from './describe-invoice-state'
import { usePublicInvoice } from './invoices-api'

/**
 * /pay/:alias_slug/:invoice_id, an invoice's public page (docs/product.md#paying-an-invoice-or-an-amount-link):
 * the amount due, memo, expiry countdown and state, and Pay while something is due. The link names
 * the receiver's chain; an invoice of another link than the path's reads as not found.
 */
export function InvoiceScreen() {
  const { alias_slug: slugParam = '', invoice_id: invoiceId = '' } = useParams()
  const slug = slugParam.toLowerCase()
  const invoiceQuery = usePublicInvoice(invoiceId)
  const linkQuery = usePublicLink(slug)
  const isNotFound =
    (invoiceQuery.error instanceof AppError && invoiceQuery.error.code === 'NOT_FOUND') ||
    (linkQuery.error instanceof AppError && linkQuery.error.code === 'NOT_FOUND') ||
    (invoiceQuery.data !== undefined && invoiceQuery.data.linkSlug.toLowerCase() !== slug)
  return (
    <div className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center sm:py-16">
      {isNotFound ? (
        <InvoiceNotFound />
      ) : invoiceQuery.isError || linkQuery.isError ? (
        <Card className="w-full max-w-md p-8 text-center">
          <h1 className="font-semibold text-xl tracking-tight">We couldn't load this invoice</h1>
          <p role="alert" className="mt-2 text-muted text-sm">
            Check your connection and try again.
          </p>
          <Button
            variant="secondary"
            className="mt-8"
            onClick={() => {
              void invoiceQuery.refetch()
              void linkQuery.refetch()
            }}
          >
            Try again
          </Button>
        </Card>
      ) : invoiceQuery.data === undefined || linkQuery.data === undefined ? (
        <Card className="grid w-full max-w-md gap-4 p-6 sm:p-8" role="status" aria-label="Loading invoice">
          <Skeleton className="h-6 w-40" />
          <Skeleton className="h-10 w-56" />
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-12 w-full" />
        </Card>
      ) : (
        <InvoiceCard invoice={invoiceQuery.data} link={linkQuery.data} />
      )}
    </div>
  )
}

/** Epoch ms, ticking every second (the countdown). */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const interval = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(interval)
  }, [])
  return now
}

function InvoiceCard({ invoice, link }: { invoice: PublicInvoice; link: PublicLink }) {
  const now = useNow()
  const view = describeInvoiceState(invoice, now)
  const [isOpen, setOpen] = useState(false)
  const symbol = invoice.token.symbol
  // Checksummed, as the pay page shows a receiver (the API stores it lower-case).
  const receiver = isAddress(invoice.receiverAddress, { strict: false })
    ? getAddress(invoice.receiverAddress)
    : invoice.receiverAddress
  return (
    <Card className="w-full max-w-md p-6 sm:p-8">
      <p className="text-muted text-sm">Invoice from</p>
      <h1 className="truncate font-semibold text-xl tracking-tight">{invoice.linkAlias}</h1>
      <div className="mt-6">
        <p className="text-muted text-xs">{view.canPay ? 'Amount due' : 'Amount'}</p>
        <p className="mt-1 break-all font-semibold text-3xl tabular-nums">
          {view.canPay ? invoice.amountDue : invoice.amount} {symbol}
        </p>
        <p className="mt-1 text-muted text-sm">on {formatChainName(link.chain)}</p>
      </div>
      {invoice.memo === null || invoice.memo === '' ? null : (
        <p className="mt-5 whitespace-pre-line rounded-control bg-subtle px-4 py-3 text-sm">{invoice.memo}</p>
      )}
      <dl className="mt-6 grid gap-3 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-muted">Status</dt>
          <dd className="font-medium">{view.label}</dd>
        </div>
        {view.canPay ? (
          <div className="flex justify-between gap-4">
            <dt className="text-muted">Time left</dt>
            <dd className="flex items-center gap-1.5 font-medium tabular-nums">
              <Clock aria-hidden="true" className="size-4 text-muted" />
              {formatExpiry(Date.parse(invoice.expiresAt), now)}
            </dd>
          </div>
        ) : null}
        <div className="flex justify-between gap-4">
          <dt className="text-muted">Receiver</dt>
          <dd className="font-mono" title={receiver}>
            {maskMiddle(receiver)}
          </dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-muted">You pay with</dt>
          <dd className="text-right font-medium">Any token, any network</dd>
        </div>
      </dl>
      {view.sentence === null ? null : (
        <p role="status" className="mt-6 flex items-start gap-2 rounded-control bg-subtle px-4 py-3 text-sm">
          {view.canPay ? null : invoice.state.startsWith('paid') ? (
            <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
          ) : (
            <FileX2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted" />
          )}
          {view.sentence}
        </p>
      )}
      {view.canPay ? (
        <>
          <Button size="lg" className="mt-8 w-full" onClick={() => setOpen(true)} {...payModalIntentHandlers}>
            <Wallet aria-hidden="true" />
            Pay {invoice.amountDue} {symbol}
          </Button>
          <SendFromAnywhere slug={invoice.linkSlug} invoiceId={invoice.id} />
          <LazyPayModal
            link={{ ...link, id: invoice.linkId, receiver_address: invoice.receiverAddress }}
            open={isOpen}
            onOpenChange={setOpen}
            fixedAmount={{ text: invoice.amountDue, invoiceId: invoice.id, decimals: invoice.token.decimals }}
          />
        </>
      ) : null}
    </Card>
  )
}

function InvoiceNotFound() {
  return (
    <Card className="flex w-full max-w-md flex-col items-center p-8 text-center">
      <h1 className="font-semibold text-xl tracking-tight">This invoice does not exist</h1>
      <p className="mt-2 text-muted text-sm">
        The address may be mistyped, or its link was removed. Ask the person who sent it for a new invoice.
      </p>
      <Button asChild variant="secondary" className="mt-8">
        <Link to="/">Go to Quick Links</Link>
      </Button>
    </Card>
  )
}
