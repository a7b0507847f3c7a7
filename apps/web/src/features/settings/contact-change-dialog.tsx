import { getSignerErrorCode } from '@quicklinks/wallet/wallet-error'
import { ArrowLeft, Mail, MailCheck, ShieldCheck, Smartphone } from 'lucide-react'
import { type FormEvent, useId, useState } from 'react'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import { Dialog, DialogClose, DialogDescription, DialogTitle } from '../../ui/dialog'
import { toast } from '../../ui/use-toast'
import { CodeInput, otpLength } from '../auth/code-input'
import { resendDelaySeconds } from '../auth/code-step'
import { contactInputClasses } from '../auth/contact-input-classes'
import { describeAuthError } from '../auth/describe-auth-error'
import { FieldError } from '../auth/field-error'
import { formatCountdown, useSecondsLeft } from '../auth/use-seconds-left'
import { checkEmail, checkPhone } from '../auth/validate-contact'
import {
  type ContactChannel,
  changeContact,
  sendContactCode,
  verifyContactCode,
} from '../auth/wallet-session'
import { AuthenticatorCodeStep, useHasAuthenticatorApp } from './authenticator-code-step'
import { useAuthMethods, useInvalidateAuthMethods } from './use-auth-methods'

/**
 * Where a contact change stands: the new contact is typed, then its code, then (when the account
 * already has a contact on this channel) the current contact's code; the change is submitted
 * right after the last code checks out.
 */
export type ContactChangeStep =
  | { step: 'contact'; input: string; error: string | null; isBusy: boolean }
  | {
      step: 'newCode'
      contact: string
      otpId: string
      sentAt: number
      error: string | null
      isBusy: boolean
    }
  | {
      step: 'currentCode'
      contact: string
      verificationToken: string
      /** Where the confirming code went: the current contact, or for a first one the account's other contact. */
      confirmer: { channel: ContactChannel; address: string }
      otpId: string
      sentAt: number
      error: string | null
      isBusy: boolean
    }
  | {
      /** Both codes checked out; the account's authenticator app has the last word. */
      step: 'totp'
      contact: string
      verificationToken: string
      previous: string | undefined
      error: string | null
      isBusy: boolean
    }

const channelTexts = {
  email: {
    noun: 'email',
    add: 'Add email',
    change: 'Change email',
    field: 'New email address',
    addField: 'Email address',
    placeholder: 'name@example.com',
    intro: 'We will send a 6-digit code to the new address to check that it is yours.',
    checkTitle: 'Check your email',
    same: 'This is already your sign-in email.',
    useOther: 'Use a different email',
    changed: 'Email changed',
    added: 'Email added',
  },
  sms: {
    noun: 'phone number',
    add: 'Add phone number',
    change: 'Change phone number',
    field: 'New phone number',
    addField: 'Phone number',
    placeholder: '+1 415 555 0100',
    intro: 'We will text a 6-digit code to the new number to check that it is yours.',
    checkTitle: 'Check your phone',
    same: 'This is already your sign-in phone number.',
    useOther: 'Use a different number',
    changed: 'Phone number changed',
    added: 'Phone number added',
  },
} as const satisfies Record<ContactChannel, Record<string, string>>

export type ContactChangeDialogProps = {
  open: boolean
  onOpenChange: (open: boolean) => void
  channel: ContactChannel
  /** The account's contact on this channel now, or null when it has none (then it is an add). */
  current: string | null
}

/**
 * 'Change email' / 'Add phone number' and the like (docs/signer.md#contact-change): a code to the
 * new contact, then one to the current contact when there is one, then the change, which the
 * frames origin builds and stamps. Success closes the dialog with a toast; every refusal (an
 * address of another account, a wrong or locked code) is shown beside the field it concerns.
 */
export function ContactChangeDialog({ open, onOpenChange, channel, current }: ContactChangeDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} size="sm">
      {/* Mounted only while open, so every opening starts from an empty field. */}
      {open ? (
        <ContactChangeBody channel={channel} current={current} onDone={() => onOpenChange(false)} />
      ) : null}
    </Dialog>
  )
}

