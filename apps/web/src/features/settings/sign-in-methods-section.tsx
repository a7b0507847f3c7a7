import { Mail, Smartphone } from 'lucide-react'
import { useState } from 'react'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { Skeleton } from '../../ui/skeleton'
import { useAuthModalStore } from '../auth/auth-modal-store'
import { describeAuthError } from '../auth/describe-auth-error'
import type { ContactChannel } from '../auth/wallet-session'
import { ContactChangeDialog } from './contact-change-dialog'
import { ContactRemoveDialog } from './contact-remove-dialog'
import { useAuthMethods } from './use-auth-methods'

const rows = [
  { channel: 'email', label: 'Email', noun: 'email', icon: Mail },
  { channel: 'sms', label: 'Phone', noun: 'phone number', icon: Smartphone },
] as const satisfies readonly { channel: ContactChannel; label: string; noun: string; icon: typeof Mail }[]

/**
 * Settings' 'Sign-in methods': the e-mail and phone the account signs in with (from
 * list-auth-methods), each with 'Change', or 'Add' when absent, opening the contact-change dialog,
 * and 'Remove' when the account has another way in.
 */
export function SignInMethodsSection() {
  const { methods, isPending, error, isWalletConnected, refetch } = useAuthMethods()
  const [editing, setEditing] = useState<ContactChannel | null>(null)
  const [removing, setRemoving] = useState<{ channel: ContactChannel; contact: string } | null>(null)
  const openAuthModal = useAuthModalStore((store) => store.open)

  const contactOf = (channel: ContactChannel): string | null =>
    methods === undefined ? null : channel === 'email' ? methods.email : methods.phone
  // Remove is offered only beside another way in; the signer refuses the last one anyway.
  const waysIn =
    methods === undefined
      ? 0
      : (methods.email === null ? 0 : 1) +
        (methods.phone === null ? 0 : 1) +
        methods.passkeys.length +
        methods.oauthProviders.length

  return (
    <Card className="mt-4 p-6">
      <section aria-labelledby="sign-in-methods-heading">
        <h2 id="sign-in-methods-heading" className="font-semibold">
          Sign-in methods
        </h2>
        <p className="mt-1 text-muted text-sm">
          The email address and phone number you can sign in with. A change needs a code sent to the new one.
        </p>
        {isWalletConnected ? (
          <ul className="mt-4 divide-y divide-border" aria-busy={isPending || undefined}>
            {rows.map(({ channel, label, noun, icon: Icon }) => {
              const contact = contactOf(channel)
              return (
                <li key={channel} className="flex min-h-14 flex-wrap items-center gap-x-3 gap-y-1 py-2">
                  <Icon aria-hidden="true" className="size-5 shrink-0 text-muted" />
                  <div className="min-w-0 flex-1">
                    <p className="font-medium text-sm">{label}</p>
                    {isPending ? (
                      <Skeleton className="mt-1 h-4 w-40" />
                    ) : (
                      <p className="break-all text-muted text-sm">{contact ?? 'Not set'}</p>
                    )}
                  </div>
                  <div className="flex gap-2">
                    {contact !== null && waysIn > 1 ? (
                      <Button
                        variant="ghost"
                        size="compact"
                        className="text-danger"
                        onClick={() => setRemoving({ channel, contact })}
                        aria-label={`Remove ${noun}`}
                      >
                        Remove
                      </Button>
                    ) : null}
                    <Button
                      variant="secondary"
                      size="compact"
                      disabled={isPending || methods === undefined}
                      onClick={() => setEditing(channel)}
                      aria-label={contact === null ? `Add ${noun}` : `Change ${noun}`}
                    >
                      {contact === null ? 'Add' : 'Change'}
                    </Button>
                  </div>
                </li>
              )
            })}
          </ul>
        ) : (
          <div className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
            <p className="text-muted">
              Your wallet session has ended. Sign in again to manage how you sign in.
            </p>
            <Button variant="secondary" size="compact" onClick={() => openAuthModal('stay')}>
              Sign in again
            </Button>
          </div>
        )}
        {error !== null && isWalletConnected ? (
          <div role="alert" className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
            <p className="text-danger">
              {describeAuthError(error, 'Could not load your sign-in methods. Try again.')}
            </p>
            <Button variant="ghost" size="compact" onClick={refetch}>
              Try again
            </Button>
          </div>
        ) : null}
      </section>
      {editing === null ? null : (
        <ContactChangeDialog
          open
          onOpenChange={(open) => {
            if (!open) setEditing(null)
          }}
          channel={editing}
          current={contactOf(editing)}
        />
      )}
      {removing === null ? null : (
        <ContactRemoveDialog
          open
          onOpenChange={(open) => {
            if (!open) setRemoving(null)
          }}
          channel={removing.channel}
          contact={removing.contact}
        />
      )}
    </Card>
  )
}
