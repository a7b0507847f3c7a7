import { Mail, Smartphone } from 'lucide-react'
import { type FormEvent, useId } from 'react'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import type { AuthStepProps } from './auth-step-props'
import { contactInputClasses } from './contact-input-classes'
import { describeAuthError } from './describe-auth-error'
import { FieldError } from './field-error'
import { checkPhone } from './validate-contact'
import { startSmsSignIn } from './wallet-session'

/** 'Sign in with phone': the number in E.164, sent a code by SMS; then the code step. */
export function PhoneStep({ step, dispatch, Title }: AuthStepProps<'phone'>) {
  const phoneId = useId()
  const hintId = useId()
  const errorId = useId()
  const busy = step.status === 'verifying'

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const check = checkPhone(step.phone)
    if (!check.ok) {
      dispatch({ type: 'contactInvalid', message: check.message })
      return
    }
    dispatch({ type: 'sendStarted' })
    try {
      await startSmsSignIn(check.value)
      dispatch({ type: 'codeSent', sentTo: check.value, sentAt: Date.now() })
    } catch (error) {
      dispatch({
        type: 'sendFailed',
        message: describeAuthError(error, 'Could not send the text message. Try again.'),
      })
    }
  }

  return (
    <div>
      <Title className="font-semibold text-2xl tracking-tight">Sign in with phone</Title>
      <p className="mt-2 text-muted text-sm">We will text you a 6-digit code.</p>
      <form className="mt-6" onSubmit={(event) => void submit(event)} noValidate>
        <label htmlFor={phoneId} className="font-medium text-sm">
          Phone number
        </label>
        <div className="relative mt-2">
          <Smartphone
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
          />
          <input
            id={phoneId}
            type="tel"
            name="phone"
            autoComplete="tel"
            inputMode="tel"
            placeholder="+1 415 555 0100"
            value={step.phone}
            onChange={(event) => dispatch({ type: 'editPhone', phone: event.target.value })}
            readOnly={busy}
            aria-invalid={step.error !== null || undefined}
            aria-describedby={step.error === null ? hintId : `${errorId} ${hintId}`}
            className={classNames(contactInputClasses, 'border-border')}
          />
        </div>
        <FieldError id={errorId} message={step.error} />
        <p id={hintId} className="mt-2 text-muted text-xs">
          Start with + and your country code, for example +44 for the UK or +1 for the US.
        </p>
        <Button type="submit" className="mt-4 w-full" isBusy={busy}>
          Send code
        </Button>
      </form>
      <Button
        variant="ghost"
        className="mt-2 w-full"
        onClick={() => dispatch({ type: 'useEmail' })}
        disabled={busy}
      >
        <Mail aria-hidden="true" />
        Use email instead
      </Button>
    </div>
  )
}