function ContactChangeBody({
  channel,
  current,
  onDone,
}: {
  channel: ContactChannel
  current: string | null
  onDone: () => void
}) {
  const [state, setState] = useState<ContactChangeStep>({
    step: 'contact',
    input: '',
    error: null,
    isBusy: false,
  })
  const invalidateAuthMethods = useInvalidateAuthMethods()
  const { methods } = useAuthMethods()
  const hasTotp = useHasAuthenticatorApp()
  const texts = channelTexts[channel]
  // Who confirms the change (docs/signer.md#step-up): the current contact on this channel; for a
  // first one, the account's other contact (a new way in is not added on the session alone).
  const otherAddress = channel === 'email' ? (methods?.phone ?? null) : (methods?.email ?? null)
  const confirmer: { channel: ContactChannel; address: string } | null =
    current !== null
      ? { channel, address: current }
      : otherAddress === null
        ? null
        : { channel: channel === 'email' ? 'sms' : 'email', address: otherAddress }

  const submit = async (
    contact: string,
    verificationToken: string,
    previous: string | undefined,
    totpCode?: string,
  ) => {
    const totpStep = { step: 'totp', contact, verificationToken, previous } as const
    if (hasTotp && totpCode === undefined) {
      setState({ ...totpStep, error: null, isBusy: false })
      return
    }
    if (totpCode !== undefined) setState({ ...totpStep, error: null, isBusy: true })
    try {
      await changeContact({
        channel,
        contact,
        verificationToken,
        ...(previous === undefined ? {} : { previousContactVerificationToken: previous }),
        ...(totpCode === undefined ? {} : { totpCode }),
      })
    } catch (error) {
      // The authenticator code is checked before the contacts' proofs are spent: ask it again.
      const reason = getSignerErrorCode(error)
      if (reason === 'STEP_UP_TOTP_REQUIRED' || reason === 'STEP_UP_TOTP_REFUSED') {
        const message = reason === 'STEP_UP_TOTP_REFUSED' ? describeAuthError(error) : null
        setState({ ...totpStep, error: message, isBusy: false })
        return
      }
      // Whatever refused it (an address of another account, a spent proof), the proofs are used
      // up: start again from the contact, with the reason beside it.
      await invalidateAuthMethods()
      setState({
        step: 'contact',
        input: contact,
        error: describeAuthError(error, `Could not change your ${texts.noun}. Try again.`),
        isBusy: false,
      })
      return
    }
    await invalidateAuthMethods()
    toast({
      title: current === null ? texts.added : texts.changed,
      description:
        current === null
          ? `You can now sign in with ${contact}.`
          : `You now sign in with ${contact}. Your other devices were signed out.`,
    })
    onDone()
  }

  const sendToNew = async (input: string) => {
    const check = channel === 'email' ? checkEmail(input) : checkPhone(input)
    if (!check.ok) {
      setState({ step: 'contact', input, error: check.message, isBusy: false })
      return
    }
    if (current !== null && check.value.toLowerCase() === current.toLowerCase()) {
      setState({ step: 'contact', input, error: texts.same, isBusy: false })
      return
    }
    setState({ step: 'contact', input, error: null, isBusy: true })
    try {
      const otpId = await sendContactCode(channel, check.value)
      setState({
        step: 'newCode',
        contact: check.value,
        otpId,
        sentAt: Date.now(),
        error: null,
        isBusy: false,
      })
    } catch (error) {
      setState({
        step: 'contact',
        input,
        error: describeAuthError(error, 'Could not send the code. Try again.'),
        isBusy: false,
      })
    }
  }

  const verifyNew = async (step: Extract<ContactChangeStep, { step: 'newCode' }>, code: string) => {
    setState({ ...step, error: null, isBusy: true })
    let verificationToken: string
    try {
      verificationToken = await verifyContactCode(step.otpId, code)
    } catch (error) {
      setState({
        ...step,
        error: describeAuthError(error, 'Could not check the code. Try again.'),
        isBusy: false,
      })
      return
    }
    if (confirmer === null) {
      await submit(step.contact, verificationToken, undefined)
      return
    }
    try {
      const otpId = await sendContactCode(confirmer.channel, confirmer.address)
      setState({
        step: 'currentCode',
        contact: step.contact,
        verificationToken,
        confirmer,
        otpId,
        sentAt: Date.now(),
        error: null,
        isBusy: false,
      })
    } catch (error) {
      setState({
        ...step,
        error: describeAuthError(error, `Could not send a code to ${confirmer.address}. Try again.`),
        isBusy: false,
      })
    }
  }

  const verifyCurrent = async (step: Extract<ContactChangeStep, { step: 'currentCode' }>, code: string) => {
    setState({ ...step, error: null, isBusy: true })
    let previous: string
    try {
      previous = await verifyContactCode(step.otpId, code)
    } catch (error) {
      setState({
        ...step,
        error: describeAuthError(error, 'Could not check the code. Try again.'),
        isBusy: false,
      })
      return
    }
    await submit(step.contact, step.verificationToken, previous)
  }

  switch (state.step) {
    case 'contact':
      return (
        <ContactStep
          channel={channel}
          current={current}
          state={state}
          onEdit={(input) => setState({ step: 'contact', input, error: null, isBusy: false })}
          onSubmit={(input) => void sendToNew(input)}
        />
      )
    case 'newCode':
      return (
        <CodeEntryStep
          key="new"
          channel={channel}
          title={texts.checkTitle}
          sentTo={state.contact}
          intro="Enter the 6-digit code we sent to"
          sentAt={state.sentAt}
          error={state.error}
          isBusy={state.isBusy}
          backLabel={texts.useOther}
          onBack={() => setState({ step: 'contact', input: state.contact, error: null, isBusy: false })}
          onEdited={() => state.error !== null && setState({ ...state, error: null })}
          onResend={async () => {
            const otpId = await sendContactCode(channel, state.contact)
            setState({ ...state, otpId, sentAt: Date.now(), error: null })
          }}
          onSubmitCode={(code) => void verifyNew(state, code)}
        />
      )
    case 'currentCode':
      return (
        <CodeEntryStep
          key="current"
          channel={state.confirmer.channel}
          title="Confirm it’s you"
          sentTo={state.confirmer.address}
          intro={
            current === null
              ? `To add ${state.contact} as a way to sign in, enter the 6-digit code we sent to`
              : `To move your sign-in to ${state.contact}, enter the 6-digit code we sent to your current ${texts.noun}`
          }
          sentAt={state.sentAt}
          error={state.error}
          isBusy={state.isBusy}
          backLabel={texts.useOther}
          onBack={() => setState({ step: 'contact', input: state.contact, error: null, isBusy: false })}
          onEdited={() => state.error !== null && setState({ ...state, error: null })}
          onResend={async () => {
            const otpId = await sendContactCode(state.confirmer.channel, state.confirmer.address)
            setState({ ...state, otpId, sentAt: Date.now(), error: null })
          }}
          onSubmitCode={(code) => void verifyCurrent(state, code)}
          isCurrent
        />
      )
    case 'totp':
      return (
        <AuthenticatorCodeStep
          error={state.error}
          isBusy={state.isBusy}
          submitLabel={current === null ? texts.add : texts.change}
          onBack={() => setState({ step: 'contact', input: state.contact, error: null, isBusy: false })}
          onSubmitCode={(code) => void submit(state.contact, state.verificationToken, state.previous, code)}
        />
      )
    default: {
      const unreachable: never = state
      return unreachable
    }
  }
}

