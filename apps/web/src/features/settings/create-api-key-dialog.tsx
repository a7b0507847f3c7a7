import { type ApiKeyScope, apiKeyScopes, createApiKeyRequestSchema } from '@quicklinks/core/api/api-keys'
import { AppError } from '@quicklinks/core/app-error'
import { Check, Copy } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { FormField } from '../../ui/form-field'
import { getInputClassName } from '../../ui/input-class-name'
import { useCreateApiKey } from './api-keys-queries'

/** What each scope lets a key do, as the form explains it. */
export const scopeDescriptions: Record<ApiKeyScope, string> = {
  'links:read': 'Read your payment links',
  'links:write': 'Create, change and delete payment links',
  'invoices:write': 'Create invoices',
  'payments:read': 'Read payments and invoices',
  'webhooks:write': 'Manage webhook endpoints',
}

/**
 * 'Create API key': a name and the scopes, then the key itself, shown once with a copy button and
 * the warning that it will not be shown again (only its hash is kept).
 */
export function CreateApiKeyDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const id = useId()
  const create = useCreateApiKey()
  const [name, setName] = useState('')
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['payments:read'])
  const [errors, setErrors] = useState<{ name?: string; scopes?: string; form?: string }>({})
  const [made, setMade] = useState<{ key: string; name: string } | null>(null)
  const [isCopied, setIsCopied] = useState(false)

  const close = (next: boolean) => {
    onOpenChange(next)
    if (!next) {
      setName('')
      setScopes(['payments:read'])
      setErrors({})
      setMade(null)
      setIsCopied(false)
    }
  }

  const submit = async () => {
    const parsed = createApiKeyRequestSchema.safeParse({ name, scopes })
    if (!parsed.success) {
      const next: typeof errors = {}
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'scopes' ? 'scopes' : 'name'
        next[field] ??= issue.message
      }
      setErrors(next)
      return
    }
    setErrors({})
    try {
      const created = await create.mutateAsync(parsed.data)
      setMade({ key: created.key, name: created.name })
    } catch (failure) {
      setErrors({ form: failure instanceof AppError ? failure.userMessage : 'Could not create the API key.' })
    }
  }

  const copy = async () => {
    if (made === null) return
    await navigator.clipboard.writeText(made.key)
    setIsCopied(true)
  }

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={made === null ? 'Create API key' : 'Copy your API key'}
      description={
        made === null
          ? 'Your servers send it as “Authorization: Bearer …” to the API routes of its scopes.'
          : 'This is the only time the key is shown. Store it in your server’s secrets now.'
      }
    >
      {made === null ? (
        <form
          className="mt-4 grid gap-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            void submit()
          }}
        >
          <FormField
            id={`${id}-name`}
            label="Name"
            error={errors.name}
            help="What the key is for, e.g. Shop server"
          >
            <input
              id={`${id}-name`}
              className={getInputClassName(errors.name !== undefined)}
              value={name}
              maxLength={64}
              aria-invalid={errors.name !== undefined}
              aria-describedby={`${id}-name-message`}
              onChange={(event) => setName(event.target.value)}
            />
          </FormField>
          <fieldset aria-describedby={`${id}-scopes-message`}>
            <legend className="font-medium text-sm">Scopes</legend>
            <div className="mt-2 grid gap-2">
              {apiKeyScopes.map((scope) => (
                <label key={scope} className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4"
                    checked={scopes.includes(scope)}
                    onChange={(event) =>
                      setScopes((current) =>
                        event.target.checked ? [...current, scope] : current.filter((item) => item !== scope),
                      )
                    }
                  />
                  <span>
                    <code className="font-mono">{scope}</code>
                    <span className="block text-muted">{scopeDescriptions[scope]}</span>
                  </span>
                </label>
              ))}
            </div>
            <p id={`${id}-scopes-message`} className="mt-1 min-h-4 text-danger text-xs">
              {errors.scopes ?? ''}
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
              Create key
            </Button>
          </div>
        </form>
      ) : (
        <div className="mt-4 grid gap-4">
          <label htmlFor={`${id}-key`} className="font-medium text-sm">
            API key “{made.name}”
          </label>
          <input
            id={`${id}-key`}
            readOnly
            className={`${getInputClassName(false)} font-mono`}
            value={made.key}
          />
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => void copy()}>
              {isCopied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
              {isCopied ? 'Copied' : 'Copy key'}
            </Button>
            <Button type="button" onClick={() => close(false)}>
              Done
            </Button>
          </div>
          <p role="status" className="sr-only">
            {isCopied ? 'API key copied' : ''}
          </p>
        </div>
      )}
    </Dialog>
  )
}
