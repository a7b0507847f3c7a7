import { randomUUID } from 'node:crypto'
import fastifyCookie from '@fastify/cookie'
import type { DevMail, DevSms } from '@quicklinks/core/dev-outbox'
import { createLogger } from '@quicklinks/runtime/create-logger'
import { createDatabaseClient, type DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { getDatabaseTarget } from '@quicklinks/runtime/db/get-database-target'
import { createDelivery, type Delivery } from '@quicklinks/runtime/delivery/create-delivery'
import { createDevOutbox, type DevOutbox } from '@quicklinks/runtime/delivery/create-dev-outbox'
import { getTrustProxyOption } from '@quicklinks/runtime/get-trust-proxy-option'
import { healthRoutes } from '@quicklinks/runtime/health/health-routes'
import { getHttpTimeoutOptions } from '@quicklinks/runtime/http-timeouts'
import { csrfPlugin } from '@quicklinks/runtime/plugins/csrf-plugin'
import { databasePlugin } from '@quicklinks/runtime/plugins/database-plugin'
import { errorHandlerPlugin } from '@quicklinks/runtime/plugins/error-handler-plugin'
import { inputGuardPlugin, sendFrameworkError } from '@quicklinks/runtime/plugins/input-guard-plugin'
import { rateLimitPlugin } from '@quicklinks/runtime/plugins/rate-limit-plugin'
import { redisPlugin } from '@quicklinks/runtime/plugins/redis-plugin'
import { signerPlugin } from '@quicklinks/signer/routes/signer-plugin'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyPluginAsync,
  type RouteOptions,
} from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { buildRequestLogging } from './build-request-logging.ts'
import type { ServerConfig } from './config/server-env.ts'
import { migrate } from './db/migrate.ts'
import { compressionPlugin } from './plugins/compression-plugin.ts'
import { configPlugin } from './plugins/config-plugin.ts'
import { jsonBodyPlugin } from './plugins/json-body-plugin.ts'
import { metricsPlugin } from './plugins/metrics-plugin.ts'
import { openapiDocumentRoute, openapiPlugin } from './plugins/openapi-plugin.ts'
import { paymentTrackerPlugin } from './plugins/payment-tracker-plugin.ts'
import { paymentWorkersPlugin } from './plugins/payment-workers-plugin.ts'
import { readCachesPlugin } from './plugins/read-caches-plugin.ts'
import { receiptsPlugin } from './plugins/receipts-plugin.ts'
import { relayerPlugin } from './plugins/relayer-plugin.ts'
import { routingProviderPlugin } from './plugins/routing-provider-plugin.ts'
import { securityHeadersPlugin } from './plugins/security-headers-plugin.ts'
import { isApiKeyRequest, sessionPlugin } from './plugins/session-plugin.ts'
import { signedInPlugin } from './plugins/signed-in-plugin.ts'
import { solanaPlugin } from './plugins/solana-plugin.ts'
import { webStaticPlugin } from './plugins/web-static-plugin.ts'
import { x402Plugin } from './plugins/x402-plugin.ts'
import { apiKeysRoutes } from './routes/api-keys/api-keys-routes.ts'
import { authRoutes } from './routes/auth/auth-routes.ts'
import { currentUserRoutes } from './routes/auth/current-user-routes.ts'
import { configRoutes } from './routes/config/config-routes.ts'
import { balancesRoutes } from './routes/data/balances-routes.ts'
import { transactionsRoutes } from './routes/data/transactions-routes.ts'
import { depositsRoutes } from './routes/deposits/deposits-routes.ts'
import { devExplorerRoutes } from './routes/dev/dev-explorer-routes.ts'
import { devRoutes } from './routes/dev/dev-routes.ts'
import { invoicesRoutes } from './routes/invoices/invoices-routes.ts'
import { payInvoiceRoutes } from './routes/invoices/pay-invoice-routes.ts'
import { linksRoutes } from './routes/links/links-routes.ts'
import { payRoutes } from './routes/pay/pay-routes.ts'
import { payStatusRoutes } from './routes/pay-status/pay-status-routes.ts'
import { paymentsRoutes } from './routes/payments/payments-routes.ts'
import { receiptsRoutes } from './routes/receipts/receipts-routes.ts'
import { wellKnownReceiptsRoutes } from './routes/receipts/well-known-receipts-routes.ts'
import { routeIntentsRoutes } from './routes/route-intents/route-intents-routes.ts'
import { routingRoutes } from './routes/routing/routing-routes.ts'
import { smartAccountsRoutes } from './routes/smart-accounts/smart-accounts-routes.ts'
import { solanaRoutes } from './routes/solana/solana-routes.ts'
import { noticeSettingsRoutes } from './routes/users/notice-settings-routes.ts'
import { usernameClaimRoutes } from './routes/users/username-claim-routes.ts'
import { usersRoutes } from './routes/users/users-routes.ts'
import { webhooksRoutes } from './routes/webhooks/webhooks-routes.ts'
import { x402FacilitatorRoutes } from './routes/x402/x402-facilitator-routes.ts'
import { x402PayRoutes } from './routes/x402/x402-pay-routes.ts'