function ContactStep({
  channel,
  current,
  state,
  onEdit,
  onSubmit,
}: {
  channel: ContactChannel
  current: string | null
  state: Extract<ContactChangeStep, { step: 'contact' }>
  onEdit: (input: string) => void
  onSubmit: (input: string) => void
}) {
  const fieldId = useId()
  const hintId = useId()
  const errorId = useId()
  const texts = channelTexts[channel]
  const Icon = channel === 'email' ? Mail : Smartphone

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!state.isBusy) onSubmit(state.input)
  }

  return (
    <div>
      <DialogTitle>{current === null ? texts.add : texts.change}</DialogTitle>
      <DialogDescription>
        {current === null ? null : (
          <>
            You sign in with <strong className="break-all font-medium text-fg">{current}</strong> now.{' '}
          </>
        )}
        {texts.intro}
      </DialogDescription>
      <form className="mt-6" onSubmit={submit} noValidate>
        <label htmlFor={fieldId} className="font-medium text-sm">
          {current === null ? texts.addField : texts.field}
        </label>
        <div className="relative mt-2">
          <Icon
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
          />
          <input
            id={fieldId}
            type={channel === 'email' ? 'email' : 'tel'}
            name={channel === 'email' ? 'email' : 'phone'}
            autoComplete={channel === 'email' ? 'email' : 'tel'}
            inputMode={channel === 'email' ? 'email' : 'tel'}
            placeholder={texts.placeholder}
            value={state.input}
            onChange={(event) => onEdit(event.target.value)}
            readOnly={state.isBusy}
            // biome-ignore lint/a11y/noAutofocus: the dialog opens to take this one field
            autoFocus
            aria-invalid={state.error !== null || undefined}
            aria-describedby={
              channel === 'sms' ? (state.error === null ? hintId : `${errorId} ${hintId}`) : errorId
            }
            className={classNames(contactInputClasses, 'border-border')}
          />
        </div>
        <FieldError id={errorId} message={state.error} />
        {channel === 'sms' ? (
          <p id={hintId} className="mt-2 text-muted text-xs">
            Start with + and your country code, for example +44 for the UK or +1 for the US.
          </p>
        ) : null}
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <DialogClose>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          <Button type="submit" isBusy={state.isBusy}>
            Send code
          </Button>
        </div>
      </form>
    </div>
  )
}

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
