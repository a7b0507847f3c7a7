import { randomUUID } from 'node:crypto'
import { AppError } from '@quicklinks/core/app-error'
import { z } from 'zod'
import type { SignerContext } from '../../signer-context.ts'
import { findAccountByContact, findAccountBySignInMethod } from '../accounts/find-account.ts'
import { finishSignIn } from '../auth/finish-sign-in.ts'
import { startContactAuth } from '../auth/start-contact-auth.ts'
import { type MfaRequiredAnswer, requireSecondFactor } from '../mfa/require-second-factor.ts'
import { keepOAuthLinkForCode } from '../oauth-links/oauth-link-for-code.ts'
import { createDatabaseReplayStore } from '../stamps/create-database-replay-store.ts'
import type { OAuthDirectory } from './oauth-directory.ts'
import { getOAuthNonce, openOAuthRequest } from './oauth-request-key.ts'
import { verifyOAuthIdToken } from './verify-oauth-id-token.ts'

/** The OAuth popup result (docs/signer.md#oauth-callback; the redirect mode carries the same in the auth-return parameters). */
export type OAuthPopupResult = {
  status:
    | 'SUCCESS'
    | 'MFA_REQUIRED'
    | 'ACCOUNT_LINKING_CONFIRMATION_REQUIRED'
    | 'FETCHED_ID_TOKEN_ONLY'
    | 'ERROR'
  /** FETCHED_ID_TOKEN_ONLY only (popup: in the message to the opener; redirect: in the fragment). */
  idToken?: string
  accessToken?: string
  email?: string
  providerName?: string
  otpId?: string
  orgId?: string
  bundle?: string
  isSignup?: boolean
  /** MFA_REQUIRED: the sealed pending sign-in and the factors to ask for (docs/signer.md#mfa-required). */
  encryptedPayload?: string
  multiFactors?: MfaRequiredAnswer['multiFactors']
  error?: string
}

/**
 * The `state` the SDK sends to the provider and gets back at the callback (base64url JSON). It is
 * not trusted for anything the requestKey does not vouch for: the frame key must hash to the sealed
 * nonce, and answers only ever go to the app's own origin.
 */
export const oauthStateSchema = z.object({
  /**
   * The per-attempt secret the browser stored before it left (docs/signer.md#oauth-attempt): echoed
   * with the result, which the browser acts on only when it matches. Not a secret from the provider.
   */
  attempt: z.string().regex(/^[\w-]{22,128}$/),
  authProviderId: z.string().min(1).max(64),
  requestKey: z.string().min(1).max(4096),
  targetPublicKey: z.string().regex(/^04[0-9a-fA-F]{128}$/),
  mode: z.enum(['popup', 'redirect']),
  expirationSeconds: z.number().int().min(60).max(86_400).optional(),
  redirectUrl: z.string().max(2048).optional(),
  fetchIdTokenOnly: z.boolean().optional(),
})

export type OAuthState = z.infer<typeof oauthStateSchema>

