import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { SignerRouteOptions } from './auth-routes.ts'

const signerConfigResponseSchema = z.object({
  framesOrigin: z.string(),
  authFrameUrl: z.string(),
  exportFrameUrl: z.string(),
  exportSignerPublicKey: z.string(),
  sessionExpirationSeconds: z.number(),
  authMethods: z.array(z.enum(['email', 'sms'])),
})

/** POST /signer/v1/signer-config: what the SDK needs before it can sign anyone in. */
export const signerConfigRoutes: FastifyPluginAsyncZod<SignerRouteOptions> = async (app, { context }) => {
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
    async () => ({
      framesOrigin: config.framesOrigin,
      authFrameUrl: `${config.framesOrigin}/auth-frame`,
      exportFrameUrl: `${config.framesOrigin}/export-frame`,
      exportSignerPublicKey: keyring.exportSignerPublicKey,
      sessionExpirationSeconds: config.signerSessionSeconds,
      authMethods: config.sms.provider === 'none' ? ['email' as const] : ['email' as const, 'sms' as const],
    }),
  )
}
