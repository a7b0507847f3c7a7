import type { PayStatus } from '@quicklinks/core/api/pay-status'
import { AppError } from '@quicklinks/core/app-error'
import { CheckCircle2, CircleDashed, RotateCw, Undo2, XCircle } from 'lucide-react'
import { lazy, Suspense } from 'react'
import { useParams } from 'react-router'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { classNames } from '../../ui/class-names'
import { Skeleton } from '../../ui/skeleton'
import { listPaymentTransactions } from '../pay/success-summary'
import { TxLink } from '../pay/tx-link'
import { getChainName, selectOfferedChains } from '../routing/catalogue'
import { useChains } from '../routing/use-catalogue'
import {
  formatPayAmount,
  formatPayTime,
  getNextStepText,
  getPaySummary,
  payStatusTitles,
} from './pay-status-text'
import { usePayStatus } from './use-pay-status'

/** The refund panel carries wagmi and the wallet connectors: loaded only for a refundable deposit. */
const RefundPanel = lazy(() => import('./refund-panel'))

/**
 * /pay/status/:intentId, the payer's status page (docs/product.md#status-page): the payment's live
 * state (polled until final), what happened, what happens next, both transactions, and for a
 * deposit nobody filled the self-serve refund.
 */
export function PayStatusScreen() {
  const { intentId = '' } = useParams()
  const query = usePayStatus(intentId)
  const chainsQuery = useChains()
  const chains = selectOfferedChains(chainsQuery.data?.items ?? [])
  const chainName = (chainId: number) => getChainName(chains, chainId)

  return (
    <div className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center sm:py-16">
      <Card className="w-full max-w-md p-6 sm:p-8">
        <p className="text-muted text-sm">Payment status</p>
        {query.isPending ? (
          <div className="mt-3 grid gap-3" role="status" aria-label="Loading the payment">
            <Skeleton className="h-8 w-2/3" />
            <Skeleton className="h-5 w-full" />
            <Skeleton className="h-20 w-full" />
          </div>
        ) : query.isError ? (
          <LoadFailed
            error={query.error}
            isRetrying={query.isFetching}
            onRetry={() => void query.refetch()}
          />
        ) : (
          <StatusBody
            status={query.data}
            answeredAtMs={query.dataUpdatedAt}
            getChainName={chainName}
            onRefunded={() => void query.refetch()}
          />
        )}
      </Card>
    </div>
  )
}

function StatusBody({
  status,
  answeredAtMs,
  getChainName,
  onRefunded,
}: {
  status: PayStatus
  answeredAtMs: number
  getChainName: (chainId: number) => string
  onRefunded: () => void
}) {
  const transactions = listPaymentTransactions({
    sourceTxHash: status.sourceTxHash,
    sourceTxUrl: status.sourceTxUrl,
    destTxHash: status.destTxHash,
    destTxUrl: status.destTxUrl,
  })
  if (status.refundTxHash !== null) {
    transactions.push({ label: 'Refund transaction', hash: status.refundTxHash, url: status.refundTxUrl })
  }
  const completedAt = status.completedAt
  return (
    <div className="mt-1 grid gap-5">
      <div aria-live="polite" className="grid gap-2">
        <h1 className="flex items-center gap-2 font-semibold text-2xl tracking-tight">
          <StateIcon state={status.state} />
          {payStatusTitles[status.state]}
        </h1>
        <p className="font-medium">{getPaySummary(status, getChainName)}</p>
        <p className="text-muted text-sm">{getNextStepText(status, getChainName)}</p>
      </div>
      <dl className="grid gap-2 text-sm">
        <Row label="Paid to" value={status.linkName ?? 'A deleted link'} />
        <Row
          label="You sent"
          value={`${formatPayAmount(status.fromAmount, status.fromToken)} on ${getChainName(status.fromChainId)}`}
        />
        <Row
          label={status.toAmountReceived === null ? 'Receiver gets at least' : 'Receiver got'}
          value={`${formatPayAmount(status.toAmountReceived ?? status.toAmountMin, status.toToken)} on ${getChainName(status.toChainId)}`}
        />
        <Row label="Sent" value={formatPayTime(status.submittedAt ?? status.createdAt)} />
        {completedAt === null ? null : <Row label="Finished" value={formatPayTime(completedAt)} />}
      </dl>
      {transactions.length === 0 ? null : (
        <section aria-label="Transactions">
          <dl className="grid gap-1 text-sm">
            {transactions.map((transaction) => (
              <TxLink key={transaction.label} {...transaction} />
            ))}
          </dl>
        </section>
      )}
      {status.state === 'refundable' && status.refund !== null ? (
        <Suspense
          fallback={
            <div role="status" aria-label="Loading the refund">
              <Skeleton className="h-24 w-full" />
            </div>
          }
        >
          <RefundPanel refund={status.refund} answeredAtMs={answeredAtMs} onRefunded={onRefunded} />
        </Suspense>
      ) : null}
    </div>
  )
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="shrink-0 text-muted">{label}</dt>
      <dd className="text-right font-medium">{value}</dd>
    </div>
  )
}

function StateIcon({ state }: { state: PayStatus['state'] }) {
  const className = 'size-6 shrink-0'
  if (state === 'delivered')
    return <CheckCircle2 aria-hidden="true" className={classNames(className, 'text-success')} />
  if (state === 'failed')
    return <XCircle aria-hidden="true" className={classNames(className, 'text-danger')} />
  if (state === 'refunded' || state === 'refundable') {
    return <Undo2 aria-hidden="true" className={classNames(className, 'text-accent')} />
  }
  return (
    <CircleDashed
      aria-hidden="true"
      className={classNames(className, 'animate-spin text-muted [animation-duration:3s]')}
    />
  )
}

function LoadFailed({
  error,
  isRetrying,
  onRetry,
}: {
  error: Error
  isRetrying: boolean
  onRetry: () => void
}) {
  if (error instanceof AppError && error.code === 'NOT_FOUND') {
    return (
      <div className="mt-1 grid gap-2">
        <h1 className="font-semibold text-2xl tracking-tight">Payment not found</h1>
        <p className="text-muted text-sm">
          No payment is known under this address. Check the link you were given; a payment shows here once its
          transaction was sent.
        </p>
      </div>
    )
  }
  return (
    <div className="mt-1 grid gap-3">
      <h1 className="font-semibold text-2xl tracking-tight">Status unavailable</h1>
      <p role="alert" className="text-muted text-sm">
        {error instanceof AppError ? error.userMessage : 'Failed to load the payment status'}
      </p>
      <Button variant="secondary" onClick={onRetry} disabled={isRetrying}>
        <RotateCw aria-hidden="true" className="size-4" />
        Try again
      </Button>
    </div>
  )
}