export type AppDependencies = {
  /** An open, migrated database. Without it the app opens (and migrates) one from the config and closes it on close. */
  database?: DatabaseClient
  /** A pino logger (tests pass one writing to memory); default: `createLogger(config.logLevel)`. */
  logger?: FastifyBaseLogger
  /** Where the dev SMTP catcher stores mail (main.ts starts it in dev mode); GET /api/dev/mail reads it. */
  mailOutbox?: DevOutbox<DevMail>
  /** Where dev-mode SMS land; GET /api/dev/sms reads it. Default: a fresh one. */
  smsOutbox?: DevOutbox<DevSms>
  /** Mail and SMS delivery; default: `createDelivery(config, logger, { smsOutbox })`. */
  delivery?: Delivery
  /** The signer's clock (epoch ms), default `Date.now`; tests move it to expire codes and keys. */
  signerNow?: () => number
  /**
   * Run the payment tracker and the relayer in this process, every config.workerIntervalMs, until
   * the app closes. main.ts turns them on; tests choose. Default off.
   */
  startWorkers?: boolean
  /** The workers' clock (epoch ms), default `Date.now`. */
  workerNow?: () => number
  /** Called when a worker round ends (see `startWorkers`): tests await rounds instead of sleeping. */
  onWorkerRound?: (workerName: string, lane: string) => void
  /** Extra routes registered under /api with every plugin applied. For tests only. */
  extraApiRoutes?: FastifyPluginAsync
  /** Told of every route as it is declared (Fastify's onRoute): the fuzz suite lists them so. For tests only. */
  onRoute?: (route: RouteOptions) => void
}

export const requestIdHeader = 'x-request-id'
// An incoming id is kept only if it is short and plain, so it cannot forge log lines.
const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/
// Our own ids, UUID-shaped: a random prefix per process and a counter, unique across instances
// and restarts without drawing random bytes per request (a request id is a label, not a secret).
const requestIdPrefix = randomUUID().slice(0, 24)
let requestCounter = 0
const createRequestId = () => {
  requestCounter += 1
  return `${requestIdPrefix}${requestCounter.toString(16).padStart(12, '0')}`
}

/**
 * Builds the app server (API, CSRF, sessions, rate limits, OpenAPI, static web) without
 * listening; `app.inject()` drives it in tests. Rejects if the database cannot be opened or a
 * plugin fails to register.
 */
