import type { StepUp } from '@quicklinks/wallet/signer-types'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ShieldCheck } from 'lucide-react'
import { useState } from 'react'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { ConfirmDeleteDialog } from '../../ui/confirm-delete-dialog'
import { Skeleton } from '../../ui/skeleton'
import { toast } from '../../ui/use-toast'
import { useAuthModalStore } from '../auth/auth-modal-store'
import { describeAuthError } from '../auth/describe-auth-error'
import { listTwoFactorApps, removeTwoFactorApp, type TwoFactorApp } from '../auth/wallet-mfa'
import { useWalletStatus } from '../auth/wallet-session'
import { AddAuthenticatorDialog } from './add-authenticator-dialog'
import { useStepUp } from './step-up-dialog'
import { twoFactorKeys } from './two-factor-queries'

/** 'Added 24 Nov 2026' for a factor's ISO creation time. */
function formatAdded(createdAt: string): string {
  const date = new Date(createdAt)
  if (Number.isNaN(date.getTime())) return 'Added earlier'
  return `Added ${date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })}`
}

/**
 * Settings' 'Two-step verification' (docs/signer.md#multi-factor): the account's authenticator
 * apps (TOTP), 'Add authenticator app' (QR code of the otpauth URI, the secret for manual entry,
 * confirmed by a first code) and 'Remove' behind the delete confirmation. With an app, every
 * sign-in by e-mail or SMS code asks for the app's code too.
 */
export function TwoFactorSection() {
  const walletStatus = useWalletStatus()
  const isWalletConnected = walletStatus === 'CONNECTED'
  const queryClient = useQueryClient()
  const openAuthModal = useAuthModalStore((store) => store.open)
  const query = useQuery({
    queryKey: twoFactorKeys.list(),
    queryFn: listTwoFactorApps,
    enabled: isWalletConnected,
    retry: false,
    refetchOnWindowFocus: false,
  })
  // The step-up an enrolment started with (docs/signer.md#step-up); null while none is open.
  const [adding, setAdding] = useState<StepUp | null>(null)
  const [removing, setRemoving] = useState<TwoFactorApp | null>(null)
  const { requestStepUp, stepUpDialog } = useStepUp()
  const remove = useMutation({
    mutationFn: (input: { app: TwoFactorApp; stepUp: StepUp }) =>
      removeTwoFactorApp(input.app.multiFactorId, input.stepUp),
    onSuccess: (apps) => {
      queryClient.setQueryData(twoFactorKeys.list(), apps)
      toast({
        title: 'Authenticator app removed',
        description: 'Sign-in now needs only your email or phone code.',
      })
    },
    onError: (error) => {
      toast({
        title: 'Could not remove the app',
        description: describeAuthError(error, 'Try again.'),
        variant: 'destructive',
      })
    },
  })
  const apps = query.data
  const isPending = walletStatus === 'INITIALIZING' || (isWalletConnected && query.isPending)

  return (
    <Card className="mt-4 p-6">
      <section aria-labelledby="two-factor-heading">
        <h2 id="two-factor-heading" className="font-semibold">
          Two-step verification
        </h2>
        <p className="mt-1 text-muted text-sm">
          With an authenticator app, signing in with an email or phone code or a linked account also asks for
          the app's 6-digit code.
        </p>
        {isWalletConnected || walletStatus === 'INITIALIZING' ? (
          <>
            <ul className="mt-4 divide-y divide-border" aria-busy={isPending || undefined}>
              {isPending ? (
                <li className="py-2">
                  <Skeleton className="h-10 w-full" />
                </li>
              ) : (
                (apps ?? []).map((app) => (
                  <li
                    key={app.multiFactorId}
                    className="flex min-h-14 flex-wrap items-center gap-x-3 gap-y-1 py-2"
                  >
                    <ShieldCheck aria-hidden="true" className="size-5 shrink-0 text-muted" />
                    <div className="min-w-0 flex-1">
                      <p className="font-medium text-sm">Authenticator app</p>
                      <p className="text-muted text-sm">{formatAdded(app.createdAt)}</p>
                    </div>
                    <Button
                      variant="secondary"
                      size="compact"
                      onClick={() => setRemoving(app)}
                      aria-label={`Remove authenticator app (${formatAdded(app.createdAt).toLowerCase()})`}
                    >
                      Remove
                    </Button>
                  </li>
                ))
              )}
            </ul>
            {!isPending && apps !== undefined && apps.length === 0 ? (
              <p className="text-muted text-sm">Not set up. Sign-in needs only your email or phone code.</p>
            ) : null}
            <Button
              variant="secondary"
              className="mt-4"
              disabled={isPending || apps === undefined}
              onClick={() =>
                void requestStepUp('Adding an authenticator app').then((stepUp) => {
                  if (stepUp !== null) setAdding(stepUp)
                })
              }
            >
              Add authenticator app
            </Button>
          </>
        ) : (
          <div className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
            <p className="text-muted">
              Your wallet session has ended. Sign in again to manage two-step verification.
            </p>
            <Button variant="secondary" size="compact" onClick={() => openAuthModal('stay')}>
              Sign in again
            </Button>
          </div>
        )}
        {query.error !== null && isWalletConnected ? (
          <div role="alert" className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
            <p className="text-danger">
              {describeAuthError(query.error, 'Could not load your authenticator apps. Try again.')}
            </p>
            <Button variant="ghost" size="compact" onClick={() => void query.refetch()}>
              Try again
            </Button>
          </div>
        ) : null}
      </section>
      {stepUpDialog}
      {adding !== null ? (
        <AddAuthenticatorDialog
          stepUp={adding}
          onClose={() => setAdding(null)}
          onAdded={(added) => {
            queryClient.setQueryData(twoFactorKeys.list(), added)
            setAdding(null)
            toast({ title: 'Authenticator app added', description: 'Sign-in now asks for its code too.' })
          }}
        />
      ) : null}
      <ConfirmDeleteDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null)
        }}
        title="Remove authenticator app"
        description="Signing in will no longer ask for this app's code. You can add an app again at any time."
        isDeleting={remove.isPending}
        onConfirm={async () => {
          if (removing === null) return
          const app = removing
          setRemoving(null)
          const stepUp = await requestStepUp('Removing an authenticator app')
          if (stepUp !== null) await remove.mutateAsync({ app, stepUp }).catch(() => undefined)
        }}
      />
    </Card>
  )
}
