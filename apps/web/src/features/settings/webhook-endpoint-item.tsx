import { type WebhookEndpoint, webhookEventTypes } from '@quicklinks/core/api/webhooks'
import { AppError } from '@quicklinks/core/app-error'
import { List, Pause, Play, RefreshCw, Send, Trash2, Webhook } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '../../ui/button'
import { WebhookDeliveryLog } from './webhook-delivery-log'
import { useSendTestWebhook, useSetWebhookEnabled } from './webhooks-queries'

const messageOf = (error: unknown, fallback: string) =>
  error instanceof AppError ? error.userMessage : fallback

/** How the endpoint stands: receiving, paused by its owner, or stopped by the server (with why). */
function describeStatus(endpoint: WebhookEndpoint): { text: string; className: string } {
  if (endpoint.enabled) return { text: 'Enabled', className: 'text-success' }
  if (endpoint.disabledReason !== null)
    return { text: `Disabled: ${endpoint.disabledReason}`, className: 'text-danger' }
  return { text: 'Paused', className: 'text-muted' }
}

/**
 * One endpoint in Settings → Webhooks: its URL, description, events and status; 'Send test event'
 * (then its log opens), 'Deliveries' (the log), 'Pause'/'Resume', 'Rotate secret' and 'Delete'
 * (the last two confirmed by the section's dialogs). Results are reported through `onNotice` and
 * `onError`, shown under the section.
 */
export function WebhookEndpointItem({
  endpoint,
  onRotate,
  onDelete,
  onNotice,
  onError,
}: {
  endpoint: WebhookEndpoint
  onRotate: () => void
  onDelete: () => void
  onNotice: (notice: string) => void
  onError: (error: string) => void
}) {
  const logId = useId()
  const sendTest = useSendTestWebhook()
  const setEnabled = useSetWebhookEnabled()
  const [isLogOpen, setIsLogOpen] = useState(false)
  const status = describeStatus(endpoint)
  const name = endpoint.description ?? endpoint.url

  const test = async () => {
    try {
      await sendTest.mutateAsync(endpoint.id)
      setIsLogOpen(true)
      onNotice(`Test event sent to ${endpoint.url}.`)
    } catch (failure) {
      onError(messageOf(failure, 'Could not send a test event. Try again.'))
    }
  }

  const toggleEnabled = async () => {
    const enabled = !endpoint.enabled
    try {
      await setEnabled.mutateAsync({ id: endpoint.id, enabled })
      onNotice(enabled ? `${endpoint.url} resumed.` : `${endpoint.url} paused.`)
    } catch (failure) {
      onError(messageOf(failure, 'Could not change the endpoint. Try again.'))
    }
  }

  return (
    <li className="py-3" aria-label={name}>
      <div className="flex items-start gap-3">
        <Webhook aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted" />
        <div className="min-w-0 flex-1">
          <p className="break-all font-medium font-mono text-sm">{endpoint.url}</p>
          {endpoint.description === null ? null : <p className="text-sm">{endpoint.description}</p>}
          <p className="break-words text-muted text-xs">
            {
              // The form's order (payments, invoices, links), whatever order the server keeps.
              webhookEventTypes.filter((type) => endpoint.events.includes(type)).join(', ')
            }
          </p>
          <p className={`text-xs ${status.className}`}>{status.text}</p>
        </div>
      </div>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="compact"
          isBusy={sendTest.isPending}
          // A paused endpoint would hold the test until its resume.
          disabled={!endpoint.enabled}
          onClick={() => void test()}
        >
          <Send aria-hidden="true" />
          Send test event
        </Button>
        <Button
          variant="secondary"
          size="compact"
          aria-expanded={isLogOpen}
          aria-controls={logId}
          onClick={() => setIsLogOpen((open) => !open)}
        >
          <List aria-hidden="true" />
          Deliveries
        </Button>
        <Button
          variant="ghost"
          size="compact"
          isBusy={setEnabled.isPending}
          onClick={() => void toggleEnabled()}
        >
          {endpoint.enabled ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
          {endpoint.enabled ? 'Pause' : 'Resume'}
        </Button>
        <Button variant="ghost" size="compact" onClick={onRotate}>
          <RefreshCw aria-hidden="true" />
          Rotate secret
        </Button>
        <Button variant="ghost" size="compact" onClick={onDelete}>
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>
      <div id={logId}>
        {isLogOpen ? (
          <WebhookDeliveryLog
            endpointId={endpoint.id}
            label={`Deliveries to ${endpoint.url}`}
            isEndpointEnabled={endpoint.enabled}
          />
        ) : null}
      </div>
    </li>
  )
}
