import { AppError } from '@quicklinks/core/app-error'
import { useQuery } from '@tanstack/react-query'
import { Download, RotateCw } from 'lucide-react'
import { useSearchParams } from 'react-router'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { Skeleton } from '../../ui/skeleton'
import { DashboardTabs } from '../links/dashboard-tabs'
import { linksQueryOptions } from '../links/link-queries'
import { PaymentFiltersBar } from './payment-filters-bar'
import { PaymentItem } from './payment-item'
import { usePayments } from './payment-queries'
import { buildPaymentsExportUrl, type PaymentFilters } from './payments-api'

/** The filters live in the address (?link=…&state=…&from=…&to=…): the per-link view is a link. */
function readFilters(params: URLSearchParams): PaymentFilters {
  const read = (name: string) => params.get(name) || undefined
  return { linkId: read('link'), state: read('state'), from: read('from'), to: read('to') }
}

function writeFilters(filters: PaymentFilters): URLSearchParams {
  const params = new URLSearchParams()
  const entries = [
    ['link', filters.linkId],
    ['state', filters.state],
    ['from', filters.from],
    ['to', filters.to],
  ] as const
  for (const [name, value] of entries) if (value !== undefined) params.set(name, value)
  return params
}

/**
 * /dashboard/payments, the Payments tab (docs/product.md#payments-tab): every verified payment
 * into the payee's links, newest first, with filters, totals per token, 'Load more' and a CSV
 * download of the same filters. With ?link={id} it is that link's payments (opened from its card).
 */
export function PaymentsScreen() {
  const [params, setParams] = useSearchParams()
  const filters = readFilters(params)
  const links = useQuery(linksQueryOptions()).data ?? []
  const query = usePayments(filters)
  const payments = query.data?.pages.flatMap((page) => page.data) ?? []
  const totals = query.data?.pages[0]?.totals ?? []
  const link = links.find((candidate) => candidate.id === filters.linkId)
  const errorMessage =
    query.error === null
      ? null
      : query.error instanceof AppError
        ? query.error.userMessage
        : 'Failed to load payments'

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:py-10">
      <DashboardTabs />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="truncate font-semibold text-2xl tracking-tight">
            {link === undefined ? 'Payments' : `Payments to ${link.alias}`}
          </h1>
          <p className="mt-1 text-muted text-sm">What your links received, newest first.</p>
        </div>
        <Button asChild variant="secondary">
          <a href={buildPaymentsExportUrl(filters)} download>
            <Download aria-hidden="true" />
            Download CSV
          </a>
        </Button>
      </div>
      <PaymentFiltersBar
        filters={filters}
        links={links}
        onChange={(next) => setParams(writeFilters(next), { replace: true })}
      />
      <section aria-label="Totals received" className="mt-2">
        <h2 className="font-medium text-muted text-sm">Received</h2>
        {totals.length === 0 ? (
          <p className="mt-1 text-sm">{query.isPending ? '…' : 'Nothing received yet.'}</p>
        ) : (
          <ul className="mt-1 flex flex-wrap gap-2">
            {totals.map((total) => (
              <li key={`${total.chainId}:${total.token}`}>
                <Card className="px-3 py-2 font-semibold">
                  {total.amount} {total.symbol}
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>
      {errorMessage === null ? null : (
        <p role="alert" className="mt-4 flex items-center gap-3 text-danger text-sm">
          {errorMessage}
          <Button
            variant="ghost"
            size="compact"
            onClick={() => void query.refetch()}
            isBusy={query.isFetching}
          >
            <RotateCw aria-hidden="true" />
            Try again
          </Button>
        </p>
      )}
      {query.isPending ? (
        <ul aria-label="Loading payments" className="mt-6 grid gap-3">
          {[0, 1, 2].map((row) => (
            <li key={row}>
              <Skeleton className="h-24" />
            </li>
          ))}
        </ul>
      ) : payments.length === 0 && errorMessage === null ? (
        <Card className="mt-6 px-6 py-10 text-center text-muted text-sm">
          No payments match these filters.
        </Card>
      ) : (
        <ul aria-label="Payments" className="mt-6 grid gap-3">
          {payments.map((payment) => (
            <li key={payment.intentId}>
              <PaymentItem payment={payment} showLink={filters.linkId === undefined} />
            </li>
          ))}
        </ul>
      )}
      {query.hasNextPage ? (
        <div className="mt-6 flex justify-center">
          <Button
            variant="secondary"
            onClick={() => void query.fetchNextPage()}
            isBusy={query.isFetchingNextPage}
          >
            Load more
          </Button>
        </div>
      ) : null}
    </div>
  )
}
