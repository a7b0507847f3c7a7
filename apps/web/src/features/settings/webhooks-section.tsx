import { type WebhookEndpoint, webhookMaxEndpoints } from '@quicklinks/core/api/webhooks'
import { AppError } from '@quicklinks/core/app-error'
import { useQuery } from '@tanstack/react-query'
import { Plus } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { ConfirmDeleteDialog } from '../../ui/confirm-delete-dialog'
import { Skeleton } from '../../ui/skeleton'
import { CreateWebhookDialog } from './create-webhook-dialog'
import { RotateWebhookSecretDialog } from './rotate-webhook-secret-dialog'
import { SectionMessages } from './section-messages'
import { WebhookEndpointItem } from './webhook-endpoint-item'
import { useDeleteWebhook, webhooksQueryOptions } from './webhooks-queries'

const messageOf = (error: unknown, fallback: string) =>
  error instanceof AppError ? error.userMessage : fallback

/**
 * Settings' 'Webhooks' (docs/product.md#settings-webhooks), anchored at /settings#webhooks
 * (where the e-mail about a disabled endpoint points): the user's endpoints with their events and
 * status, 'Add endpoint' (the signing secret shown once), and per endpoint a test event, the
 * delivery log with redelivery, pause/resume, secret rotation and deletion.
 */
export function WebhooksSection() {
  const endpoints = useQuery(webhooksQueryOptions())
  const remove = useDeleteWebhook()
  const [isCreating, setIsCreating] = useState(false)
  const [rotating, setRotating] = useState<WebhookEndpoint | null>(null)
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null)
  const [actionError, setActionError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const isFull = (endpoints.data?.length ?? 0) >= webhookMaxEndpoints
  const isListed = !endpoints.isPending

  // The disable e-mail links to /settings#webhooks; the section renders after the page loads, so
  // the browser's own jump to the fragment finds nothing: scroll once the list has its height.
  useEffect(() => {
    if (isListed && window.location.hash === '#webhooks')
      document.getElementById('webhooks')?.scrollIntoView()
  }, [isListed])

  const report = {
    onNotice: (text: string) => {
      setActionError(null)
      setNotice(text)
    },
    onError: (text: string) => {
      setNotice(null)
      setActionError(text)
    },
  }

  const confirmDelete = async (endpoint: WebhookEndpoint) => {
    setDeleting(null)
    try {
      await remove.mutateAsync(endpoint.id)
      report.onNotice(`Endpoint ${endpoint.url} deleted.`)
    } catch (failure) {
      report.onError(messageOf(failure, 'Could not delete the endpoint. Try again.'))
    }
  }

  return (
    <Card className="mt-4 scroll-mt-4 p-6" id="webhooks">
      <section aria-labelledby="webhooks-heading">
        <h2 id="webhooks-heading" className="font-semibold">
          Webhooks
        </h2>
        <p className="mt-1 text-muted text-sm">
          Tell your server about payments, invoices and links as they happen, with signed requests.
        </p>
        {endpoints.isPending ? (
          <Skeleton className="mt-4 h-10 w-full" />
        ) : endpoints.data === undefined || endpoints.data.length === 0 ? (
          endpoints.isError ? null : (
            <p className="mt-4 text-muted text-sm">No endpoints yet.</p>
          )
        ) : (
          <ul className="mt-2 divide-y divide-border" aria-label="Webhook endpoints">
            {endpoints.data.map((endpoint) => (
              <WebhookEndpointItem
                key={endpoint.id}
                endpoint={endpoint}
                onRotate={() => setRotating(endpoint)}
                onDelete={() => setDeleting(endpoint)}
                {...report}
              />
            ))}
          </ul>
        )}
        <Button variant="secondary" className="mt-4" disabled={isFull} onClick={() => setIsCreating(true)}>
          <Plus aria-hidden="true" />
          Add endpoint
        </Button>
        {isFull ? (
          <p className="mt-2 text-muted text-xs">
            You have {webhookMaxEndpoints} endpoints, the most allowed. Delete one to add another.
          </p>
        ) : null}
        <SectionMessages
          loadError={
            endpoints.isError
              ? messageOf(endpoints.error, 'Could not load your webhook endpoints. Try again.')
              : null
          }
          actionError={actionError}
          notice={notice}
        />
      </section>
      <CreateWebhookDialog open={isCreating} onOpenChange={setIsCreating} />
      <RotateWebhookSecretDialog endpoint={rotating} onClose={() => setRotating(null)} />
      <ConfirmDeleteDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null)
        }}
        title="Delete endpoint"
        description={`Nothing more is sent to ${deleting?.url ?? ''}, and its delivery log goes. This cannot be undone.`}
        onConfirm={() => {
          if (deleting !== null) void confirmDelete(deleting)
        }}
      />
    </Card>
  )
}
