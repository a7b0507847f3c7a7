import { ArrowLeft, ShieldCheck } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '../../ui/button'
import type { AuthStepProps } from './auth-step-props'
import { CodeInput, otpLength } from './code-input'
import { FieldError } from './field-error'

/**
 * 'Enter your authenticator code': after a right e-mail or SMS code (or magic link) of an account
 * with an authenticator app, the app's current 6-digit code completes the sign-in. A wrong code
 * keeps the step (the field clears for the next try); 'Start over' goes back to the first step.
 */
export function MfaStep({
  step,
  dispatch,
  Title,
  onSubmitCode,
}: AuthStepProps<'mfa'> & { onSubmitCode: (code: string) => Promise<void> }) {
  const codeId = useId()
  const errorId = useId()
  const hintId = useId()
  const [code, setCode] = useState('')
  const verifying = step.status === 'verifying'

  const submit = (value: string) => {
    if (verifying) return
    void onSubmitCode(value).finally(() => setCode(''))
  }

  return (
    <div>
      <Button
        variant="ghost"
        size="compact"
        className="-ml-3 mb-2"
        onClick={() => dispatch({ type: 'back' })}
        disabled={verifying}
      >
        <ArrowLeft aria-hidden="true" />
        Start over
      </Button>
      <span className="flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent">
        <ShieldCheck aria-hidden="true" className="size-6" />
      </span>
      <Title className="mt-4 font-semibold text-2xl tracking-tight">Enter your authenticator code</Title>
      <p id={hintId} className="mt-2 text-muted text-sm">
        Your account has two-step verification. Open your authenticator app and enter the 6-digit code it
        shows for Quick Links.
      </p>

      <form
        className="mt-6"
        onSubmit={(event) => {
          event.preventDefault()
          if (code.length === otpLength) submit(code)
        }}
        noValidate
      >
        <label htmlFor={codeId} className="font-medium text-sm">
          Authenticator code
        </label>
        <div className="mt-2">
          <CodeInput
            id={codeId}
            value={code}
            onChange={(value) => {
              setCode(value)
              dispatch({ type: 'codeEdited' })
            }}
            onComplete={submit}
            disabled={verifying}
            invalid={step.status === 'error'}
            describedBy={step.error === null ? hintId : `${errorId} ${hintId}`}
            autoFocus
          />
        </div>
        <FieldError id={errorId} message={step.error} />
        <Button type="submit" className="mt-4 w-full" isBusy={verifying} disabled={code.length !== otpLength}>
          {verifying ? 'Verifying…' : 'Verify code'}
        </Button>
      </form>
    </div>
  )
}
