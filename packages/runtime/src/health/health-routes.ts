import { healthResponseSchema, readinessResponseSchema } from '@quicklinks/core/api/health'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { isSecureOrigin } from '../env.ts'
import { ensureCsrfCookie } from '../plugins/csrf-plugin.ts'
import { checkReadiness, type Readiness, type ReadinessChains } from './check-readiness.ts'
import { createDatabaseProbe } from './create-database-probe.ts'

// The probe's answer never changes: written once, sent as it is (no schema pass per probe).
const healthBody = healthResponseSchema.parse({ status: 'ok' })
const healthText = JSON.stringify(healthBody)
const serializeHealth = () => healthText

export type HealthRoutesOptions = {
  /** The origin the browser sees: the CSRF cookie /health hands out is `Secure` when it is https. */
  publicOrigin: string
  /** The chains /ready also asks (the app server's); the standalone signer has none. */
  chains?: ReadinessChains
}

// Probes come every few seconds from every load balancer, and /ready is not rate limited: one
// round of checks at a time, its answer reused this long, so a flood never multiplies RPC calls.
const readinessMaxAgeMs = 1_000

/**
 * GET /health (liveness and the CSRF cookie) and GET /ready (database and chain RPCs answer).
 * Neither is rate limited: a load balancer's probe must not fail because the app is busy. HEAD
 * answers on both with the same status.
 */
export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (app, options) => {
  const isSecure = isSecureOrigin(options)
  const database = createDatabaseProbe(app.db)
  app.addHook('onClose', () => database.close())
  let latest: { readiness: Promise<Readiness>; startedAt: number } | undefined
  const getReadiness = (): Promise<Readiness> => {
    const now = Date.now()
    if (latest === undefined || now - latest.startedAt > readinessMaxAgeMs) {
      latest = {
        startedAt: now,
        readiness: checkReadiness({
          probeDatabase: database.probe,
          ...(options.chains === undefined ? {} : { chains: options.chains }),
        }).then((readiness) => {
          if (readiness.status !== 'ready') app.log.warn({ checks: readiness.checks }, 'Not ready')
          return readiness
        }),
      }
    }
    return latest.readiness
  }

  app.get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        summary: 'Liveness; sets the csrf_token cookie (kept if already present)',
        tags: ['health'],
        response: { 200: healthResponseSchema },
      },
    },
    // GET /health: report liveness and hand out the CSRF cookie.
    // Not async: it answers at once, and a promise per probe is work the probe does not need.
    (request, reply) => {
      ensureCsrfCookie(request, reply, isSecure)
      reply.serializer(serializeHealth).send(healthBody)
    },
  )

  app.get(
    '/ready',
    {
      config: { rateLimit: false },
      schema: {
        summary: 'Readiness: 200 when the database and every configured chain RPC answer, else 503',
        tags: ['health'],
        response: { 200: readinessResponseSchema, 503: readinessResponseSchema },
      },
    },
    // GET /ready: check the database and the chains' RPCs, 503 naming the check that failed.
    async (_request, reply) => {
      const readiness = await getReadiness()
      return reply.code(readiness.status === 'ready' ? 200 : 503).send(readiness)
    },
  )
}
