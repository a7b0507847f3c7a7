import type { LinkedOAuthProvider, OAuthLoginOutcome } from '@quicklinks/wallet/oauth-actions'
import type { StepUp } from '@quicklinks/wallet/signer-types'
import { create } from 'zustand'
import type { AuthReturnParams } from './auth-return-params'
import { loadSignerStore } from './wallet-session'

/**
 * The web app's door to social login (docs/signer.md#social-login): the sign-in buttons, the
 * redirect return and Settings' linked accounts call these, never the SDK.
 */

/** A configured provider as the sign-in buttons show it. */
export type SocialProvider = { id: string; name: string }

/** What a social sign-in came to. */
export type SocialSignInOutcome =
  | { type: 'connected'; isNewUser: boolean }
  /** The provider's e-mail already has an account: its e-mail code links the provider. */
  | { type: 'linking'; email: string; providerName: string }
  /** The account has an authenticator app: its code comes next (docs/signer.md#mfa-required). */
  | { type: 'mfa' }
  /** A linking prompt with a missing field in the return address: nothing to show. */
  | { type: 'none' }

const providerNames: Record<string, string> = {
  google: 'Google',
  apple: 'Apple',
  facebook: 'Facebook',
  twitch: 'Twitch',
  auth0: 'Auth0',
  dev: 'Dev login',
}

/** A provider's display name: the well-known ones by name, others by their id. */
export function getProviderName(id: string): string {
  return providerNames[id] ?? id.charAt(0).toUpperCase() + id.slice(1)
}

/** The pending account-linking prompt, for the code step's note. */
export const useLinkingPrompt = create<{ prompt: { email: string; providerName: string } | null }>()(() => ({
  prompt: null,
}))

/** Popups suit a desktop; a phone (narrow or touch-first screen) leaves the page instead. */
export function getPreferredOAuthMode(): 'popup' | 'redirect' {
  if (typeof window.matchMedia !== 'function') return 'popup'
  return window.matchMedia('(max-width: 640px), (pointer: coarse)').matches ? 'redirect' : 'popup'
}

/** The social-login providers the signer offers (signer-config); none when it offers none. */
export async function listSocialProviders(): Promise<SocialProvider[]> {
  const store = await loadSignerStore()
  const config = await store.client.getSignerConfig()
  return (config.authProviders ?? []).map((provider) => ({
    id: provider.id,
    name: getProviderName(provider.id),
  }))
}

/**
 * Signs in with a provider in a popup, or leaves the page for it (redirect; resolves never). Rejects
 * with 'OAuth cancelled' when the popup is closed, the provider's or the signer's message.
 */
export async function signInWithProvider(
  id: string,
  mode: 'popup' | 'redirect',
): Promise<SocialSignInOutcome> {
  const store = await loadSignerStore()
  // A redirect comes back to /login, whose sign-in panel finishes it.
  const redirectUrl = mode === 'redirect' ? `${window.location.origin}/login` : undefined
  return toOutcome(
    await store.getState().loginWithOAuth({
      authProviderId: id,
      mode,
      ...(redirectUrl === undefined ? {} : { redirectUrl }),
    }),
  )
}

/** Whether the auth-return parameters are those of a social login (its `status`). */
export function isOAuthReturn(params: AuthReturnParams): boolean {
  if (params.status === undefined) return false
  return [
    'oauth-bundle',
    'org-id',
    'otp_id',
    'oauth_error',
    'id_token',
    'auth-provider',
    'encrypted-payload',
  ].some((name) => params[name as keyof AuthReturnParams] !== undefined)
}

/** Finishes a redirect-mode social login from the auth-return parameters read on load. */
export async function completeSocialSignIn(params: AuthReturnParams): Promise<SocialSignInOutcome> {
  const [store, { readOAuthReturnParams }] = await Promise.all([
    loadSignerStore(),
    import('@quicklinks/wallet/oauth-login'),
  ])
  const result = readOAuthReturnParams(params)
  if (result === undefined) return { type: 'none' }
  const outcome = await store.getState().completeOAuthRedirect(result)
  return outcome === undefined ? { type: 'none' } : toOutcome(outcome)
}

function toOutcome(outcome: OAuthLoginOutcome): SocialSignInOutcome {
  if (outcome.status === 'SUCCESS') {
    useLinkingPrompt.setState({ prompt: null })
    return { type: 'connected', isNewUser: outcome.isNewUser }
  }
  if (outcome.status === 'ACCOUNT_LINKING_CONFIRMATION_REQUIRED') {
    const prompt = {
      email: outcome.linking.email,
      providerName: getProviderName(outcome.linking.providerName),
    }
    useLinkingPrompt.setState({ prompt })
    return { type: 'linking', ...prompt }
  }
  if (outcome.status === 'MFA_REQUIRED') {
    useLinkingPrompt.setState({ prompt: null })
    return { type: 'mfa' }
  }
  return { type: 'none' }
}

/** Links another provider to the signed-in account (a popup). */
export async function linkProvider(id: string, stepUp: StepUp): Promise<LinkedOAuthProvider> {
  const store = await loadSignerStore()
  return store.getState().addOauthProvider({ authProviderId: id, mode: 'popup', stepUp })
}

/** Unlinks a provider identity; the signer refuses the last way to sign in. */
export async function unlinkProvider(input: {
  issuer: string
  subject: string
  stepUp: StepUp
}): Promise<void> {
  const store = await loadSignerStore()
  await store.getState().removeOauthProvider(input)
}

/**
 * Signs in again with a linked provider (a popup, id token only) for a step-up
 * (docs/signer.md#step-up): the fresh id token and the provider's id.
 */
export async function reauthenticateWithProvider(
  id: string,
): Promise<{ oidcToken: string; providerName: string }> {
  const store = await loadSignerStore()
  const outcome = await store
    .getState()
    .loginWithOAuth({ authProviderId: id, mode: 'popup', fetchIdTokenOnly: true })
  if (outcome.status !== 'FETCHED_ID_TOKEN_ONLY')
    throw new Error('The provider did not confirm it’s you. Try again.')
  return { oidcToken: outcome.idToken, providerName: outcome.providerName }
}
