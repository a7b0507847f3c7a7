import { signerRoutes } from '@quicklinks/protocol/signer-routes'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { OAuthDirectory } from '../services/oauth/oauth-directory.ts'
import type { SignerRouteOptions } from './auth-routes.ts'
import { getOAuthCallbackUrl } from './oauth-routes.ts'

/** POST /signer/v1/signer-config: what the SDK needs before it can sign anyone in. */
export const signerConfigRoutes: FastifyPluginAsyncZod<
  SignerRouteOptions & { directory?: OAuthDirectory }
> = async (app, { context, directory }) => {
  const { config, keyring } = context
  app.post(
    '/signer-config',
    {
      schema: {
        summary: 'Frame URLs, the export signing key the export frame pins, session length, sign-in methods',
        tags: ['signer'],
        body: signerRoutes.signerConfig.request,
        response: { 200: signerRoutes.signerConfig.answer },
      },
    },
    // POST /signer/v1/signer-config: frames, export key, session length and the offered sign-in methods.
    async (request) => ({
      authProviders: (
        (await directory?.listPublic((id, error) =>
          request.log.warn({ err: error, provider: id }, 'OAuth provider unavailable'),
        )) ?? []
      ).map(({ id, isCustomProvider, authEndpoint, clientId }) => ({
        id,
        isCustomProvider,
        authEndpoint,
        clientId,
      })),
      oauthCallbackUrl: getOAuthCallbackUrl(config),
      framesOrigin: config.framesOrigin,
      authFrameUrl: `${config.framesOrigin}/auth-frame`,
      exportFrameUrl: `${config.framesOrigin}/export-frame`,
      exportSignerPublicKey: keyring.exportSignerPublicKey,
      sessionExpirationSeconds: config.signerSessionSeconds,
      authMethods: config.sms.provider === 'none' ? ['email' as const] : ['email' as const, 'sms' as const],
    }),
  )
}
