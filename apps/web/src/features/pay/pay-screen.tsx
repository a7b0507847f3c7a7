import { AppError } from '@quicklinks/core/app-error'
import { Link2Off, RotateCw, Wallet } from 'lucide-react'
import { useState } from 'react'
import { Link, useParams } from 'react-router'
import { formatChainName, maskMiddle } from '../../lib/format'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { CopyButton } from '../../ui/copy-button'
import { Skeleton } from '../../ui/skeleton'
import { SendFromAnywhere } from '../deposits/send-from-anywhere'
import { LazyPayModal, payModalIntentHandlers } from './lazy-pay-modal'
import { PayFromCode } from './pay-from-code'
import { type PublicLink, usePublicLink } from './public-link'

/** /pay/:alias_slug, the public pay page: a skeleton while loading, a clear page when unavailable. */
export function PayScreen() {
  const { alias_slug: slugParam = '' } = useParams()
  const slug = slugParam.toLowerCase()
  const query = usePublicLink(slug)

  return (
    <div className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center sm:py-16">
      {query.isPending ? (
        <PayCardSkeleton />
      ) : query.isError ? (
        query.error instanceof AppError && query.error.code === 'NOT_FOUND' ? (
          <LinkUnavailable />
        ) : (
          <LinkLoadFailed onRetry={() => void query.refetch()} isRetrying={query.isFetching} />
        )
      ) : (
        <PayCard link={query.data} />
      )}
    </div>
  )
}

function PayCard({ link }: { link: PublicLink }) {
  const initials = link.alias
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase())
    .join('')
  const token = link.token_name.length > 0 ? link.token_name : 'tokens'
  const [isOpen, setOpen] = useState(false)
  return (
    <Card className="w-full max-w-md p-6 sm:p-8">
      <div className="flex items-center gap-3">
        <span
          aria-hidden="true"
          className="flex size-12 shrink-0 items-center justify-center rounded-full bg-accent-soft font-semibold text-accent"
        >
          {initials}
        </span>
        <div className="min-w-0">
          <p className="text-muted text-sm">Payment to</p>
          <h1 className="truncate font-semibold text-xl tracking-tight">{link.alias}</h1>
        </div>
      </div>
      {link.message === '' ? null : (
        <p className="mt-5 rounded-control bg-subtle px-4 py-3 text-sm">{link.message}</p>
      )}
      <dl className="mt-6 grid gap-3 text-sm">
        {hasAmount(link) ? (
          <div className="flex justify-between gap-4">
            <dt className="shrink-0 text-muted">Amount</dt>
            <dd className="break-all text-right font-semibold tabular-nums">
              {link.amount} {link.token_name}
            </dd>
          </div>
        ) : null}
        <div className="flex justify-between gap-4">
          <dt className="shrink-0 text-muted">Receives</dt>
          <dd className="text-right font-medium">
            {token} on {formatChainName(link.chain)}
          </dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="shrink-0 text-muted">You pay with</dt>
          <dd className="text-right font-medium">Any token, any network</dd>
        </div>
        <div className="flex items-center justify-between gap-4">
          <dt className="shrink-0 text-muted">Receiver</dt>
          <dd className="flex items-center gap-1">
            <span className="font-mono" title={link.receiver_address}>
              {maskMiddle(link.receiver_address)}
            </span>
            <CopyButton text={link.receiver_address} label="Copy receiver address" />
          </dd>
        </div>
      </dl>
      {/*
        The wallet stack loads on intent only: this button's pointer, touch or focus fetches it, the
        press opens it. Any other way to pay shown here (the deposit view: send from any wallet or
        exchange) is its own lazyOnIntent dialog beside it (ui/lazy-on-open.tsx) and imports nothing
        of the wallet stack (docs/decisions/0028-the-pay-page-loads-the-wallet-on-intent.md).
      */}
      <Button size="lg" className="mt-8 w-full" onClick={() => setOpen(true)} {...payModalIntentHandlers}>
        <Wallet aria-hidden="true" />
        Pay
      </Button>
      <SendFromAnywhere slug={link.alias_slug} />
      <PayFromCode link={link} />
      <LazyPayModal
        link={link}
        open={isOpen}
        onOpenChange={setOpen}
        fixedAmount={hasAmount(link) ? { text: link.amount, invoiceId: null } : undefined}
      />
    </Card>
  )
}

/** True when the link asks for a fixed amount (the pay modal then locks it). */
function hasAmount(link: PublicLink): link is PublicLink & { amount: string } {
  return typeof link.amount === 'string' && /[1-9]/.test(link.amount)
}

function PayCardSkeleton() {
  return (
    <Card className="w-full max-w-md p-6 sm:p-8" role="status" aria-label="Loading payment link">
      <div className="flex items-center gap-3">
        <Skeleton className="size-12 rounded-full" />
        <div className="grid gap-2">
          <Skeleton className="h-3.5 w-20" />
          <Skeleton className="h-6 w-40" />
        </div>
      </div>
      <Skeleton className="mt-5 h-11 w-full" />
      <div className="mt-6 grid gap-3">
        <Skeleton className="h-5 w-full" />
        <Skeleton className="h-5 w-full" />
        <Skeleton className="h-5 w-full" />
      </div>
      <Skeleton className="mt-8 h-12 w-full" />
    </Card>
  )
}

function LinkUnavailable() {
  return (
    <Card className="flex w-full max-w-md flex-col items-center p-8 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-subtle text-muted">
        <Link2Off aria-hidden="true" className="size-7" />
      </span>
      <h1 className="mt-6 font-semibold text-xl tracking-tight">This link is unavailable</h1>
      <p className="mt-2 text-muted text-sm">
        It may have been turned off or removed, or the address may be mistyped. Ask the person who shared it
        for a new link.
      </p>
      <Button asChild variant="secondary" className="mt-8">
        <Link to="/">Go to Quick Links</Link>
      </Button>
    </Card>
  )
}

function LinkLoadFailed({ onRetry, isRetrying }: { onRetry: () => void; isRetrying: boolean }) {
  return (
    <Card className="flex w-full max-w-md flex-col items-center p-8 text-center">
      <h1 className="font-semibold text-xl tracking-tight">We couldn't load this link</h1>
      <p role="alert" className="mt-2 text-muted text-sm">
        Check your connection and try again.
      </p>
      <Button variant="secondary" className="mt-8" onClick={onRetry} isBusy={isRetrying}>
        {isRetrying ? null : <RotateCw aria-hidden="true" />}
        Try again
      </Button>
    </Card>
  )
}
