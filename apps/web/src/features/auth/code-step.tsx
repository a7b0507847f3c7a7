import { ArrowLeft, MailCheck, Smartphone } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '../../ui/button'
import type { AuthStepProps } from './auth-step-props'
import { CodeInput, otpLength } from './code-input'
import { describeAuthError } from './describe-auth-error'
import { FieldError } from './field-error'
import { formatCountdown, useSecondsLeft } from './use-seconds-left'
import { startEmailSignIn, startSmsSignIn } from './wallet-session'

/** Seconds before 'Resend code' is offered again. The signer allows 3 sends per 3 minutes. */
export const resendDelaySeconds = 30

/**
 * 'Check your email' / 'Check your phone': the 6-digit code (or, for a link mail, the note that the
 * link works too), 'Resend' after 30 s, and the way back to change the contact.
 */
export function CodeStep({
  step,
  dispatch,
  Title,
  onSubmitCode,
}: AuthStepProps<'code'> & { onSubmitCode: (code: string) => Promise<void> }) {
  const codeId = useId()
  const errorId = useId()
  const hintId = useId()
  const [code, setCode] = useState('')
  const [resentNote, setResentNote] = useState<string | null>(null)
  const secondsLeft = useSecondsLeft(step.sentAt + resendDelaySeconds * 1000)
  const verifying = step.status === 'verifying'
  const isLink = step.channel === 'email' && step.mode === 'magicLink'

  const resend = async () => {
    dispatch({ type: 'resendStarted' })
    setResentNote(null)
    try {
      if (step.channel === 'email') await startEmailSignIn(step.sentTo, step.mode)
      else await startSmsSignIn(step.sentTo)
      dispatch({ type: 'resent', sentAt: Date.now() })
      setCode('')
      setResentNote(isLink ? 'We sent a new email.' : 'We sent a new code.')
    } catch (error) {
      dispatch({
        type: 'resendFailed',
        message: describeAuthError(error, 'Could not send a new code. Try again.'),
      })
    }
  }

  const title = step.channel === 'email' ? 'Check your email' : 'Check your phone'
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
        {step.channel === 'email' ? 'Use a different email' : 'Use a different number'}
      </Button>
      <span className="flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent">
        {step.channel === 'email' ? (
          <MailCheck aria-hidden="true" className="size-6" />
        ) : (
          <Smartphone aria-hidden="true" className="size-6" />
        )}
      </span>
      <Title className="mt-4 font-semibold text-2xl tracking-tight">{title}</Title>
      <p id={hintId} className="mt-2 text-muted text-sm">
        {isLink ? (
          <>
            We sent a sign-in link to <strong className="break-all font-medium text-fg">{step.sentTo}</strong>
            . Open it in this browser to sign in, or enter the 6-digit code from the same email.
          </>
        ) : (
          <>
            Enter the 6-digit code we sent to{' '}
            <strong className="break-all font-medium text-fg">{step.sentTo}</strong>. It works for 10 minutes.
          </>
        )}
      </p>

      <form
        className="mt-6"
        onSubmit={(event) => {
          event.preventDefault()
          if (code.length === otpLength && !verifying) void onSubmitCode(code)
        }}
        noValidate
      >
        <label htmlFor={codeId} className="font-medium text-sm">
          Code
        </label>
        <div className="mt-2">
          <CodeInput
            id={codeId}
            value={code}
            onChange={(value) => {
              setCode(value)
              dispatch({ type: 'codeEdited' })
            }}
            onComplete={(value) => {
              if (!verifying) void onSubmitCode(value)
            }}
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

      <div className="mt-4 flex flex-col items-center gap-1">
        <Button
          variant="ghost"
          size="compact"
          onClick={() => void resend()}
          disabled={secondsLeft > 0 || verifying}
          isBusy={step.resendStatus === 'verifying'}
        >
          {isLink ? 'Resend email' : 'Resend code'}
          {secondsLeft > 0 ? (
            <span className="text-muted tabular-nums">({formatCountdown(secondsLeft)})</span>
          ) : null}
        </Button>
        <p aria-live="polite" className="min-h-4 text-muted text-xs">
          {resentNote}
        </p>
      </div>
    </div>
  )
}
