import { type HTMLAttributes, useCallback, useEffect, useReducer, useRef } from 'react'
import { OfflineNotice, offlineSignInMessage } from '../../ui/offline-notice'
import { type AuthStep, createInitialAuthStep } from './auth-flow-state'
import { useAuthReturnStore } from './auth-return-params'
import type { AuthTitle } from './auth-title'
import { CodeStep } from './code-step'
import { describeAuthError } from './describe-auth-error'
import { describeMagicLinkError } from './describe-magic-link-error'
import { EmailStep } from './email-step'
import { MagicLinkStep } from './magic-link-step'
import { MfaStep } from './mfa-step'
import { PhoneStep } from './phone-step'
import { reduceAuthStep } from './reduce-auth-step'
import { SessionStep } from './session-step'
import { LinkingNotice, SocialSignIn, useSocialSignInReturn } from './social-sign-in'
import { useCompleteSignIn } from './use-complete-sign-in'
import { submitAuthenticatorCode } from './wallet-mfa'
import type { SocialSignInOutcome } from './wallet-oauth'
import { completeMagicLinkSignIn, submitSignInCode } from './wallet-session'

export type AuthPanelProps = {
  /** The heading element; the modal passes its Dialog.Title so the dialog is named by it. */
  Title?: AuthTitle
  /** 'stay': a re-sign-in that keeps the current screen (see useAuthModalStore). */
  purpose?: 'navigate' | 'stay'
  /** Called once the app session is open. */
  onSignedIn?: () => void
}

const DefaultTitle = (props: HTMLAttributes<HTMLHeadingElement>) => <h1 {...props} />

/**
 * The sign-in flow (docs/product.md#sign-in): e-mail first (a code by default, or a magic link),
 * SMS as the phone option under it, passkey second; then the code step, and the
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
    // The SDK learns nothing about signup from a link; the link may say so (`isSignup`).
    const signupFlag = params.isSignup ?? params['is-signup']
    const isSignupLink = signupFlag === 'true' || signupFlag === '1'
    dispatch({ type: 'magicLinkStarted' })
    completeMagicLinkSignIn(bundle, orgId).then(
      ({ isNewUser, mfaRequired }) =>
        mfaRequired ? dispatch({ type: 'mfaRequired' }) : openSession(isNewUser || isSignupLink),
      (error: unknown) => dispatch({ type: 'verifyFailed', message: describeMagicLinkError(error) }),
    )
  }, [hasMagicLink, openSession])

  // Social login (docs/signer.md#social-login): connected, or the e-mail code that links the provider.
  const onSocialOutcome = useCallback(
    (outcome: SocialSignInOutcome) => {
      if (outcome.type === 'connected') {
        dispatch({ type: 'magicLinkStarted' })
        void openSession(outcome.isNewUser)
      } else if (outcome.type === 'linking') {
        dispatch({ type: 'linkingCodeSent', email: outcome.email, sentAt: Date.now() })
      } else if (outcome.type === 'mfa') {
        dispatch({ type: 'mfaRequired' })
      }
    },
    [openSession],
  )
  useSocialSignInReturn({ dispatch, onOutcome: onSocialOutcome })

  const verifyCode = async (code: string) => {
    dispatch({ type: 'verifyStarted' })
    let isNewUser: boolean
    let mfaRequired: boolean
    try {
      ;({ isNewUser, mfaRequired } = await submitSignInCode(code))
    } catch (error) {
      dispatch({
        type: 'verifyFailed',
        message: describeAuthError(error, 'That code did not work. Try again.'),
      })
      return
    }
    if (mfaRequired) {
      dispatch({ type: 'mfaRequired' })
      return
    }
    await openSession(isNewUser)
  }

  const verifyAuthenticatorCode = async (code: string) => {
    dispatch({ type: 'verifyStarted' })
    let isNewUser: boolean
    try {
      ;({ isNewUser } = await submitAuthenticatorCode(code))
    } catch (error) {
      dispatch({
        type: 'verifyFailed',
        message: describeAuthError(error, 'That code did not work. Try again.'),
      })
      return
    }
    await openSession(isNewUser)
  }

  return (
    <>
      {renderStep()}
      {step.type === 'email' ? (
        <SocialSignIn disabled={step.status === 'verifying'} onOutcome={onSocialOutcome} />
      ) : null}
      {/* Sign-in is never queued offline: say so before the user tries. */}
      <OfflineNotice>{offlineSignInMessage}</OfflineNotice>
    </>
  )

  function renderStep() {
    switch (step.type) {
      case 'email':
        return (
          <EmailStep
            step={step}
            dispatch={dispatch}
            Title={Title}
            onPasskeyConnected={(isNewUser) => void openSession(isNewUser)}
          />
        )
      case 'phone':
        return <PhoneStep step={step} dispatch={dispatch} Title={Title} />
      case 'code':
        return (
          <>
            {step.channel === 'email' ? <LinkingNotice /> : null}
            <CodeStep step={step} dispatch={dispatch} Title={Title} onSubmitCode={verifyCode} />
          </>
        )
      case 'magicLink':
        return <MagicLinkStep step={step} dispatch={dispatch} Title={Title} />
      case 'mfa':
        return (
          <MfaStep step={step} dispatch={dispatch} Title={Title} onSubmitCode={verifyAuthenticatorCode} />
        )
      case 'session':
        return (
          <SessionStep
            step={step}
            dispatch={dispatch}
            Title={Title}
            onRetry={() => void openSession(step.isNewUser)}
          />
        )
      default: {
        const unreachable: never = step
        return unreachable
      }
    }
  }
}
