import type { MfaRequiredResult } from './multi-factor-types.ts'
import type { OAuthPopupResult } from './oauth-login.ts'
import type { AuthLinkingStatus, SignerStatus } from './signer-types.ts'
import { createWalletError } from './wallet-error.ts'

/** How a social login ended (the popup outcomes of docs/signer.md#social-login). */
export type OAuthLoginOutcome =
  | { status: 'SUCCESS'; isNewUser: boolean }
  | { status: 'MFA_REQUIRED' }
  | { status: 'ACCOUNT_LINKING_CONFIRMATION_REQUIRED'; linking: AuthLinkingStatus }
  | {
      status: 'FETCHED_ID_TOKEN_ONLY'
      idToken: string
      accessToken?: string
      providerName: string
      email?: string
    }

/** The store's parts an outcome changes (the OAuth actions' host, oauth-actions.ts). */
export type OAuthOutcomeHost = {
  set(partial: {
    status?: SignerStatus
    otpId?: string | null
    isNewUser?: boolean | undefined
    authLinkingStatus?: AuthLinkingStatus | null
  }): void
  finishLogin(input: { bundle: string; orgId: string }): Promise<void>
  awaitMfa(answer: MfaRequiredResult & { orgId: string }): void
  awaitEmailCode(input: { orgId: string; otpId: string }): void
}

/**
 * What a social login's popup (or its return address) answered, applied to the store
 * (docs/signer.md#oauth-callback): SUCCESS connects, MFA_REQUIRED and
 * ACCOUNT_LINKING_CONFIRMATION_REQUIRED wait for the next code, FETCHED_ID_TOKEN_ONLY answers the
 * token (Settings only). Rejects with the documented 'Expected …' / 'Missing required query
 * params …' messages for an outcome that does not fit the request, the ERROR's own message, or
 * 'Unknown status: {status}'.
 */
export async function applyOAuthResult(
  host: OAuthOutcomeHost,
  result: OAuthPopupResult,
  params: { fetchIdTokenOnly?: boolean },
): Promise<OAuthLoginOutcome> {
  switch (result.status) {
    case 'SUCCESS': {
      if (params.fetchIdTokenOnly === true)
        throw createWalletError('Expected id token only from oauth response')
      if (result.bundle === undefined || result.orgId === undefined) {
        throw createWalletError('Expected user from oauth with redirect')
      }
      host.set({ isNewUser: result.isSignup === true })
      await host.finishLogin({ bundle: result.bundle, orgId: result.orgId })
      return { status: 'SUCCESS', isNewUser: result.isSignup === true } satisfies OAuthLoginOutcome
    }
    case 'MFA_REQUIRED': {
      if (params.fetchIdTokenOnly === true)
        throw createWalletError('Expected id token only from oauth response')
      const { encryptedPayload, multiFactors, orgId } = result
      if (!encryptedPayload || !orgId || multiFactors === undefined || multiFactors.length === 0) {
        throw createWalletError('Missing required query params for multi-factor sign-in')
      }
      host.awaitMfa({ status: 'MFA_REQUIRED', encryptedPayload, multiFactors, orgId })
      return { status: 'MFA_REQUIRED' } satisfies OAuthLoginOutcome
    }
    case 'ACCOUNT_LINKING_CONFIRMATION_REQUIRED': {
      // The signer keeps the provider identity under the code; entering it here links it.
      const { email, providerName, otpId, orgId } = result
      if (!email || !providerName || !otpId || !orgId) {
        throw createWalletError('Missing required query params for auth linking prompt')
      }
      const linking: AuthLinkingStatus = {
        status: result.status,
        email,
        providerName,
        otpId,
        orgId,
      }
      host.awaitEmailCode({ orgId, otpId })
      host.set({ status: 'AWAITING_EMAIL_AUTH', otpId, authLinkingStatus: linking, isNewUser: false })
      return { status: 'ACCOUNT_LINKING_CONFIRMATION_REQUIRED', linking } satisfies OAuthLoginOutcome
    }
    case 'FETCHED_ID_TOKEN_ONLY': {
      if (params.fetchIdTokenOnly !== true) {
        throw createWalletError('Should not get only id token when authenticating with oauth')
      }
      if (!result.idToken || !result.providerName)
        throw createWalletError('Expected id token only from oauth response')
      return {
        status: 'FETCHED_ID_TOKEN_ONLY',
        idToken: result.idToken,
        providerName: result.providerName,
        ...(result.accessToken === undefined ? {} : { accessToken: result.accessToken }),
        ...(result.email === undefined ? {} : { email: result.email }),
      } satisfies OAuthLoginOutcome
    }
    case 'ERROR':
      // OAuth failed: the message the popup (or the return address) carried.
      throw createWalletError(result.error ?? 'OAuth failed', { details: { reason: 'OAUTH_FAILED' } })
    default:
      throw createWalletError(`Unknown status: ${result.status}`)
  }
}
