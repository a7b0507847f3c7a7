import { devMailListResponseSchema, devSmsListResponseSchema } from '@quicklinks/core/api/dev'
import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import type { DevMail, DevSms } from '@quicklinks/core/dev-outbox'
import type { DevOutbox } from '@quicklinks/runtime/delivery/create-dev-outbox'
import { getDevnetDeploymentOrThrow } from '@quicklinks/runtime/devnet/get-devnet-deployment-or-throw'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { devnetDeploymentSchema } from '../../services/devnet/devnet-deployment-schema.ts'

export type DevRoutesOptions = {
  /** Mail caught by the dev SMTP catcher. */
  mailOutbox: DevOutbox<DevMail>
  /** Text messages sent through the dev SMS provider. */
  smsOutbox: DevOutbox<DevSms>
}

/** Development-only routes under /api/dev; `buildApp` registers them only when DEV_MODE is on. */
export const devRoutes: FastifyPluginAsyncZod<DevRoutesOptions> = async (app, options) => {
  app.get(
    '/dev/devnet',
    {
      schema: {
        summary: 'The local devnet: chains, RPC URLs, token and contract addresses (dev mode only)',
        tags: ['dev'],
        response: { 200: devnetDeploymentSchema, 503: errorResponseSchema },
      },
    },
    // GET /api/dev/devnet: the devnet deployment file as JSON, 503 until the devnet has deployed.
    async () => getDevnetDeploymentOrThrow(app.config.devnetDeploymentFile),
  )

  app.get(
    '/dev/mail',
    {
      schema: {
        summary: 'Mail caught by the dev SMTP catcher, newest first (dev mode only)',
        tags: ['dev'],
        response: { 200: devMailListResponseSchema },
      },
    },
    // GET /api/dev/mail: every mail the dev catcher holds, newest first.
    async () => ({ data: options.mailOutbox.list() }),
  )

  app.get(
    '/dev/sms',
    {
      schema: {
        summary: 'Text messages sent through the dev SMS outbox, newest first (dev mode only)',
        tags: ['dev'],
        response: { 200: devSmsListResponseSchema },
      },
    },
    // GET /api/dev/sms: every text message in the dev outbox, newest first.
    async () => ({ data: options.smsOutbox.list() }),
  )
}
