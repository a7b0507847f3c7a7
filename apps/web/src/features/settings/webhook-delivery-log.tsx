import type { WebhookAttempt, WebhookDelivery } from '@quicklinks/core/api/webhooks'
import { AppError } from '@quicklinks/core/app-error'
import { useInfiniteQuery } from '@tanstack/react-query'
import { ChevronDown, RotateCw } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import { Skeleton } from '../../ui/skeleton'
import { useRedeliverWebhook, webhookDeliveriesQueryOptions } from './webhooks-queries'

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' })

const stateLabels: Record<WebhookDelivery['state'], { label: string; className: string }> = {
  pending: { label: 'Pending', className: 'bg-subtle text-fg' },
  succeeded: { label: 'Delivered', className: 'bg-success-soft text-success' },
  failed: { label: 'Failed', className: 'bg-danger-soft text-danger' },
}

const messageOf = (error: unknown, fallback: string) =>
  error instanceof AppError ? error.userMessage : fallback

function formatTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : timeFormat.format(date)
}

/** What answered a try: its HTTP status, else why none came. */
function describeAnswer(statusCode: number | null, error: string | null): string {
  if (statusCode !== null) return `HTTP ${statusCode}`
  return error === null ? 'Not sent yet' : 'No answer'
}

/**
 * One endpoint's delivery log (docs/product.md#settings-webhooks): newest first, each delivery's
 * time, event, state, last status, latency and tries; 'Details' opens every try with the
 * receiver's answer excerpt and error; 'Redeliver' sends it again with the same webhook-id.
 * Pending deliveries are read again by the query every 2 s until they settle (not while paused).
 */
export function WebhookDeliveryLog({
  endpointId,
  label,
  isEndpointEnabled,
}: {
  endpointId: string
  label: string
  /** False while paused or disabled: pending deliveries wait, and the log is not polled. */
  isEndpointEnabled: boolean
}) {
  const log = useInfiniteQuery(webhookDeliveriesQueryOptions(endpointId, isEndpointEnabled))
  const redeliver = useRedeliverWebhook()
  const [error, setError] = useState<string | null>(null)
  const deliveries = log.data?.pages.flatMap((page) => page.data) ?? []

  const send = async (delivery: WebhookDelivery) => {
    setError(null)
    try {
      await redeliver.mutateAsync({ endpointId, deliveryId: delivery.id })
    } catch (failure) {
      setError(messageOf(failure, 'Could not redeliver. Try again.'))
    }
  }

  return (
    <div className="mt-3 rounded-control border border-border p-3">
      <h3 className="font-medium text-sm">Deliveries</h3>
      {log.isPending ? (
        <Skeleton className="mt-3 h-10 w-full" />
      ) : log.isError ? (
        <p role="alert" className="mt-2 text-danger text-sm">
          {messageOf(log.error, 'Could not load the delivery log. Try again.')}
        </p>
      ) : deliveries.length === 0 ? (
        <p className="mt-2 text-muted text-sm">No deliveries yet. Send a test event to try it.</p>
      ) : (
        <ul className="mt-2 divide-y divide-border" aria-label={label}>
          {deliveries.map((delivery) => (
            <DeliveryItem
              key={delivery.id}
              delivery={delivery}
              isRedelivering={redeliver.isPending && redeliver.variables.deliveryId === delivery.id}
              onRedeliver={() => void send(delivery)}
            />
          ))}
        </ul>
      )}
      {!isEndpointEnabled && deliveries.some((delivery) => delivery.state === 'pending') ? (
        <p className="mt-2 text-muted text-xs">Pending deliveries are sent when you resume the endpoint.</p>
      ) : null}
      {log.hasNextPage ? (
        <Button
          variant="ghost"
          size="compact"
          className="mt-2"
          isBusy={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          Show older
        </Button>
      ) : null}
      {error === null ? null : (
        <p role="alert" className="mt-2 text-danger text-sm">
          {error}
        </p>
      )}
    </div>
  )
}

function DeliveryItem({
  delivery,
  isRedelivering,
  onRedeliver,
}: {
  delivery: WebhookDelivery
  isRedelivering: boolean
  onRedeliver: () => void
}) {
  const detailsId = useId()
  const [isOpen, setIsOpen] = useState(false)
  const state = stateLabels[delivery.state]
  const time = formatTime(delivery.createdAt)
  return (
    <li className="py-2" aria-label={`${delivery.eventType}, ${time}`}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        {/* On a phone the buttons go under the text, which keeps the full width. */}
        <div className="min-w-0 grow basis-full sm:basis-0">
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <code className="break-all font-mono">{delivery.eventType}</code>
            <span className={classNames('rounded-full px-2 py-0.5 font-medium text-xs', state.className)}>
              {state.label}
            </span>
          </p>
          <p className="text-muted text-xs">
            {time} · {describeAnswer(delivery.lastStatusCode, delivery.lastError)}
            {delivery.lastLatencyMs === null ? '' : ` · ${delivery.lastLatencyMs} ms`} ·{' '}
            {delivery.attempts === 1 ? '1 try' : `${delivery.attempts} tries`}
          </p>
        </div>
        <Button
          variant="ghost"
          size="compact"
          aria-expanded={isOpen}
          aria-controls={detailsId}
          onClick={() => setIsOpen((open) => !open)}
        >
          <ChevronDown aria-hidden="true" className={isOpen ? 'rotate-180' : undefined} />
          Details
        </Button>
        <Button variant="secondary" size="compact" isBusy={isRedelivering} onClick={onRedeliver}>
          <RotateCw aria-hidden="true" />
          Redeliver
        </Button>
      </div>
      <div id={detailsId} hidden={!isOpen}>
        {delivery.attemptLog.length === 0 ? (
          <p className="mt-2 text-muted text-xs">No try made yet.</p>
        ) : (
          <ol className="mt-2 grid gap-2" aria-label="Tries">
            {delivery.attemptLog.map((attempt) => (
              <AttemptItem key={attempt.attempt} attempt={attempt} />
            ))}
          </ol>
        )}
        <p className="mt-2 break-all text-muted text-xs">webhook-id {delivery.eventId}</p>
      </div>
    </li>
  )
}

function AttemptItem({ attempt }: { attempt: WebhookAttempt }) {
  return (
    <li className="rounded-control bg-subtle p-2 text-xs">
      <p className="font-medium">
        Try {attempt.attempt} · {formatTime(attempt.at)} · {describeAnswer(attempt.statusCode, attempt.error)}{' '}
        · {attempt.latencyMs} ms
      </p>
      {attempt.error === null ? null : <p className="mt-1 text-danger">{attempt.error}</p>}
      {attempt.responseExcerpt === '' ? null : (
        <pre className="mt-1 max-h-32 overflow-auto whitespace-pre-wrap break-all font-mono">
          {attempt.responseExcerpt}
        </pre>
      )}
    </li>
  )
}
