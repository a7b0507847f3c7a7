import { KeyRound } from 'lucide-react'
import { useState } from 'react'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { ConfirmDeleteDialog } from '../../ui/confirm-delete-dialog'
import { Skeleton } from '../../ui/skeleton'
import { describeAuthError } from '../auth/describe-auth-error'
import { addPasskey, describePasskeyError, removePasskey } from '../auth/wallet-passkeys'
import { SectionMessages } from './section-messages'
import { useStepUp } from './step-up-dialog'
import { useAuthMethods, useInvalidateAuthMethods } from './use-auth-methods'

type ListedPasskey = { id: string; name: string | null; createdAt: string }

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

/**
 * Settings' 'Passkeys' (docs/signer.md#passkeys): the account's passkeys (from list-auth-methods)
 * with their name and when they were added, 'Add passkey' (a new passkey on this device), and
 * 'Remove' behind the delete confirmation. The signer refuses to remove the last way to sign in;
 * its message is shown here.
 */
export function PasskeysSection() {
  const { methods, isPending, error, isWalletConnected } = useAuthMethods()
  const invalidate = useInvalidateAuthMethods()
  const [isAdding, setIsAdding] = useState(false)
  const [removing, setRemoving] = useState<ListedPasskey | null>(null)
  const [isRemoving, setIsRemoving] = useState(false)
  const [actionError, setActionError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const passkeys: ListedPasskey[] = methods?.passkeys ?? []
  const { requestStepUp, stepUpDialog } = useStepUp()

  const add = async () => {
    setActionError(null)
    setNotice(null)
    const stepUp = await requestStepUp('Adding a passkey')
    if (stepUp === null) return
    setIsAdding(true)
    try {
      const added = await addPasskey(stepUp)
      await invalidate()
      setNotice(`Passkey ${added.name} added.`)
    } catch (failure) {
      setActionError(
        describePasskeyError(failure) ?? describeAuthError(failure, 'Could not add a passkey. Try again.'),
      )
    } finally {
      setIsAdding(false)
    }
  }

  const remove = async (passkey: ListedPasskey) => {
    setRemoving(null)
    setActionError(null)
    setNotice(null)
    const stepUp = await requestStepUp('Removing a passkey')
    if (stepUp === null) return
    setIsRemoving(true)
    try {
      await removePasskey(passkey.id, stepUp)
      await invalidate()
      setNotice(`Passkey ${nameOf(passkey)} removed.`)
    } catch (failure) {
      setActionError(describeAuthError(failure, 'Could not remove that passkey. Try again.'))
    } finally {
      setIsRemoving(false)
    }
  }

  return (
    <Card className="mt-4 p-6">
      <section aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading" className="font-semibold">
          Passkeys
        </h2>
        <p className="mt-1 text-muted text-sm">
          Sign in with your fingerprint, face or screen lock instead of a code.
        </p>
        {!isWalletConnected ? null : isPending ? (
          <Skeleton className="mt-4 h-10 w-full" />
        ) : (
          <>
            {passkeys.length === 0 ? (
              <p className="mt-4 text-muted text-sm">No passkeys yet.</p>
            ) : (
              <ul className="mt-4 divide-y divide-border" aria-label="Passkeys">
                {passkeys.map((passkey) => (
                  <li key={passkey.id} className="flex min-h-14 flex-wrap items-center gap-x-3 gap-y-1 py-2">
                    <KeyRound aria-hidden="true" className="size-5 shrink-0 text-muted" />
                    <div className="min-w-0 flex-1">
                      <p className="break-all font-medium text-sm">{nameOf(passkey)}</p>
                      <p className="text-muted text-sm">Added {formatDate(passkey.createdAt)}</p>
                    </div>
                    <Button
                      variant="secondary"
                      size="compact"
                      onClick={() => setRemoving(passkey)}
                      aria-label={`Remove passkey ${nameOf(passkey)}`}
                    >
                      Remove
                    </Button>
                  </li>
                ))}
              </ul>
            )}
            <Button variant="secondary" className="mt-4" isBusy={isAdding} onClick={() => void add()}>
              <KeyRound aria-hidden="true" />
              Add passkey
            </Button>
          </>
        )}
        <SectionMessages
          loadError={
            error !== null && isWalletConnected
              ? describeAuthError(error, 'Could not load your passkeys. Try again.')
              : null
          }
          actionError={actionError}
          notice={notice}
        />
      </section>
      {stepUpDialog}
      <ConfirmDeleteDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null)
        }}
        title="Remove passkey"
        description={
          removing === null
            ? ''
            : `You will no longer be able to sign in with passkey ${nameOf(removing)}. The passkey stays on your device until you delete it there.`
        }
        isDeleting={isRemoving}
        onConfirm={() => (removing === null ? undefined : remove(removing))}
      />
    </Card>
  )
}

function nameOf(passkey: ListedPasskey): string {
  return passkey.name ?? 'Passkey'
}

function formatDate(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date)
}
