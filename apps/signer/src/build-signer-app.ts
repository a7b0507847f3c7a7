import fastifyCookie from '@fastify/cookie'
import { AppError } from '@quicklinks/core/app-error'
import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { createDelivery, type Delivery } from '@quicklinks/runtime/delivery/create-delivery'
import { getTrustProxyOption } from '@quicklinks/runtime/get-trust-proxy-option'
import { healthRoutes } from '@quicklinks/runtime/health/health-routes'
import { getHttpTimeoutOptions } from '@quicklinks/runtime/http-timeouts'
import { csrfPlugin } from '@quicklinks/runtime/plugins/csrf-plugin'
import { databasePlugin } from '@quicklinks/runtime/plugins/database-plugin'
import { errorHandlerPlugin } from '@quicklinks/runtime/plugins/error-handler-plugin'
import { inputGuardPlugin, sendFrameworkError } from '@quicklinks/runtime/plugins/input-guard-plugin'
import { rateLimitPlugin } from '@quicklinks/runtime/plugins/rate-limit-plugin'
import { redisPlugin } from '@quicklinks/runtime/plugins/redis-plugin'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import type { SignerProcessConfig } from './config/signer-env.ts'
import { signerPlugin } from './routes/signer-plugin.ts'

export type SignerAppDependencies = {
  /** An open, migrated database; the caller closes it. */
  database: DatabaseClient
  logger: FastifyBaseLogger
  /** Mail and SMS delivery; default: `createDelivery(config, logger)`. */
  delivery?: Delivery
  /** The signer's clock (epoch ms), for tests. */
  signerNow?: () => number
}

/**
 * Builds the standalone signer service (docs/decisions/0006): the same plugins as the app server
 * where the signer needs them (Redis when REDIS_URL is set, database, error handler, cookies,
 * CSRF, rate limits, the input guard, HTTP timeouts), GET /health for the CSRF cookie, GET /ready (the database answers), and the
 * signer routes at /signer/v1 — no /api, no web app.
 * Rejects when a plugin fails to register (for example a bad or insecure master key).
 */
export async function buildSignerApp(
  config: SignerProcessConfig,
  dependencies: SignerAppDependencies,
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: dependencies.logger,
    trustProxy: getTrustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    ...getHttpTimeoutOptions(config.httpTimeouts),
    frameworkErrors: sendFrameworkError,
  })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)

  // Before any route: NUL bytes, broken UTF-8 and over-long or over-deep input are 4xx (docs/api.md#unstorable-input).
  await app.register(inputGuardPlugin)
  await app.register(redisPlugin, { url: config.redisUrl })
  await app.register(databasePlugin, { client: dependencies.database, isOwned: false })
  await app.register(errorHandlerPlugin)
  await app.register(fastifyCookie)
  await app.register(csrfPlugin)
  await app.register(rateLimitPlugin, { max: config.rateLimitMax })
  await app.register(healthRoutes, { publicOrigin: config.publicOrigin })
  await app.register(signerPlugin, {
    prefix: '/signer/v1',
    db: app.db,
    config,
    delivery: dependencies.delivery ?? createDelivery(config, app.log),
    ...(dependencies.signerNow === undefined ? {} : { now: dependencies.signerNow }),
  })
  // Unmatched routes answer a JSON 404 through the error model, rate-limited like the rest.
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (request) => {
    const path = (request.url.split('?', 1)[0] ?? '').slice(0, 200)
    throw new AppError('NOT_FOUND', { userMessage: `No route ${request.method} ${path}.` })
  })
  await app.ready()
  return app
}
