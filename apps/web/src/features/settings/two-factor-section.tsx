import type { StepUp } from '@quicklinks/wallet/signer-types'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ShieldCheck } from 'lucide-react'
import { useId, useMemo, useState } from 'react'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { ConfirmDeleteDialog } from '../../ui/confirm-delete-dialog'
import { Dialog } from '../../ui/dialog'
import { Skeleton } from '../../ui/skeleton'
import { toast } from '../../ui/use-toast'
import { useAuthModalStore } from '../auth/auth-modal-store'
import { CodeInput, otpLength } from '../auth/code-input'
import { describeAuthError } from '../auth/describe-auth-error'
import { FieldError } from '../auth/field-error'
import {
  confirmTwoFactorApp,
  listTwoFactorApps,
  removeTwoFactorApp,
  startTwoFactorEnrolment,
  type TwoFactorApp,
  type TwoFactorEnrolment,
} from '../auth/wallet-mfa'
import { useWalletStatus } from '../auth/wallet-session'
import { buildQrCodeSvg } from '../links/share-link-dialog'
import { useStepUp } from './step-up-dialog'

export const twoFactorKeys = {
  all: ['two-factor-apps'] as const,
  list: () => ['two-factor-apps', 'list'] as const,
}

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

/**
 * 'Add authenticator app': asks the signer for a new secret on open, shows its QR code and the
 * secret as text, and confirms it with the app's first code. Closing before that leaves nothing
 * active (an unconfirmed secret guards nothing and is dropped by the next enrolment).
 */
function AddAuthenticatorDialog({
  stepUp,
  onClose,
  onAdded,
}: {
  stepUp: StepUp
  onClose: () => void
  onAdded: (apps: TwoFactorApp[]) => void
}) {
  const enrolment = useQuery({
    queryKey: [...twoFactorKeys.all, 'enrolment'],
    queryFn: () => startTwoFactorEnrolment(stepUp),
    retry: false,
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  })
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose()
      }}
      title="Add authenticator app"
      description="Scan the QR code with an authenticator app (such as Google Authenticator, 1Password or Authy), or enter the key by hand. Then enter the 6-digit code it shows."
    >
      {enrolment.data !== undefined ? (
        <EnrolmentForm enrolment={enrolment.data} onAdded={onAdded} />
      ) : enrolment.error !== null ? (
        <div role="alert" className="mt-5 grid gap-3 text-sm">
          <p className="text-danger">{describeAuthError(enrolment.error, 'Could not start. Try again.')}</p>
          <Button variant="secondary" onClick={() => void enrolment.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <div className="mt-5 grid justify-items-center gap-3" aria-busy="true">
          <Skeleton className="size-44" />
          <Skeleton className="h-4 w-56" />
        </div>
      )}
    </Dialog>
  )
}

function EnrolmentForm({
  enrolment,
  onAdded,
}: {
  enrolment: TwoFactorEnrolment
  onAdded: (apps: TwoFactorApp[]) => void
}) {
  const codeId = useId()
  const errorId = useId()
  const secretId = useId()
  const [code, setCode] = useState('')
  const qrSource = useMemo(
    () => `data:image/svg+xml;utf8,${encodeURIComponent(buildQrCodeSvg(enrolment.multiFactorTotpUrl))}`,
    [enrolment.multiFactorTotpUrl],
  )
  const confirm = useMutation({
    mutationFn: (value: string) => confirmTwoFactorApp(enrolment.multiFactorId, value),
    onSuccess: onAdded,
    onError: () => setCode(''),
  })
  const groupedSecret = enrolment.multiFactorSecret.replace(/(.{4})(?=.)/g, '$1 ')
  const submit = (value: string) => {
    if (!confirm.isPending) confirm.mutate(value)
  }

  return (
    <div className="mt-5 grid gap-5">
      <div className="mx-auto rounded-card border border-border bg-white p-2">
        <img
          src={qrSource}
          alt="QR code to add Quick Links to your authenticator app"
          width={176}
          height={176}
          className="block size-44"
        />
      </div>
      <div>
        <p id={secretId} className="font-medium text-sm">
          Or enter this key
        </p>
        <output
          aria-labelledby={secretId}
          className="mt-1 block break-all rounded-control bg-subtle px-3 py-2 font-mono text-sm tracking-wide"
          data-testid="totp-secret"
        >
          {groupedSecret}
        </output>
      </div>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          if (code.length === otpLength) submit(code)
        }}
        noValidate
      >
        <label htmlFor={codeId} className="font-medium text-sm">
          Code from the app
        </label>
        <div className="mt-2">
          <CodeInput
            id={codeId}
            value={code}
            onChange={(value) => {
              setCode(value)
              if (confirm.isError) confirm.reset()
            }}
            onComplete={submit}
            disabled={confirm.isPending}
            invalid={confirm.isError}
            {...(confirm.isError ? { describedBy: errorId } : {})}
          />
        </div>
        <FieldError
          id={errorId}
          message={
            confirm.isError ? describeAuthError(confirm.error, 'That code did not work. Try again.') : null
          }
        />
        <Button
          type="submit"
          className="mt-4 w-full"
          isBusy={confirm.isPending}
          disabled={code.length !== otpLength}
        >
          {confirm.isPending ? 'Verifying…' : 'Turn on'}
        </Button>
      </form>
    </div>
  )
}
