import type { ApiKey } from '@quicklinks/core/api/api-keys'
import { AppError } from '@quicklinks/core/app-error'
import { useQuery } from '@tanstack/react-query'
import { KeySquare, Plus } from 'lucide-react'
import { useState } from 'react'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { ConfirmDeleteDialog } from '../../ui/confirm-delete-dialog'
import { Skeleton } from '../../ui/skeleton'
import { apiKeysQueryOptions, useRevokeApiKey } from './api-keys-queries'
import { CreateApiKeyDialog } from './create-api-key-dialog'
import { SectionMessages } from './section-messages'

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

const messageOf = (error: unknown, fallback: string) =>
  error instanceof AppError ? error.userMessage : fallback

/**
 * Settings' 'API keys' (docs/api.md#api-keys): the user's keys by name, prefix and scopes, when
 * each was made and last used; 'Create API key' (the key shown once) and 'Revoke' (behind the
 * delete confirmation; it stops working at once). Revoked keys stay listed, marked.
 */
export function ApiKeysSection() {
  const keys = useQuery(apiKeysQueryOptions())
  const revoke = useRevokeApiKey()
  const [isCreating, setIsCreating] = useState(false)
  const [revoking, setRevoking] = useState<ApiKey | null>(null)
  const [actionError, setActionError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)

  const confirmRevoke = async (key: ApiKey) => {
    setRevoking(null)
    setActionError(null)
    setNotice(null)
    try {
      await revoke.mutateAsync(key.id)
      setNotice(`API key ${key.name} revoked.`)
    } catch (failure) {
      setActionError(messageOf(failure, 'Could not revoke that API key. Try again.'))
    }
  }

  return (
    <Card className="mt-4 p-6">
      <section aria-labelledby="api-keys-heading">
        <h2 id="api-keys-heading" className="font-semibold">
          API keys
        </h2>
        <p className="mt-1 text-muted text-sm">
          Let your own servers create links and invoices and read payments, without signing in.
        </p>
        {keys.isPending ? (
          <Skeleton className="mt-4 h-10 w-full" />
        ) : keys.data === undefined || keys.data.length === 0 ? (
          keys.isError ? null : (
            <p className="mt-4 text-muted text-sm">No API keys yet.</p>
          )
        ) : (
          <ul className="mt-4 divide-y divide-border" aria-label="API keys">
            {keys.data.map((key) => (
              <li key={key.id} className="flex min-h-14 flex-wrap items-center gap-x-3 gap-y-1 py-2">
                <KeySquare aria-hidden="true" className="size-5 shrink-0 text-muted" />
                <div className="min-w-0 flex-1">
                  <p className="break-all font-medium text-sm">
                    {key.name} <code className="font-mono text-muted text-xs">{key.prefix}…</code>
                    {key.revokedAt === null ? null : (
                      <span className="ml-2 text-danger text-xs">Revoked</span>
                    )}
                  </p>
                  <p className="break-words text-muted text-xs">{key.scopes.join(', ')}</p>
                  <p className="text-muted text-xs">
                    Created {dateFormat.format(new Date(key.createdAt))} ·{' '}
                    {key.lastUsedAt === null
                      ? 'Never used'
                      : `Last used ${dateFormat.format(new Date(key.lastUsedAt))}`}
                  </p>
                </div>
                {key.revokedAt === null ? (
                  <Button
                    variant="secondary"
                    size="compact"
                    isBusy={revoke.isPending && revoke.variables === key.id}
                    onClick={() => setRevoking(key)}
                    aria-label={`Revoke API key ${key.name}`}
                  >
                    Revoke
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        <Button variant="secondary" className="mt-4" onClick={() => setIsCreating(true)}>
          <Plus aria-hidden="true" />
          Create API key
        </Button>
        <SectionMessages
          loadError={keys.isError ? messageOf(keys.error, 'Could not load your API keys. Try again.') : null}
          actionError={actionError}
          notice={notice}
        />
      </section>
      <CreateApiKeyDialog open={isCreating} onOpenChange={setIsCreating} />
      <ConfirmDeleteDialog
        open={revoking !== null}
        onOpenChange={(open) => {
          if (!open) setRevoking(null)
        }}
        title="Revoke API key"
        description={`Servers using “${revoking?.name ?? ''}” are refused from now on. This cannot be undone.`}
        confirmLabel="Revoke"
        onConfirm={() => {
          if (revoking !== null) void confirmRevoke(revoking)
        }}
      />
    </Card>
  )
}
