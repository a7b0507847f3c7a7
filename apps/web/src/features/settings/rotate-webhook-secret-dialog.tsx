import type { WebhookEndpoint } from '@quicklinks/core/api/webhooks'
import { AppError } from '@quicklinks/core/app-error'
import { useState } from 'react'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { WebhookSecretView } from './webhook-secret-view'
import { useRotateWebhookSecret } from './webhooks-queries'

/**
 * 'Rotate secret': a confirmation, then the new signing secret shown once. For 24 h deliveries
 * carry a signature with each secret, so the receiver can switch without losing any.
 */
export function RotateWebhookSecretDialog({
  endpoint,
  onClose,
}: {
  /** The endpoint to rotate; null keeps the dialog closed. */
  endpoint: WebhookEndpoint | null
  onClose: () => void
}) {
  const rotate = useRotateWebhookSecret()
  const [secret, setSecret] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  const close = () => {
    setSecret(null)
    setError(null)
    rotate.reset()
    onClose()
  }

  const confirm = async () => {
    if (endpoint === null) return
    setError(null)
    try {
      setSecret((await rotate.mutateAsync(endpoint.id)).secret)
    } catch (failure) {
      setError(failure instanceof AppError ? failure.userMessage : 'Could not rotate the secret. Try again.')
    }
  }

  return (
    <Dialog
      open={endpoint !== null}
      onOpenChange={(open) => {
        if (!open) close()
      }}
      title={secret === null ? 'Rotate signing secret' : 'Copy your new signing secret'}
      description={
        secret === null
          ? `${endpoint?.url ?? ''} gets a new secret. The old one keeps working for 24 hours, so you can update your server.`
          : 'It will not be shown again. The old secret keeps working for 24 hours.'
      }
    >
      {secret !== null ? (
        <WebhookSecretView secret={secret} onDone={close} />
      ) : (
        <>
          {error === null ? null : (
            <p role="alert" className="mt-4 text-danger text-sm">
              {error}
            </p>
          )}
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button type="button" variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="button" isBusy={rotate.isPending} onClick={() => void confirm()}>
              Rotate secret
            </Button>
          </div>
        </>
      )}
    </Dialog>
  )
}
