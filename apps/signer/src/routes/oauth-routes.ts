import { createHash } from 'node:crypto'
import { signerActivities } from '@quicklinks/protocol/signer-activities'
import { oauthCallbackQuerySchema, signerRoutes } from '@quicklinks/protocol/signer-routes'
import { stampedRequestBodySchema } from '@quicklinks/protocol/stamped-request-body-schema'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { removeSignInMethod } from '../services/accounts/remove-sign-in-method.ts'
import { deriveSignerSecret } from '../services/keyring/load-signer-keyring.ts'
import {
  completeOAuthCallback,
  getOAuthReturnUrl,
  type OAuthPopupResult,
  readOAuthState,
} from '../services/oauth/complete-oauth-callback.ts'
import { linkOAuthProvider } from '../services/oauth/link-oauth-provider.ts'
import type { OAuthDirectory } from '../services/oauth/oauth-directory.ts'
import { createOAuthRequest, getOAuthNonce } from '../services/oauth/oauth-request-key.ts'
import {
  oauthCallbackScript,
  oauthResultMessageType,
  renderOAuthCallbackPage,
} from '../services/oauth/render-oauth-callback-page.ts'
import { requireStepUp, toStepUpStamp } from '../services/step-up/require-step-up.ts'
import type { SignerRouteOptions } from './auth-routes.ts'
import { createStampedRoute } from './create-stamped-route.ts'
import { perIpPerMinute } from './signer-rate-limits.ts'

/** Where providers send the browser back: OAUTH callback setting, else the signer mounted in the app server. */
export function getOAuthCallbackUrl(config: { publicOrigin: string; oauthCallbackUrl?: string }): string {
  return config.oauthCallbackUrl ?? `${config.publicOrigin}/signer/v1/oauth-callback`
}

/**
 * The auth-return parameters a redirect-mode sign-in comes back with (docs/signer.md#social-login),
 * put in the address's fragment: never sent to a server, so never in a proxy's or server's log.
 */
function toReturnParameters(result: OAuthPopupResult, attempt: string): URLSearchParams {
  const entries: [string, string | boolean | undefined][] = [
    ['status', result.status],
    ['attempt', attempt],
    ['oauth-bundle', result.bundle],
    ['org-id', result.orgId],
    ['id_token', result.idToken],
    ['access_token', result.accessToken],
    ['is-signup', result.isSignup === undefined ? undefined : String(result.isSignup)],
    ['encrypted-payload', result.encryptedPayload],
    ['multi-factors', result.multiFactors === undefined ? undefined : JSON.stringify(result.multiFactors)],
    ['otp_id', result.otpId],
    ['email', result.email],
    ['auth-provider', result.providerName],
    ['oauth_error', result.error],
  ]
  return new URLSearchParams(
    entries.filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  )
}

/**
 * Social login (docs/signer.md#social-login): prepare-oauth, the providers' callback, and the
 * stamped add-oauth-provider and remove-oauth-provider.
 */
