import type { StepUp } from '@quicklinks/wallet/signer-types'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useId, useMemo, useState } from 'react'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { Skeleton } from '../../ui/skeleton'
import { CodeInput, otpLength } from '../auth/code-input'
import { describeAuthError } from '../auth/describe-auth-error'
import { FieldError } from '../auth/field-error'
import {
  confirmTwoFactorApp,
  startTwoFactorEnrolment,
  type TwoFactorApp,
  type TwoFactorEnrolment,
} from '../auth/wallet-mfa'
import { buildQrCodeSvg } from '../links/share-link-dialog'
import { twoFactorKeys } from './two-factor-queries'

/**
 * 'Add authenticator app': asks the signer for a new secret on open, shows its QR code and the
 * secret as text, and confirms it with the app's first code. Closing before that leaves nothing
 * active (an unconfirmed secret guards nothing and is dropped by the next enrolment).
 */
export function AddAuthenticatorDialog({
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
