import {
  createWebhookRequestSchema,
  type WebhookEventType,
  webhookMaxDescriptionLength,
  webhookMaxUrlLength,
} from '@quicklinks/core/api/webhooks'
import { AppError } from '@quicklinks/core/app-error'
import { useId, useState } from 'react'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { FormField } from '../../ui/form-field'
import { getInputClassName } from '../../ui/input-class-name'
import { webhookEventDescriptions, webhookEventGroups } from './webhook-event-labels'
import { WebhookSecretView } from './webhook-secret-view'
import { useCreateWebhook } from './webhooks-queries'

type FieldErrors = { url?: string; description?: string; events?: string; form?: string }

const defaultEvents: WebhookEventType[] = ['payment.succeeded']

/**
 * 'Add endpoint': the URL, an optional description and the events (grouped payments, invoices,
 * links; at least one), checked with the server's own schema; then the signing secret, shown once.
 */
export function CreateWebhookDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const id = useId()
  const create = useCreateWebhook()
  const [url, setUrl] = useState('')
  const [description, setDescription] = useState('')
  const [events, setEvents] = useState<WebhookEventType[]>(defaultEvents)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [secret, setSecret] = useState<string | null>(null)

  const close = (next: boolean) => {
    onOpenChange(next)
    if (!next) {
      setUrl('')
      setDescription('')
      setEvents(defaultEvents)
      setErrors({})
      setSecret(null)
    }
  }

  const submit = async () => {
    const parsed = createWebhookRequestSchema.safeParse({
      url,
      events,
      ...(description.trim() === '' ? {} : { description }),
    })
    if (!parsed.success) {
      const next: FieldErrors = {}
      for (const issue of parsed.error.issues) {
        const field = issue.path[0]
        const key = field === 'events' || field === 'description' ? field : 'url'
        next[key] ??= issue.message
      }
      setErrors(next)
      return
    }
    setErrors({})
    try {
      setSecret((await create.mutateAsync(parsed.data)).secret)
    } catch (failure) {
      const message = failure instanceof AppError ? failure.userMessage : 'Could not add the endpoint.'
      // The server names the field it refused (a private address, http outside dev mode).
      const field = failure instanceof AppError ? failure.field : undefined
      setErrors(field === 'url' || field === 'events' ? { [field]: message } : { form: message })
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={secret === null ? 'Add endpoint' : 'Copy your signing secret'}
      description={
        secret === null
          ? 'We send each event you pick to this URL as a signed POST.'
          : 'It will not be shown again. Your server checks each webhook’s signature with it.'
      }
    >
      {secret !== null ? (
        <WebhookSecretView secret={secret} onDone={() => close(false)} />
      ) : (
        <form
          className="mt-4 grid gap-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            void submit()
          }}
        >
          <FormField
            id={`${id}-url`}
            label="Endpoint URL"
            error={errors.url}
            help="An https URL on your server"
          >
            <input
              id={`${id}-url`}
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder="https://example.com/webhooks"
              className={getInputClassName(errors.url !== undefined)}
              value={url}
              maxLength={webhookMaxUrlLength}
              aria-invalid={errors.url !== undefined}
              aria-describedby={`${id}-url-message`}
              onChange={(event) => setUrl(event.target.value)}
            />
          </FormField>
          <FormField
            id={`${id}-description`}
            label="Description (optional)"
            error={errors.description}
            help="e.g. Shop orders"
          >
            <input
              id={`${id}-description`}
              className={getInputClassName(errors.description !== undefined)}
              value={description}
              maxLength={webhookMaxDescriptionLength}
              aria-invalid={errors.description !== undefined}
              aria-describedby={`${id}-description-message`}
              onChange={(event) => setDescription(event.target.value)}
            />
          </FormField>
          <fieldset aria-describedby={`${id}-events-message`}>
            <legend className="font-medium text-sm">Events</legend>
            {webhookEventGroups.map((group) => (
              <fieldset key={group.label} className="mt-3">
                <legend className="text-muted text-xs uppercase tracking-wide">{group.label}</legend>
                <div className="mt-1 grid gap-2">
                  {group.events.map((type) => (
                    <label key={type} className="flex items-start gap-2 text-sm">
                      <input
                        type="checkbox"
                        className="mt-0.5 size-4"
                        checked={events.includes(type)}
                        onChange={(event) =>
                          setEvents((current) =>
                            event.target.checked
                              ? [...current, type]
                              : current.filter((item) => item !== type),
                          )
                        }
                      />
                      <span>
                        <code className="font-mono">{type}</code>
                        <span className="block text-muted">{webhookEventDescriptions[type]}</span>
                      </span>
                    </label>
                  ))}
                </div>
              </fieldset>
            ))}
            <p id={`${id}-events-message`} className="mt-1 min-h-4 text-danger text-xs">
              {errors.events === undefined ? '' : 'Pick at least one event.'}
            </p>
          </fieldset>
          {errors.form === undefined ? null : (
            <p role="alert" className="text-danger text-sm">
              {errors.form}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" isBusy={create.isPending}>
              Add endpoint
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  )
}
