import { ArrowLeft, MailCheck, ShieldCheck, Smartphone } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '../../ui/button'
import { DialogDescription, DialogTitle } from '../../ui/dialog'
import { CodeInput, otpLength } from '../auth/code-input'
import { resendDelaySeconds } from '../auth/code-step'
import { describeAuthError } from '../auth/describe-auth-error'
import { FieldError } from '../auth/field-error'
import { formatCountdown, useSecondsLeft } from '../auth/use-seconds-left'
import type { ContactChannel } from '../auth/wallet-session'

/**
 * One code step of a contact dialog: the 6-digit code sent to `sentTo`, 'Resend code' after 30 s,
 * and a way back. Shared by the change and the removal dialogs.
 */
export function CodeEntryStep({
  channel,
  title,
  sentTo,
  intro,
  sentAt,
  error,
  isBusy,
  backLabel,
  onBack,
  onEdited,
  onResend,
  onSubmitCode,
  isCurrent = false,
}: {
  channel: ContactChannel
  title: string
  sentTo: string
  intro: string
  sentAt: number
  error: string | null
  isBusy: boolean
  backLabel: string
  onBack: () => void
  onEdited: () => void
  onResend: () => Promise<void>
  onSubmitCode: (code: string) => void
  isCurrent?: boolean
}) {
  const codeId = useId()
  const hintId = useId()
  const errorId = useId()
  const [code, setCode] = useState('')
  const [resend, setResend] = useState<{ isBusy: boolean; note: string | null }>({
    isBusy: false,
    note: null,
  })
  const secondsLeft = useSecondsLeft(sentAt + resendDelaySeconds * 1000)
  const Icon = isCurrent ? ShieldCheck : channel === 'email' ? MailCheck : Smartphone

  const resendCode = async () => {
    setResend({ isBusy: true, note: null })
    try {
      await onResend()
      setCode('')
      setResend({ isBusy: false, note: 'We sent a new code.' })
    } catch (resendError) {
      setResend({
        isBusy: false,
        note: describeAuthError(resendError, 'Could not send a new code. Try again.'),
      })
    }
  }

  return (
    <div>
      <Button variant="ghost" size="compact" className="-ml-3 mb-2" onClick={onBack} disabled={isBusy}>
        <ArrowLeft aria-hidden="true" />
        {backLabel}
      </Button>
      <span className="flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent">
        <Icon aria-hidden="true" className="size-6" />
      </span>
      <DialogTitle className="mt-4 font-semibold text-xl tracking-tight">{title}</DialogTitle>
      <DialogDescription>
        <span id={hintId}>
          {intro} <strong className="break-all font-medium text-fg">{sentTo}</strong>. It works for 10
          minutes.
        </span>
      </DialogDescription>
      <form
        className="mt-6"
        onSubmit={(event) => {
          event.preventDefault()
          if (code.length === otpLength && !isBusy) onSubmitCode(code)
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
              onEdited()
            }}
            onComplete={(value) => {
              if (!isBusy) onSubmitCode(value)
            }}
            disabled={isBusy}
            invalid={error !== null}
            describedBy={error === null ? hintId : `${errorId} ${hintId}`}
            autoFocus
          />
        </div>
        <FieldError id={errorId} message={error} />
        <Button type="submit" className="mt-4 w-full" isBusy={isBusy} disabled={code.length !== otpLength}>
          {isBusy ? 'Verifying…' : 'Verify code'}
        </Button>
      </form>
      <div className="mt-4 flex flex-col items-center gap-1">
        <Button
          variant="ghost"
          size="compact"
          onClick={() => void resendCode()}
          disabled={secondsLeft > 0 || isBusy}
          isBusy={resend.isBusy}
        >
          Resend code
          {secondsLeft > 0 ? (
            <span className="text-muted tabular-nums">({formatCountdown(secondsLeft)})</span>
          ) : null}
        </Button>
        <p aria-live="polite" className="min-h-4 text-muted text-xs">
          {resend.note}
        </p>
      </div>
    </div>
  )
}
