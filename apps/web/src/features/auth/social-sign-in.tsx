import { LogIn } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Button } from '../../ui/button'
import type { AuthDispatch } from './auth-flow-state'
import { useAuthReturnStore } from './auth-return-params'
import { describeAuthError } from './describe-auth-error'
import {
  completeSocialSignIn,
  getPreferredOAuthMode,
  isOAuthReturn,
  listSocialProviders,
  type SocialProvider,
  type SocialSignInOutcome,
  signInWithProvider,
  useLinkingPrompt,
} from './wallet-oauth'

/**
 * 'Continue with {provider}' for each social-login provider the signer offers (none: nothing
 * shown). A popup on a desktop, the provider's own page on a phone. A provider whose e-mail already
 * has an account moves to the e-mail code step, which links it.
 */
export function SocialSignIn({
  disabled = false,
  onOutcome,
}: {
  disabled?: boolean
  onOutcome: (outcome: SocialSignInOutcome) => void
}) {
  const [providers, setProviders] = useState<SocialProvider[]>([])
  const [busyId, setBusyId] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    let isCurrent = true
    listSocialProviders().then(
      (list) => isCurrent && setProviders(list),
      (failure: unknown) => console.error('Could not load the sign-in providers', failure),
    )
    return () => {
      isCurrent = false
    }
  }, [])

  if (providers.length === 0) return null

  const start = async (provider: SocialProvider) => {
    setBusyId(provider.id)
    setError(null)
    try {
      onOutcome(await signInWithProvider(provider.id, getPreferredOAuthMode()))
    } catch (failure) {
      setError(describeAuthError(failure, `Could not sign in with ${provider.name}. Try again.`))
    } finally {
      setBusyId(null)
    }
  }

  return (
    <div className="mt-3 flex flex-col gap-2">
      {providers.map((provider) => (
        <Button
          key={provider.id}
          variant="secondary"
          className="w-full"
          isBusy={busyId === provider.id}
          disabled={disabled || (busyId !== null && busyId !== provider.id)}
          onClick={() => void start(provider)}
        >
          <LogIn aria-hidden="true" />
          Continue with {provider.name}
        </Button>
      ))}
      {error === null ? null : (
        <p role="alert" className="rounded-control bg-danger-soft px-3 py-2 text-danger text-sm">
          {error}
        </p>
      )}
    </div>
  )
}

/** The code step's note while a provider waits to be linked by the e-mail code. */
export function LinkingNotice() {
  const prompt = useLinkingPrompt((state) => state.prompt)
  if (prompt === null) return null
  return (
    <p role="status" className="mb-4 rounded-control bg-accent-soft px-3 py-2 text-sm">
      {prompt.email} already has a wallet. Enter the code we sent there to link your {prompt.providerName}{' '}
      account to it.
    </p>
  )
}

/**
 * A redirect-mode social login coming back (its auth-return parameters, read on load): finishes it
 * once and hands the outcome on, or the error.
 */
export function useSocialSignInReturn(input: {
  dispatch: AuthDispatch
  onOutcome: (outcome: SocialSignInOutcome) => void
}): void {
  const params = useAuthReturnStore((state) => state.params)
  const started = useRef(false)
  const { dispatch, onOutcome } = input
  useEffect(() => {
    if (started.current || !isOAuthReturn(params)) return
    started.current = true
    const captured = useAuthReturnStore.getState().consume()
    dispatch({ type: 'magicLinkStarted' })
    completeSocialSignIn(captured).then(onOutcome, (failure: unknown) =>
      dispatch({
        type: 'verifyFailed',
        message: describeAuthError(failure, 'Could not sign you in. Try again.'),
      }),
    )
  }, [params, dispatch, onOutcome])
}
