import { Mail, Smartphone } from 'lucide-react'
import { type FormEvent, useId } from 'react'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import type { AuthStepProps } from './auth-step-props'
import { contactInputClasses } from './contact-input-classes'
import { describeAuthError } from './describe-auth-error'
import { EmailModeOption } from './email-mode-option'
import { FieldError } from './field-error'
import { PasskeySignIn } from './passkey-sign-in'
import { checkEmail } from './validate-contact'
import { startEmailSignIn } from './wallet-session'

/**
 * The first step 'Sign in': the e-mail and how the mail signs in (a code or a link), the switch to
 * a phone number, and the passkey buttons (sign in, or create an account, with a passkey). Sends
 * the mail and moves to the code step.
 */
export function EmailStep({
  step,
  dispatch,
  Title,
  onPasskeyConnected,
}: AuthStepProps<'email'> & { onPasskeyConnected: (isNewUser: boolean) => void }) {
  const emailId = useId()
  const errorId = useId()
  const busy = step.status === 'verifying'

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const check = checkEmail(step.email)
    if (!check.ok) {
      dispatch({ type: 'contactInvalid', message: check.message })
      return
    }
    dispatch({ type: 'sendStarted' })
    try {
      await startEmailSignIn(check.value, step.mode)
      dispatch({ type: 'codeSent', sentTo: check.value, sentAt: Date.now() })
    } catch (error) {
      dispatch({
        type: 'sendFailed',
        message: describeAuthError(error, 'Could not send the email. Try again.'),
      })
    }
  }

  return (
    <div>
      <Title className="font-semibold text-2xl tracking-tight">Sign in</Title>
      <p className="mt-2 text-muted text-sm">
        Use your email or phone. A wallet is created for you the first time you sign in.
      </p>

      <div className="mt-6">
        <form onSubmit={(event) => void submit(event)} noValidate>
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
              value={step.email}
              onChange={(event) => dispatch({ type: 'editEmail', email: event.target.value })}
              readOnly={busy}
              aria-invalid={step.error !== null || undefined}
              aria-describedby={step.error === null ? undefined : errorId}
              className={classNames(contactInputClasses, 'border-border')}
            />
          </div>
          <FieldError id={errorId} message={step.error} />

          <fieldset className="mt-4">
            <legend className="font-medium text-sm">Send me</legend>
            <div className="mt-2 grid grid-cols-2 gap-2">
              <EmailModeOption
                mode="otp"
                current={step.mode}
                label="A code"
                onChoose={(mode) => dispatch({ type: 'chooseEmailMode', mode })}
              />
              <EmailModeOption
                mode="magicLink"
                current={step.mode}
                label="A sign-in link"
                onChoose={(mode) => dispatch({ type: 'chooseEmailMode', mode })}
              />
            </div>
          </fieldset>

          <Button type="submit" className="mt-4 w-full" isBusy={busy}>
            Continue with email
          </Button>
        </form>
        <Button
          variant="ghost"
          className="mt-2 w-full"
          onClick={() => dispatch({ type: 'usePhone' })}
          disabled={busy}
        >
          <Smartphone aria-hidden="true" />
          Use a phone number instead
        </Button>
      </div>

      <div className="my-5 flex items-center gap-3 text-muted text-xs" aria-hidden="true">
        <span className="h-px flex-1 bg-border" />
        or
        <span className="h-px flex-1 bg-border" />
      </div>

      <PasskeySignIn email={step.email} disabled={busy} onConnected={onPasskeyConnected} />
    </div>
  )
}
