import { KeyRound, Mail } from 'lucide-react'
import { type FormEvent, useId, useState } from 'react'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'

/** The auth modal's step statuses (SPEC §2 "Auth UI defaults"). */
export type SignInStatus = 'base' | 'verifying' | 'success' | 'error'

export type SignInCardProps = {
  /** Starts e-mail sign-in. Absent: the e-mail section says it is being set up and is disabled. */
  onEmailSubmit?: (email: string) => void | Promise<void>
  /** Starts passkey sign-in. Absent: the passkey button is disabled with a note. */
  onPasskeySignIn?: () => void | Promise<void>
  status?: SignInStatus
  /** Shown under the sections (SPEC: error shown). */
  error?: string | null
}

/**
 * The sign-in card (SPEC "Auth UI defaults"): no header, sign-in text shown, e-mail first, passkey
 * second, errors shown. It only collects input; the embedded-wallet flow plugs in through the
 * handlers, and without them the card says honestly that sign-in is not available yet.
 */
export function SignInCard({
  onEmailSubmit,
  onPasskeySignIn,
  status = 'base',
  error = null,
}: SignInCardProps) {
  const emailId = useId()
  const emailNoteId = useId()
  const passkeyNoteId = useId()
  const [email, setEmail] = useState('')
  const busy = status === 'verifying'
  const emailReady = onEmailSubmit !== undefined

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (onEmailSubmit === undefined) return
    void onEmailSubmit(email.trim())
  }

  return (
    <Card className="w-full max-w-sm p-6 sm:p-8">
      <h1 className="font-semibold text-2xl tracking-tight">Sign in</h1>
      <p className="mt-2 text-muted text-sm">
        Use your e-mail or a passkey. A wallet is created for you the first time you sign in.
      </p>

      <form className="mt-6" onSubmit={submit} noValidate>
        <label htmlFor={emailId} className="font-medium text-sm">
          Email
        </label>
        <div className="relative mt-2">
          <Mail
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
          />
          <input
            id={emailId}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            disabled={!emailReady || busy}
            aria-describedby={emailReady ? undefined : emailNoteId}
            className={
              'block min-h-11 w-full rounded-control border border-border bg-surface py-2 pr-3 pl-9 text-base ' +
              'placeholder:text-muted disabled:cursor-not-allowed disabled:bg-subtle sm:text-sm'
            }
          />
        </div>
        <Button
          type="submit"
          className="mt-3 w-full"
          disabled={!emailReady || email.trim().length === 0}
          isBusy={busy}
        >
          Continue with email
        </Button>
        {emailReady ? null : (
          <p id={emailNoteId} className="mt-2 text-muted text-xs">
            E-mail sign-in is being set up.
          </p>
        )}
      </form>

      <div className="my-6 flex items-center gap-3 text-muted text-xs" aria-hidden="true">
        <span className="h-px flex-1 bg-border" />
        or
        <span className="h-px flex-1 bg-border" />
      </div>

      <Button
        variant="secondary"
        className="w-full"
        disabled={onPasskeySignIn === undefined || busy}
        aria-describedby={onPasskeySignIn === undefined ? passkeyNoteId : undefined}
        onClick={() => {
          if (onPasskeySignIn !== undefined) void onPasskeySignIn()
        }}
      >
        <KeyRound aria-hidden="true" />
        Sign in with passkey
      </Button>
      {onPasskeySignIn === undefined ? (
        <p id={passkeyNoteId} className="mt-2 text-muted text-xs">
          Passkey sign-in is being set up.
        </p>
      ) : null}

      {error === null || error.length === 0 ? null : (
        <p role="alert" className="mt-6 rounded-control bg-danger-soft px-3 py-2 text-danger text-sm">
          {error}
        </p>
      )}
    </Card>
  )
}