/** Reads the callback's `state`; undefined when it is not one the SDK made. */
export function readOAuthState(state: string | undefined): OAuthState | undefined {
  if (state === undefined || state.length > 8192) return undefined
  try {
    const parsed = oauthStateSchema.safeParse(JSON.parse(Buffer.from(state, 'base64url').toString('utf8')))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** The redirect target of a redirect-mode sign-in: `redirectUrl` when it is on the app's origin, else the app's root. */
export function getOAuthReturnUrl(publicOrigin: string, redirectUrl: string | undefined): URL {
  if (redirectUrl !== undefined) {
    try {
      const url = new URL(redirectUrl, publicOrigin)
      if (url.origin === publicOrigin) return url
    } catch {
      // not a URL: the app's root
    }
  }
  return new URL('/', publicOrigin)
}

/**
 * The provider's answer at the callback, turned into the popup result (docs/signer.md#social-login):
 * spends the request (once), checks that the frame key in `state` is the one prepare-oauth's nonce
 * was made from, exchanges the code at the token endpoint with the PKCE verifier (and the client
 * secret), verifies the id token (iss, aud, exp, nonce), then
 * - `fetchIdTokenOnly`: FETCHED_ID_TOKEN_ONLY with the tokens (adding a provider in Settings);
 * - a linked identity (`oauth`, `{issuer}|{subject}`) or a new one whose e-mail no account has:
 *   SUCCESS with a credential bundle encrypted to the frame key (a new user gets an account);
 *   a linked identity whose account has a confirmed TOTP factor gets MFA_REQUIRED instead, with
 *   the sealed pending sign-in for that frame key (docs/signer.md#mfa-required);
 * - a new identity whose provider-verified e-mail belongs to an account: an e-mail code goes to that
 *   address and ACCOUNT_LINKING_CONFIRMATION_REQUIRED answers its otpId and orgId; the identity stays
 *   here under that code (never the id token to the page), and the code's sign-in links it.
 *
 * Never throws for a refusal: it becomes `{status: 'ERROR', error}`; rejects only on a database error.
 */
export async function completeOAuthCallback(
  context: SignerContext,
  directory: OAuthDirectory,
  input: {
    state: OAuthState
    code: string | undefined
    providerError: string | undefined
    callbackUrl: string
    requestKeySecret: Uint8Array
    fetchImpl?: typeof fetch
  },
): Promise<OAuthPopupResult> {
  const { state } = input
  try {
    if (input.providerError !== undefined) {
      return { status: 'ERROR', providerName: state.authProviderId, error: input.providerError }
    }
    if (input.code === undefined || input.code.length === 0 || input.code.length > 4096) {
      throw new AppError('BAD_REQUEST', { userMessage: 'The provider sent no authorization code.' })
    }
    const nowMs = context.now()
    const request = await openOAuthRequest(input.requestKeySecret, state.requestKey, nowMs)
    const targetPublicKey = state.targetPublicKey.toLowerCase()
    if (getOAuthNonce(targetPublicKey) !== request.nonce) {
      throw new AppError('UNAUTHORIZED', {
        userMessage: 'This sign-in was prepared for another browser key. Start again.',
        details: { reason: 'OAUTH_NONCE_MISMATCH' },
      })
    }
    // Once: a replayed callback (its code or state) is refused before the provider is asked again.
    const replays = createDatabaseReplayStore(context.db, context.now)
    if (!(await replays.markSeen(`oauth-request:${request.requestId}`, request.expiresAtMs))) {
      throw new AppError('UNAUTHORIZED', {
        userMessage: 'This sign-in was already used. Start again.',
        details: { reason: 'OAUTH_REQUEST_SPENT' },
      })
    }
    const provider = await directory.get(state.authProviderId)
    const tokens = await exchangeCode(provider, {
      code: input.code,
      codeVerifier: request.codeVerifier,
      callbackUrl: input.callbackUrl,
      fetchImpl: input.fetchImpl ?? fetch,
    })
    const verified = await verifyOAuthIdToken(provider, tokens.idToken, { nowMs, nonce: request.nonce })
    const providerName = provider.provider.id
    if (state.fetchIdTokenOnly === true) {
      // Settings' add-oauth-provider takes the token back, for the session of this frame key only.
      return {
        status: 'FETCHED_ID_TOKEN_ONLY',
        idToken: tokens.idToken,
        ...(tokens.accessToken === undefined ? {} : { accessToken: tokens.accessToken }),
        providerName,
        ...(verified.email === undefined ? {} : { email: verified.email }),
      }
    }
    const method = {
      type: 'oauth' as const,
      identifier: `${verified.issuer}|${verified.subject}`,
      data: { providerId: providerName, email: verified.email ?? null },
    }
    const expirationSeconds = state.expirationSeconds ?? context.config.signerSessionSeconds
    const linked = await findAccountBySignInMethod(context.db, method)
    if (linked === undefined && verified.email !== undefined && verified.isEmailVerified) {
      const owner = await findAccountByContact(context.db, { channel: 'email', address: verified.email })
      if (owner !== undefined) {
        const started = await startContactAuth(context, {
          contact: { channel: 'email', address: verified.email },
          emailMode: 'otp',
          targetPublicKey,
          expirationSeconds,
          // Counted per provider identity: only one whose provider verified this e-mail gets here.
          origin: { clientKey: `oauth:${method.identifier}` },
        })
        // The page only learns the code's id: the code's sign-in in this browser links the identity.
        await keepOAuthLinkForCode(context.db, {
          otpId: started.otpId,
          userId: owner.userId,
          identity: {
            providerId: providerName,
            issuer: verified.issuer,
            subject: verified.subject,
            email: verified.email,
          },
          targetPublicKey,
        })
        return {
          status: 'ACCOUNT_LINKING_CONFIRMATION_REQUIRED',
          providerName,
          email: verified.email,
          otpId: started.otpId,
          orgId: started.orgId,
        }
      }
    }
    if (linked !== undefined) {
      const required = await requireSecondFactor(context, {
        account: linked,
        targetPublicKey,
        expirationSeconds,
      })
      if (required !== undefined) {
        return {
          status: 'MFA_REQUIRED',
          providerName,
          encryptedPayload: required.encryptedPayload,
          multiFactors: required.multiFactors,
          orgId: required.orgId,
          ...(verified.email === undefined ? {} : { email: verified.email }),
        }
      }
    }
    const signedIn = await finishSignIn(context, {
      method,
      preferredOrganizationId: randomUUID(),
      targetPublicKey,
      expirationSeconds,
    })
    return {
      status: 'SUCCESS',
      providerName,
      bundle: signedIn.credentialBundle,
      orgId: signedIn.orgId,
      isSignup: signedIn.isNewUser,
      ...(verified.email === undefined ? {} : { email: verified.email }),
    }
  } catch (error) {
    if (error instanceof AppError && error.code !== 'INTERNAL') {
      return { status: 'ERROR', providerName: state.authProviderId, error: error.userMessage }
    }
    throw error
  }
}

/**
 * The authorization-code grant at the provider's token endpoint (client_secret_post when a secret
 * is configured, else a public client). Fails by throwing AppError UNAUTHORIZED when the provider
 * refuses the code (spent, expired, wrong verifier) or UPSTREAM_FAILED when it cannot be reached.
 */
async function exchangeCode(
  provider: Awaited<ReturnType<OAuthDirectory['get']>>,
  input: { code: string; codeVerifier: string; callbackUrl: string; fetchImpl: typeof fetch },
): Promise<{ idToken: string; accessToken: string | undefined }> {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: input.callbackUrl,
    client_id: provider.provider.clientId,
    code_verifier: input.codeVerifier,
    ...(provider.provider.clientSecret === undefined
      ? {}
      : { client_secret: provider.provider.clientSecret }),
  })
  let response: Response
  try {
    response = await input.fetchImpl(provider.tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(10_000),
    })
  } catch (error) {
    throw new AppError('UPSTREAM_FAILED', {
      message: `Token endpoint of ${provider.provider.id} unreachable: ${(error as Error).message}`,
      userMessage: 'The sign-in provider did not answer. Try again shortly.',
      cause: error,
    })
  }
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (!response.ok) {
    const reason = typeof answer.error_description === 'string' ? answer.error_description : answer.error
    throw new AppError(response.status >= 500 ? 'UPSTREAM_FAILED' : 'UNAUTHORIZED', {
      message: `Token endpoint of ${provider.provider.id} answered ${response.status}: ${String(reason)}`,
      userMessage: `The sign-in provider refused the sign-in${typeof reason === 'string' ? ` (${reason})` : ''}. Start again.`,
      details: { reason: 'OAUTH_CODE_REFUSED' },
    })
  }
  if (typeof answer.id_token !== 'string') {
    throw new AppError('UPSTREAM_FAILED', { userMessage: 'The sign-in provider sent no id token.' })
  }
  return {
    idToken: answer.id_token,
    accessToken: typeof answer.access_token === 'string' ? answer.access_token : undefined,
  }
}
