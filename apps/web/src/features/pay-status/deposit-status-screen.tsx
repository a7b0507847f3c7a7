import type { DepositResponse } from '@quicklinks/core/api/deposits'
import { AppError } from '@quicklinks/core/app-error'
import { lazy, Suspense, useState } from 'react'
import { Link, useParams } from 'react-router'
import { maskMiddle } from '../../lib/format'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { Skeleton } from '../../ui/skeleton'
import { useDepositById } from '../deposits/deposits-api'
import { describeTransfer, getDepositTitle, listRefundSenders } from '../deposits/describe-transfer'

/** The refund-address form carries wagmi and the wallet connectors: loaded only when the sender asks for it. */
const RefundAddressPanel = lazy(() => import('./refund-address-panel'))

/**
 * /pay/deposits/:depositId, the payer's status page of a deposit (docs/product.md#deposit-status-page):
 * the address, its expiry, each transfer and what became of it (polled while anything moves), where
 * a refund would go, and for the sender of a transfer not yet refunded the way to name another
 * refund address with a signed message. No wallet code until that button is pressed.
 */
export function DepositStatusScreen() {
  const { depositId = '' } = useParams()
  const query = useDepositById(depositId)
  return (
    <div className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center sm:py-16">
      <Card className="w-full max-w-md p-6 sm:p-8">
        <p className="text-muted text-sm">Deposit status</p>
        {query.isPending ? (
          <div className="mt-3 grid gap-3" role="status" aria-label="Loading the deposit">
            <Skeleton className="h-8 w-2/3" />
            <Skeleton className="h-20 w-full" />
          </div>
        ) : query.isError ? (
          <div className="mt-1 grid gap-3">
            <h1 className="font-semibold text-2xl tracking-tight">
              {query.error instanceof AppError && query.error.code === 'NOT_FOUND'
                ? 'Deposit not found'
                : 'Status unavailable'}
            </h1>
            <p role="alert" className="text-muted text-sm">
              {query.error instanceof AppError ? query.error.userMessage : 'Failed to read the deposit'}
            </p>
            <Button variant="secondary" onClick={() => void query.refetch()} disabled={query.isFetching}>
              Try again
            </Button>
          </div>
        ) : (
          <DepositBody deposit={query.data} onChanged={() => void query.refetch()} />
        )}
      </Card>
    </div>
  )
}

function DepositBody({ deposit, onChanged }: { deposit: DepositResponse; onChanged: () => void }) {
  const [openSender, setOpenSender] = useState<string | null>(null)
  const senders = listRefundSenders(deposit)
  const expiresAt = new Date(deposit.expiresAt).toLocaleString([], {
    dateStyle: 'medium',
    timeStyle: 'short',
  })
  return (
    <div className="mt-1 grid gap-5">
      <div aria-live="polite" className="grid gap-2">
        <h1 className="font-semibold text-2xl tracking-tight">{getDepositTitle(deposit)}</h1>
        <p className="text-muted text-sm">
          {deposit.state === 'open' ? `Takes transfers until ${expiresAt}.` : `Expired ${expiresAt}.`}
          {deposit.amount ? ` Amount: ${deposit.amount} ${deposit.linkToken.symbol}.` : ''}
        </p>
      </div>
      <dl className="grid gap-2 text-sm">
        <div className="grid gap-1">
          <dt className="text-muted">Deposit address</dt>
          <dd className="break-all font-mono" data-testid="deposit-address">
            {deposit.address}
          </dd>
        </div>
        {deposit.refundAddress === null ? null : (
          <div className="grid gap-1">
            <dt className="text-muted">Refunds go to (fixed when the deposit was made)</dt>
            <dd className="break-all font-mono">{deposit.refundAddress}</dd>
          </div>
        )}
      </dl>
      {deposit.transfers.length === 0 ? (
        <p className="text-sm">No transfer has arrived yet. This page updates by itself.</p>
      ) : (
        <ul className="grid gap-2 text-sm" aria-label="Transfers received">
          {deposit.transfers.map((transfer) => (
            <li
              key={`${transfer.chainId}-${transfer.txHash}`}
              className="grid gap-1 rounded-control bg-subtle px-3 py-2"
            >
              <span>{describeTransfer(deposit, transfer)}</span>
              {transfer.intentId && transfer.state === 'routed' ? (
                <Link className="underline" to={`/pay/status/${transfer.intentId}`}>
                  Follow the payment
                </Link>
              ) : null}
              {transfer.refundTo &&
              ['detected', 'failed', 'refunding', 'refunded'].includes(transfer.state) ? (
                <span className="text-muted">
                  {transfer.state === 'refunded' ? 'Refunded to' : 'A refund goes to'}{' '}
                  <span className="font-mono">{maskMiddle(transfer.refundTo)}</span>
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {senders.map(({ sender, chainId, refundTo }) =>
        openSender === sender ? (
          <Suspense
            key={sender}
            fallback={
              <div role="status" aria-label="Loading wallets">
                <Skeleton className="h-24 w-full" />
              </div>
            }
          >
            <RefundAddressPanel
              depositId={deposit.id}
              sender={sender}
              chainId={chainId}
              refundTo={refundTo}
              onChanged={onChanged}
            />
          </Suspense>
        ) : (
          <Button key={sender} variant="secondary" onClick={() => setOpenSender(sender)}>
            Refund {maskMiddle(sender)}'s transfer to another address
          </Button>
        ),
      )}
    </div>
  )
}