export async function buildApp(
  config: ServerConfig,
  dependencies: AppDependencies = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: dependencies.logger ?? createLogger(config.logLevel),
    // Ids come from genReqId, which vets the x-request-id header itself.
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers[requestIdHeader]
      return typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : createRequestId()
    },
    trustProxy: getTrustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    ...getHttpTimeoutOptions(config.httpTimeouts),
    // A path the router cannot decode answers in the error model too (docs/api.md#unstorable-input).
    frameworkErrors: sendFrameworkError,
    // One log line per request, written when it completes, from a request logger made only when
    // something logs through it, instead of Fastify's two lines and a pino child per request.
    ...buildRequestLogging(),
  })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  if (dependencies.onRoute) app.addHook('onRoute', dependencies.onRoute)

  const mailOutbox = dependencies.mailOutbox ?? createDevOutbox<DevMail>()
  const smsOutbox = dependencies.smsOutbox ?? createDevOutbox<DevSms>()
  // The one delivery of this app: the signer sends its codes and links through it.
  const delivery = dependencies.delivery ?? createDelivery(config, app.log, { smsOutbox })
  app.decorate('delivery', delivery)

  let database = dependencies.database
  const isOwned = database === undefined
  if (database === undefined) {
    database = await createDatabaseClient(getDatabaseTarget(config), {
      onPoolError: (error) => app.log.error({ err: error }, 'Idle database connection failed'),
    })
    await migrate(database)
  }

  await app.register(configPlugin, { config })
  // Before any route: the request id and the security headers reach every answer.
  await app.register(securityHeadersPlugin, { requestIdHeader })
  // Before any route too: NUL bytes, broken UTF-8 and over-long or over-deep input are 4xx everywhere.
  await app.register(inputGuardPlugin)
  await app.register(jsonBodyPlugin)
  await app.register(redisPlugin, { url: config.redisUrl })
  await app.register(databasePlugin, { client: database, isOwned })
  await app.register(readCachesPlugin, { client: database })
  // One relayer hub (chains, nonce manager, writer lock) for the relayer worker and x402's facilitator.
  await app.register(relayerPlugin)
  // One routing provider (and so one catalogue cache) for the routes, the tracker and the workers.
  await app.register(routingProviderPlugin)
  // x402's facilitator, settling through the relayer hub, and the resources' facilitator client.
  await app.register(x402Plugin)
  // One LiteSVM (in development) and one Solana fee sponsor for the Solana endpoint and GET /api/config.
  await app.register(solanaPlugin)
  // The receipt key (RECEIPT_SIGNING_KEY, or the dev key file) for the receipt routes.
  await app.register(receiptsPlugin)
  await app.register(paymentTrackerPlugin, {
    ...(dependencies.workerNow ? { now: dependencies.workerNow } : {}),
  })
  if (dependencies.startWorkers) {
    await app.register(paymentWorkersPlugin, {
      client: database,
      ...(dependencies.workerNow ? { now: dependencies.workerNow } : {}),
      ...(dependencies.onWorkerRound ? { onRoundEnd: dependencies.onWorkerRound } : {}),
    })
  }
  await app.register(errorHandlerPlugin)
  // API-key requests carry no cookie the server reads (session-plugin.ts), nor do x402's protocol
  // URLs (docs/decisions/0031): no CSRF token to check.
  await app.register(csrfPlugin, {
    isExempt: (request) => isApiKeyRequest(request) || request.url.startsWith('/x402/'),
  })
  await app.register(rateLimitPlugin, { max: config.rateLimitMax })
  await app.register(openapiPlugin)
  // Before every route: it adds its measuring hook to each one as it is declared.
  await app.register(metricsPlugin, {
    client: database,
    token: config.metricsToken,
    isTokenRequired: config.production === true,
  })

  await app.register(healthRoutes, { publicOrigin: config.publicOrigin, chains: config })
  await app.register(wellKnownReceiptsRoutes)
  // The payer's public link read, the hottest API route, reads no cookie and answers from memory
  // (compressed once per link when long): it sits outside the cookie and compression scope below.
  await app.register(payRoutes, { prefix: '/api' })
  // x402's protocol URLs (docs/decisions/0031) read no cookie either: at the root, beside /api.
  await app.register(x402FacilitatorRoutes)
  await app.register(x402PayRoutes)
  // The API scopes (/signer/v1, /api): cookie parsing and compression. Only their answers read
  // cookies or pass 1 KB uncompressed (the web build's files are precompressed, the pay page is
  // encoded once, /health and the CSRF check read their one cookie themselves), so the probes and
  // the pages do not pay those hooks.
  await app.register(async (scope) => {
    await scope.register(fastifyCookie)
    await scope.register(compressionPlugin)
    await scope.register(openapiDocumentRoute)
    // The signer service, in-process by default (docs/decisions/0006); CSRF and rate limits apply to it too.
    await scope.register(signerPlugin, {
      prefix: '/signer/v1',
      db: app.db,
      config,
      delivery,
      ...(dependencies.signerNow === undefined ? {} : { now: dependencies.signerNow }),
    })
    await scope.register(
      async (api) => {
        await api.register(sessionPlugin)
        // The signed-in scope: its one preHandler answers 401 to a request without a live session
        // before any of these handlers runs; the handlers read request.signedInUser.
        await api.register(async (signedIn) => {
          await signedIn.register(signedInPlugin)
          await signedIn.register(currentUserRoutes)
          await signedIn.register(linksRoutes)
          await signedIn.register(apiKeysRoutes)
          await signedIn.register(invoicesRoutes)
          await signedIn.register(paymentsRoutes)
          await signedIn.register(webhooksRoutes)
          await signedIn.register(usernameClaimRoutes)
          await signedIn.register(noticeSettingsRoutes)
          await signedIn.register(smartAccountsRoutes)
          await signedIn.register(solanaRoutes)
        })
        // Public: they read request.user (or not at all) and answer signed-out callers too.
        await api.register(configRoutes)
        await api.register(authRoutes)
        await api.register(usersRoutes)
        await api.register(payInvoiceRoutes)
        await api.register(depositsRoutes)
        await api.register(routeIntentsRoutes)
        await api.register(payStatusRoutes)
        await api.register(transactionsRoutes)
        await api.register(balancesRoutes)
        await api.register(receiptsRoutes)
        // Last: its /api/{provider}/… routes are parametric, so the static paths above win.
        await api.register(routingRoutes)
        if (config.devMode) await api.register(devRoutes, { mailOutbox, smsOutbox })
        if (config.devMode) await api.register(devExplorerRoutes)
        if (dependencies.extraApiRoutes) await api.register(dependencies.extraApiRoutes)
      },
      { prefix: '/api' },
    )
  })
  await app.register(webStaticPlugin, { distDir: config.webDistDir })

  await app.ready()
  return app
}
