import { timingSafeEqual } from 'node:crypto'
import { AppError } from '@quicklinks/core/app-error'
import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client'
import { createRequestSeries } from '../services/metrics/create-request-series.ts'
import {
  type DurationQuantiles,
  type PaymentMetrics,
  readPaymentMetrics,
} from '../services/metrics/read-payment-metrics.ts'

export type MetricsPluginOptions = {
  client: DatabaseClient
  /** When set, GET /metrics wants `Authorization: Bearer <token>`. */
  token: string | undefined
  /**
   * Production: /metrics is never open. Without a token it is refused (403) to everyone, since the
   * series name routes, traffic and payment volumes an outsider should not read.
   */
  isTokenRequired?: boolean
}

/** Probes and the scrape itself are not traffic worth a series. */
const unmeasuredPaths = new Set(['/health', '/ready', '/metrics'])
const latencyBucketsSeconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const plugin: FastifyPluginAsync<MetricsPluginOptions> = async (app, options) => {
  // One registry per app, so several apps in one process (tests) never share series.
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'ql_' })

  const requestSeries = createRequestSeries({
    registry,
    counterName: 'ql_http_requests_total',
    counterHelp: 'HTTP requests answered, by method, route pattern and status code.',
    histogramName: 'ql_http_request_duration_seconds',
    histogramHelp: 'Time to answer an HTTP request, by method and route pattern.',
    buckets: latencyBucketsSeconds,
  })
  const rateLimited = new Counter({
    name: 'ql_rate_limit_refusals_total',
    help: 'Requests refused with 429 by a rate limit, by route pattern.',
    labelNames: ['route'] as const,
    registers: [registry],
  })
  registerPaymentGauges(registry, options.client, app.log)
  registerPoolGauges(registry, options.client)

  // Measured per route (a hook added to each route but the probes), so a probe pays nothing,
  // and with its series bound once per route and method, so a request only adds to numbers.
  app.addHook('onRoute', (route) => {
    if (unmeasuredPaths.has(route.url)) return
    const url = route.url
    const series = new Map(
      [route.method].flat().map((method) => [method, requestSeries.createSeries(method, url)]),
    )
    const measure = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const bound = series.get(request.method)
      if (bound !== undefined) {
        bound.record(reply.statusCode, reply.elapsedTime / 1000)
        if (reply.statusCode === 429) rateLimited.labels(url).inc()
      }
      done()
    }
    const existing = route.onResponse
    route.onResponse = existing === undefined ? [measure] : [...[existing].flat(), measure]
  })

  // Counted per client like the API (a scraper asks every few seconds), so a token cannot be
  // tried at speed either.
  const scrapeLimit = { max: 120, timeWindow: 60_000 }
  const isClosed = options.token === undefined && options.isTokenRequired === true
  if (isClosed) app.log.warn('METRICS_TOKEN is not set: GET /metrics is refused in production')
  app.get(
    '/metrics',
    { config: { rateLimit: scrapeLimit }, schema: { hide: true } },
    // GET /metrics: the Prometheus text; 401 without the token, 403 in production without one configured.
    async (request, reply) => {
      if (isClosed) {
        throw new AppError('FORBIDDEN', {
          message: 'GET /metrics in production without METRICS_TOKEN',
          userMessage: 'Metrics are off on this server: set METRICS_TOKEN to scrape them.',
        })
      }
      if (options.token !== undefined && !hasBearerToken(request, options.token)) {
        throw new AppError('UNAUTHORIZED', { userMessage: 'A metrics token is required.' })
      }
      return reply.type(registry.contentType).send(await registry.metrics())
    },
  )
}

function hasBearerToken(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization ?? ''
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '')
  const expected = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** One read of the payment figures serves every gauge of a scrape (they are collected at once). */
const paymentReadReuseMs = 1_000

