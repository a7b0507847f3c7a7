import { getSignerErrorCode } from '@quicklinks/wallet/wallet-error'
import { ShieldCheck } from 'lucide-react'
import { type FormEvent, useEffect, useId, useState } from 'react'
import { Button } from '../../ui/button'
import { DialogDescription, DialogTitle } from '../../ui/dialog'
import { getInputClassName } from '../../ui/input-class-name'
import { describeAuthError } from '../auth/describe-auth-error'
import { FieldError } from '../auth/field-error'
import { listTwoFactorApps } from '../auth/wallet-mfa'

/**
 * Whether the account has a confirmed authenticator app, so a change of a way in asks its code as
 * well (docs/signer.md#step-up). False until known, and when the list cannot be read (the signer
 * then answers STEP_UP_TOTP_REQUIRED, which the dialogs turn into this step).
 */
export function useHasAuthenticatorApp(): boolean {
  const [hasTotp, setHasTotp] = useState(false)
  useEffect(() => {
    let isCurrent = true
    listTwoFactorApps()
      .then((apps) => {
        if (isCurrent) setHasTotp(apps.length > 0)
      })
      .catch(() => undefined)
    return () => {
      isCurrent = false
    }
  }, [])
  return hasTotp
}

/**
 * When the signer refused a change over the authenticator code (STEP_UP_TOTP_REQUIRED or
 * STEP_UP_TOTP_REFUSED, checked before any contact proof is spent), what the code step shows: the
 * refusal's message for a wrong code, null when the code was missing. Undefined for any other failure.
 */
export function readAuthenticatorRefusal(error: unknown): { message: string | null } | undefined {
  const reason = getSignerErrorCode(error)
  if (reason === 'STEP_UP_TOTP_REQUIRED') return { message: null }
  if (reason === 'STEP_UP_TOTP_REFUSED') return { message: describeAuthError(error) }
  return undefined
}

/** Spaces typed or pasted inside an authenticator code are not part of it. */
export function normalizeAuthenticatorCode(input: string): string {
  return input.replace(/\s/g, '')
}

/**
 * The last step of a contact change or removal on an account with an authenticator app: 'Confirm
 * it’s you' with the app's current code (the contact's code was the re-authentication). The
 * code is asked last because it changes every 30 seconds.
 */
export function AuthenticatorCodeStep({
  error,
  isBusy,
  submitLabel,
  onBack,
  onSubmitCode,
}: {
  error: string | null
  isBusy: boolean
  submitLabel: string
  onBack: () => void
  onSubmitCode: (code: string) => void
}) {
  const [code, setCode] = useState('')
  const [missing, setMissing] = useState(false)
  const fieldId = useId()
  const errorId = useId()
  const shown = missing ? 'Enter the current code from your authenticator app.' : error

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (isBusy) return
    const normalized = normalizeAuthenticatorCode(code)
    if (normalized === '') {
      setMissing(true)
      return
    }
    onSubmitCode(normalized)
  }

  return (
    <div>
      <DialogTitle>Confirm it’s you</DialogTitle>
      <DialogDescription>
        Your account has an authenticator app. Enter its current code to finish.
      </DialogDescription>
      <form className="mt-6" onSubmit={submit} noValidate>
        <label htmlFor={fieldId} className="font-medium text-sm">
          Authenticator code
        </label>
        <input
          id={fieldId}
          name="totp"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => {
            setCode(event.target.value)
            setMissing(false)
          }}
          readOnly={isBusy}
          // biome-ignore lint/a11y/noAutofocus: the step shows to take this one field
          autoFocus
          aria-invalid={shown !== null || undefined}
          aria-describedby={errorId}
          className={`mt-2 ${getInputClassName(shown !== null)}`}
        />
        <FieldError id={errorId} message={shown} />
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onBack}>
            Back
          </Button>
          <Button type="submit" isBusy={isBusy}>
            <ShieldCheck aria-hidden="true" />
            {submitLabel}
          </Button>
        </div>
      </form>
    </div>
  )
}
