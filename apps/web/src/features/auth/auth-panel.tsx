import { ArrowLeft, CheckCircle2, KeyRound, Mail, MailCheck, Smartphone, TriangleAlert } from 'lucide-react'
import {
  type ComponentType,
  type FormEvent,
  type HTMLAttributes,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useReducer,
  useRef,
  useState,
} from 'react'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import { Spinner } from '../../ui/spinner'
import { type AuthStep, createInitialAuthStep, type EmailMode, reduceAuthStep } from './auth-flow-state'
import { useAuthReturnStore } from './auth-return-params'
import { CodeInput, otpLength } from './code-input'
import { describeAuthError } from './describe-auth-error'
import { useCompleteSignIn } from './use-complete-sign-in'
import { formatCountdown, useSecondsLeft } from './use-seconds-left'
import { checkEmail, checkPhone } from './validate-contact'
import { completeMagicLinkSignIn, startEmailSignIn, startSmsSignIn, submitSignInCode } from './wallet-session'

/** Seconds before 'Resend code' is offered again. The signer allows 3 sends per 3 minutes. */
export const resendDelaySeconds = 30

export type AuthPanelProps = {
  /** The heading element; the modal passes its Dialog.Title so the dialog is named by it. */
  Title?: ComponentType<HTMLAttributes<HTMLHeadingElement>>
  /** 'stay': a re-sign-in that keeps the current screen (see useAuthModalStore). */
  purpose?: 'navigate' | 'stay'
  /** Called once the app session is open. */
  onSignedIn?: () => void
}

const DefaultTitle = (props: HTMLAttributes<HTMLHeadingElement>) => <h1 {...props} />

/**
 * The sign-in flow (SPEC "Auth UI defaults"): e-mail first (a code by default, or a magic link),
 * SMS as the phone option under it, passkey second (coming later); then the code step, and the
 * app session once the wallet is connected. Every server error is shown beside its field.
 */
export function AuthPanel({ Title = DefaultTitle, purpose = 'navigate', onSignedIn }: AuthPanelProps) {
  const magicLink = useAuthReturnStore((state) => state.params)
  const hasMagicLink = magicLink.bundle !== undefined && magicLink.orgId !== undefined
  const [step, dispatch] = useReducer(
    reduceAuthStep,
    hasMagicLink,
    (withLink): AuthStep =>
      withLink ? { type: 'magicLink', status: 'verifying', error: null } : createInitialAuthStep(),
  )
  const completeSignIn = useCompleteSignIn()

  const openSession = useCallback(
    async (isNewUser: boolean) => {
      dispatch({ type: 'walletConnected', isNewUser })
      try {
        await completeSignIn({ isNewUser, stay: purpose === 'stay' })
        dispatch({ type: 'signedIn' })
        onSignedIn?.()
      } catch (error) {
        dispatch({
          type: 'verifyFailed',
          message: describeAuthError(error, 'Could not sign you in. Try again.'),
        })
      }
    },
    [completeSignIn, purpose, onSignedIn],
  )

  // A magic link: the bundle and orgId captured from the address on load. The ref keeps a
  // StrictMode double effect from opening the bundle twice.
  const magicLinkStarted = useRef(false)
  useEffect(() => {
    if (!hasMagicLink || magicLinkStarted.current) return
    magicLinkStarted.current = true
    const params = useAuthReturnStore.getState().consume()
    const { bundle, orgId } = params
    if (bundle === undefined || orgId === undefined) return
    // The SDK learns nothing about signup from a link; the link may say so (SPEC's is-signup flag).
    const signupFlag = params.isSignup ?? params['is-signup']
    const isSignupLink = signupFlag === 'true' || signupFlag === '1'
    dispatch({ type: 'magicLinkStarted' })
    completeMagicLinkSignIn(bundle, orgId).then(
      ({ isNewUser }) => openSession(isNewUser || isSignupLink),
      (error: unknown) => dispatch({ type: 'verifyFailed', message: describeMagicLinkError(error) }),
    )
  }, [hasMagicLink, openSession])

  const verifyCode = async (code: string) => {
    dispatch({ type: 'verifyStarted' })
    let isNewUser: boolean
    try {
      ;({ isNewUser } = await submitSignInCode(code))
    } catch (error) {
      dispatch({
        type: 'verifyFailed',
        message: describeAuthError(error, 'That code did not work. Try again.'),
      })
      return
    }
    await openSession(isNewUser)
  }

  switch (step.type) {
    case 'email':
      return <EmailStep step={step} dispatch={dispatch} Title={Title} />
    case 'phone':
      return <PhoneStep step={step} dispatch={dispatch} Title={Title} />
    case 'code':
      return <CodeStep step={step} dispatch={dispatch} Title={Title} onSubmitCode={verifyCode} />
    case 'magicLink':
      return (
        <ProgressStep
          Title={Title}
          title={step.status === 'error' ? 'This link did not work' : 'Signing you in…'}
          error={step.error}
          onBack={() => dispatch({ type: 'back' })}
        />
      )
    case 'session':
      return (
        <ProgressStep
          Title={Title}
          title={
            step.status === 'success'
              ? 'Signed in'
              : step.status === 'error'
                ? 'Sign-in failed'
                : 'Signing you in…'
          }
          isDone={step.status === 'success'}
          error={step.error}
          onRetry={() => {
            dispatch({ type: 'sessionRetried' })
            void openSession(step.isNewUser)
          }}
          onBack={() => dispatch({ type: 'back' })}
        />
      )
    default: {
      const unreachable: never = step
      return unreachable
    }
  }
}