/** Payment figures read from the shared tables at scrape time (services/metrics). */
function registerPaymentGauges(registry: Registry, client: DatabaseClient, logger: FastifyBaseLogger): void {
  let latest: { at: number; metrics: Promise<PaymentMetrics | undefined> } | undefined
  // A database that does not answer leaves the payment series out of this scrape; the request
  // and process series still go out.
  const read = (): Promise<PaymentMetrics | undefined> => {
    const now = Date.now()
    if (latest === undefined || now - latest.at > paymentReadReuseMs) {
      const metrics = readPaymentMetrics(client.db).catch((error: unknown) => {
        logger.warn({ err: error }, 'Payment metrics could not be read')
        return undefined
      })
      latest = { at: now, metrics }
    }
    return latest.metrics
  }
  const gauge = (
    name: string,
    help: string,
    labelName: string,
    fill: (metrics: PaymentMetrics, set: (label: string, value: number) => void) => void,
  ) =>
    new Gauge({
      name,
      help,
      labelNames: [labelName],
      registers: [registry],
      async collect() {
        const metrics = await read()
        this.reset()
        if (metrics !== undefined) fill(metrics, (label, value) => this.set({ [labelName]: label }, value))
      },
    })
  const setQuantiles = (quantiles: DurationQuantiles, set: (label: string, value: number) => void) => {
    for (const [quantile, value] of [
      ['0.5', quantiles.p50],
      ['0.9', quantiles.p90],
      ['0.99', quantiles.p99],
    ] as const) {
      if (value !== null) set(quantile, value)
    }
  }

  new Gauge({
    name: 'ql_payments',
    help: "Route intents by provider and status ('quoted' until a payment is seen).",
    labelNames: ['provider', 'status'] as const,
    registers: [registry],
    async collect() {
      const metrics = await read()
      this.reset()
      for (const row of metrics?.intents ?? []) {
        this.set({ provider: row.provider, status: row.status }, row.count)
      }
    },
  })
  gauge('ql_relayer_deposits', 'Relayer deposits by state.', 'state', (metrics, set) => {
    for (const row of metrics.deposits) set(row.state, row.count)
  })
  gauge(
    'ql_payment_quote_to_success_seconds',
    'Quote to confirmed success over the last hour, by quantile (no sample when none finished).',
    'quantile',
    (metrics, set) => setQuantiles(metrics.quoteToSuccess, set),
  )
  gauge(
    'ql_relayer_deposit_to_fill_seconds',
    'Deposit seen to fill sent over the last hour, by quantile (no sample when none filled).',
    'quantile',
    (metrics, set) => setQuantiles(metrics.depositToFill, set),
  )
  gauge(
    'ql_worker_lag_seconds',
    'How long the oldest due item has waited for its worker (0 when none is overdue).',
    'worker',
    (metrics, set) => {
      set('tracker', metrics.workerLagSeconds.tracker)
      set('relayer', metrics.workerLagSeconds.relayer)
      set('webhooks', metrics.workerLagSeconds.webhooks)
    },
  )
  gauge(
    'ql_webhook_deliveries',
    'Webhook deliveries by state (pending is the queue depth; failed gave up after 8 tries).',
    'state',
    (metrics, set) => {
      for (const state of ['pending', 'succeeded', 'failed']) set(state, 0)
      for (const row of metrics.webhookDeliveries) set(row.state, row.count)
    },
  )
  gauge(
    'ql_webhook_attempts_last_hour',
    'Webhook tries over the last hour by outcome (2xx, 3xx, 4xx, 5xx, error when no answer came).',
    'outcome',
    (metrics, set) => {
      for (const row of metrics.webhookAttempts) set(row.outcome, row.count)
    },
  )
}

/** The Postgres pool's connections (PGlite has no pool: one embedded connection). */
function registerPoolGauges(registry: Registry, client: DatabaseClient): void {
  new Gauge({
    name: 'ql_database_pool_connections',
    help: 'Database pool connections by state (total, idle, waiting for a connection).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = client.kind === 'postgres' ? client.pool : undefined
      this.set({ state: 'total' }, pool?.totalCount ?? 1)
      this.set({ state: 'idle' }, pool?.idleCount ?? 0)
      this.set({ state: 'waiting' }, pool?.waitingCount ?? 0)
    },
  })
}

/**
 * Prometheus metrics at GET /metrics (prom-client): request rate and latency by route pattern,
 * rate-limit refusals, payments by provider and status, quote → success and deposit → fill
 * times, worker lag, webhook queue depth and try outcomes, the database pool and the process. Behind a bearer token when METRICS_TOKEN
 * is set; in production without one, refused to everyone. 120 scrapes a minute per client. Probes
 * are not measured.
 */
export const metricsPlugin = fp(plugin, { name: 'metrics', fastify: '5.x' })