export const oauthRoutes: FastifyPluginAsyncZod<SignerRouteOptions & { directory: OAuthDirectory }> = async (
  app,
  { context, limits, directory },
) => {
  const requestKeySecret = deriveSignerSecret(context.keyring.masterKey, 'oauth-request/v1')
  const callbackUrl = getOAuthCallbackUrl(context.config)
  const scriptHash = `'sha256-${createHash('sha256').update(oauthCallbackScript, 'utf8').digest('base64')}'`
  const stamped = {
    // Checked in the handler: the linking prompt's code needs the identity's verified e-mail.
    add: createStampedRoute(context, signerActivities.addOauthProvider, { stepUpInService: true }),
    remove: createStampedRoute(context, signerActivities.removeOauthProvider),
  }

  app.post(
    '/prepare-oauth',
    {
      config: perIpPerMinute(limits.codeChecksPerIpPerMinute),
      schema: {
        summary:
          'Starts a social login: a PKCE challenge, the requestKey that seals its verifier with the nonce, and the providers',
        tags: ['signer'],
        body: signerRoutes.prepareOauth.request,
        response: { 200: signerRoutes.prepareOauth.answer },
      },
    },
    // POST /signer/v1/prepare-oauth: PKCE challenge and sealed verifier for one sign-in, bound to the nonce.
    async (request) => {
      const { requestKey, codeChallenge } = await createOAuthRequest(requestKeySecret, {
        nonce: request.body.nonce,
        nowMs: context.now(),
      })
      const authProviders = await directory.listPublic((id, error) =>
        request.log.warn({ err: error, provider: id }, 'OAuth provider unavailable'),
      )
      return { codeChallenge, requestKey, authProviders, oauthCallbackUrl: callbackUrl }
    },
  )

  app.get(
    '/oauth-callback',
    {
      config: perIpPerMinute(limits.codeChecksPerIpPerMinute),
      schema: {
        summary:
          "The providers' redirect_uri: exchanges the code, verifies the id token, signs in or asks to link; answers the opener (popup) or redirects to the app",
        tags: ['signer'],
        querystring: oauthCallbackQuerySchema,
      },
    },
    // GET /signer/v1/oauth-callback: the end of a social login, in the popup or the redirected page.
    async (request, reply) => {
      const { code, error, error_description: errorDescription } = request.query
      const state = readOAuthState(request.query.state)
      const page = (status: number, body: string) =>
        reply
          .code(status)
          .header(
            'content-security-policy',
            `default-src 'none'; script-src ${scriptHash}; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
          )
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .type('text/html; charset=utf-8')
          .send(body)
      if (state === undefined) {
        return page(
          400,
          renderOAuthCallbackPage({
            text: 'This sign-in link is not valid. Close this window and start again.',
          }),
        )
      }
      const result = await completeOAuthCallback(context, directory, {
        state,
        code,
        providerError: error === undefined ? undefined : (errorDescription ?? error),
        callbackUrl,
        requestKeySecret,
      })
      if (result.status === 'ERROR') request.log.info({ oauthError: result.error }, 'Social login refused')
      if (state.mode === 'redirect') {
        const target = getOAuthReturnUrl(context.config.publicOrigin, state.redirectUrl)
        target.hash = toReturnParameters(result, state.attempt).toString()
        return reply
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .redirect(target.href, 303)
      }
      return page(
        200,
        renderOAuthCallbackPage({
          text:
            result.status === 'ERROR'
              ? `Sign-in failed: ${result.error ?? ''}`
              : 'Signed in. This window closes by itself.',
          message: {
            type: oauthResultMessageType,
            nonce: getOAuthNonce(state.targetPublicKey),
            attempt: state.attempt,
            result,
          },
          targetOrigin: context.config.publicOrigin,
        }),
      )
    },
  )

  app.post(
    '/add-oauth-provider',
    {
      schema: {
        summary: 'Links a provider identity (a verified id token, used once) to the stamping user',
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: signerActivities.addOauthProvider.answer },
      },
      preHandler: stamped.add.verifyStamp,
    },
    // POST /signer/v1/add-oauth-provider: link the id token's issuer and subject to the user.
    async (request) => {
      const verified = stamped.add.getVerified(request)
      await requireStepUp(context, {
        userId: verified.userId,
        stamp: toStepUpStamp(verified),
        proof: verified.stepUp,
      })
      const oauthProvider = await linkOAuthProvider(context, directory, {
        userId: verified.userId,
        sessionPublicKey: verified.publicKey,
        providerName: verified.parameters.providerName,
        oidcToken: verified.parameters.oidcToken,
      })
      return { oauthProvider }
    },
  )

  app.post(
    '/remove-oauth-provider',
    {
      schema: {
        summary: 'Unlinks a provider identity from the stamping user; the last way to sign in is refused',
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: signerActivities.removeOauthProvider.answer },
      },
      preHandler: stamped.remove.verifyStamp,
    },
    // POST /signer/v1/remove-oauth-provider: remove one linked identity (never the last sign-in method).
    async (request) => {
      const verified = stamped.remove.getVerified(request)
      const { issuer, subject } = verified.parameters
      await removeSignInMethod(context.db, {
        userId: verified.userId,
        type: 'oauth',
        identifier: `${issuer}|${subject}`,
      })
      return { removed: true }
    },
  )
}