/**
 * A link that cannot be opened here was almost always asked for in another browser: only the
 * browser that asked holds the key the link's bundle is encrypted to.
 */
function describeMagicLinkError(error: unknown): string {
  const message = describeAuthError(error, 'This sign-in link no longer works. Request a new one.')
  if (message === 'Failed to inject credential bundle') {
    return 'This sign-in link could not be opened here. Open it in the browser where you asked for it, or request a new one.'
  }
  return message
}

type Dispatch = (action: Parameters<typeof reduceAuthStep>[1]) => void
type TitleProp = { Title: ComponentType<HTMLAttributes<HTMLHeadingElement>> }

const inputClasses =
  'block min-h-11 w-full rounded-control border bg-surface py-2 pr-3 pl-10 text-base ' +
  'placeholder:text-muted disabled:cursor-not-allowed disabled:bg-subtle aria-[invalid=true]:border-danger sm:text-sm'

function EmailStep({
  step,
  dispatch,
  Title,
}: { step: Extract<AuthStep, { type: 'email' }>; dispatch: Dispatch } & TitleProp) {
  const emailId = useId()
  const errorId = useId()
  const passkeyNoteId = useId()
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
              className={classNames(inputClasses, 'border-border')}
            />
          </div>
          <FieldError id={errorId} message={step.error} />

          <fieldset className="mt-4">
            <legend className="font-medium text-sm">Send me</legend>
            <div className="mt-2 grid grid-cols-2 gap-2">
              <ModeOption
                mode="otp"
                current={step.mode}
                label="A code"
                onChoose={(mode) => dispatch({ type: 'chooseEmailMode', mode })}
              />
              <ModeOption
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

      <div>
        <Button variant="secondary" className="w-full" disabled aria-describedby={passkeyNoteId}>
          <KeyRound aria-hidden="true" />
          Sign in with passkey
        </Button>
        <p id={passkeyNoteId} className="mt-2 text-center text-muted text-xs">
          Passkey sign-in is coming soon.
        </p>
      </div>
    </div>
  )
}

function ModeOption({
  mode,
  current,
  label,
  onChoose,
}: {
  mode: EmailMode
  current: EmailMode
  label: string
  onChoose: (mode: EmailMode) => void
}) {
  const checked = mode === current
  return (
    <label
      className={classNames(
        'relative flex min-h-11 cursor-pointer items-center justify-center rounded-control border px-3 text-sm',
        'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring has-[:focus-visible]:outline-offset-2',
        checked
          ? 'border-accent bg-accent-soft font-medium text-fg'
          : 'border-border text-muted hover:bg-subtle',
      )}
    >
      <input
        type="radio"
        name="email-mode"
        value={mode}
        checked={checked}
        onChange={() => onChoose(mode)}
        // Covers the whole option, invisible: a tap anywhere on it lands on the radio itself.
        className="absolute inset-0 size-full cursor-pointer appearance-none rounded-control opacity-0"
      />
      {label}
    </label>
  )
}

function PhoneStep({
  step,
  dispatch,
  Title,
}: { step: Extract<AuthStep, { type: 'phone' }>; dispatch: Dispatch } & TitleProp) {
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
            className={classNames(inputClasses, 'border-border')}
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

function CodeStep({
  step,
  dispatch,
  Title,
  onSubmitCode,
}: {
  step: Extract<AuthStep, { type: 'code' }>
  dispatch: Dispatch
  onSubmitCode: (code: string) => Promise<void>
} & TitleProp) {
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

function ProgressStep({
  Title,
  title,
  error,
  isDone = false,
  onRetry,
  onBack,
}: TitleProp & {
  title: string
  error: string | null
  isDone?: boolean
  onRetry?: () => void
  onBack: () => void
}) {
  let icon: ReactNode
  if (isDone) icon = <CheckCircle2 aria-hidden="true" className="size-6" />
  else if (error === null) icon = <Spinner className="size-6" />
  else icon = <TriangleAlert aria-hidden="true" className="size-6" />
  return (
    <div className="flex flex-col items-center py-4 text-center">
      <span
        className={classNames(
          'flex size-12 items-center justify-center rounded-full',
          error === null ? 'bg-accent-soft text-accent' : 'bg-danger-soft text-danger',
        )}
      >
        {icon}
      </span>
      <Title className="mt-4 font-semibold text-2xl tracking-tight">{title}</Title>
      {error === null ? (
        <p role="status" className="mt-2 text-muted text-sm">
          {isDone ? 'Taking you to your account.' : 'Setting up your secure session.'}
        </p>
      ) : (
        <>
          <p
            role="alert"
            className="mt-3 w-full rounded-control bg-danger-soft px-3 py-2 text-danger text-sm"
          >
            {error}
          </p>
          <div className="mt-6 flex w-full flex-col gap-2">
            {onRetry === undefined ? null : <Button onClick={onRetry}>Try again</Button>}
            <Button variant={onRetry === undefined ? 'primary' : 'secondary'} onClick={onBack}>
              Back to sign in
            </Button>
          </div>
        </>
      )}
    </div>
  )
}

function FieldError({ id, message }: { id: string; message: string | null }) {
  if (message === null) return null
  return (
    <p id={id} role="alert" className="mt-2 text-danger text-sm">
      {message}
    </p>
  )
}
