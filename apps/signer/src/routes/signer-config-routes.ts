import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { OAuthDirectory } from '../services/oauth/oauth-directory.ts'
import type { SignerRouteOptions } from './auth-routes.ts'
import { getOAuthCallbackUrl } from './oauth-routes.ts'

const signerConfigResponseSchema = z.object({
  framesOrigin: z.string(),
  authFrameUrl: z.string(),
  exportFrameUrl: z.string(),
  exportSignerPublicKey: z.string(),
  sessionExpirationSeconds: z.number(),
  authMethods: z.array(z.enum(['email', 'sms'])),
  /** Social login's providers whose discovery document could be read (docs/signer.md#social-login). */
  authProviders: z.array(
    z.object({
      id: z.string(),
      isCustomProvider: z.boolean(),
      authEndpoint: z.string(),
      clientId: z.string(),
    }),
  ),
  oauthCallbackUrl: z.string(),
})

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
        body: z.object({}).passthrough().optional(),
        response: { 200: signerConfigResponseSchema },
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
