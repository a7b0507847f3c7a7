import { afterEach, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts'
import { parseServerEnv } from '../config/server-env.ts'
import { routeIntents } from '../db/schema.ts'

let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

async function scrape(app: TestApp, headers: Record<string, string> = {}): Promise<string> {
  const response = await app.app.inject({ method: 'GET', url: '/metrics', headers })
  expect(response.statusCode).toBe(200)
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
  return response.body
}

/** The value of one sample line, e.g. `ql_payments{provider="local",status="success"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('GET /metrics', () => {
  it('counts requests by method, route pattern and status, and leaves the probes out', async () => {
    testApp = await buildTestApp()
    await testApp.app.inject({ method: 'GET', url: '/health' })
    await testApp.app.inject({ method: 'GET', url: '/api/pay/links/no-such-link' })
    await testApp.app.inject({ method: 'GET', url: '/api/pay/links/another-missing-one' })

    const text = await scrape(testApp)
    expect(
      sample(text, 'ql_http_requests_total{method="GET",route="/api/pay/links/:slug",status_code="404"}'),
    ).toBe(2)
    expect(
      sample(text, 'ql_http_request_duration_seconds_count{method="GET",route="/api/pay/links/:slug"}'),
    ).toBe(2)
    expect(text).not.toContain('route="/health"')
    expect(text).toContain('ql_process_resident_memory_bytes')
    expect(sample(text, 'ql_database_pool_connections{state="total"}')).toBe(1)
  })

  it('reports payments by provider and status, quote → success time and worker lag from the database', async () => {
    testApp = await buildTestApp()
    const now = Date.now()
    const base = {
      provider: 'local',
      fromChainId: 8453,
      toChainId: 8453,
      fromToken: '0xaa',
      toToken: '0xbb',
      fromAmount: '1',
      toAmount: '1',
      toAmountMin: '1',
      fromAddress: '0xaa',
      toAddress: '0xbb',
      slippage: 1,
      transactionRequest: {},
      actions: [],
    }
    await testApp.database.db.insert(routeIntents).values([
      {
        ...base,
        id: `0x${'01'.repeat(32)}`,
        status: 'success',
        statusRaw: 'success',
        createdAt: new Date(now - 12_000),
        completedAt: new Date(now - 2_000),
      },
      // Paid, due for the tracker for 30 s and not looked at yet: the tracker lags 30 s.
      {
        ...base,
        id: `0x${'02'.repeat(32)}`,
        status: 'submitted',
        statusRaw: 'submitted',
        nextCheckAt: new Date(now - 30_000),
      },
      { ...base, id: `0x${'03'.repeat(32)}` },
    ])

    const text = await scrape(testApp)
    expect(sample(text, 'ql_payments{provider="local",status="success"}')).toBe(1)
    expect(sample(text, 'ql_payments{provider="local",status="submitted"}')).toBe(1)
    expect(sample(text, 'ql_payments{provider="local",status="quoted"}')).toBe(1)
    expect(sample(text, 'ql_payment_quote_to_success_seconds{quantile="0.5"}')).toBeCloseTo(10, 0)
    expect(sample(text, 'ql_worker_lag_seconds{worker="tracker"}')).toBeGreaterThanOrEqual(29)
    expect(sample(text, 'ql_worker_lag_seconds{worker="relayer"}')).toBe(0)
    // Nothing filled in the last hour: no quantile sample rather than a made-up zero.
    expect(text).not.toContain('ql_relayer_deposit_to_fill_seconds{')
  })

  it('counts rate-limit refusals by route', async () => {
    testApp = await buildTestApp({ rateLimitMax: 1 })
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await testApp.app.inject({
        method: 'GET',
        url: '/api/pay/links/some-link',
        remoteAddress: '198.51.100.7',
      })
    }
    const text = await scrape(testApp)
    expect(sample(text, 'ql_rate_limit_refusals_total{route="/api/pay/links/:slug"}')).toBe(2)
    expect(
      sample(text, 'ql_http_requests_total{method="GET",route="/api/pay/links/:slug",status_code="429"}'),
    ).toBe(2)
  })

  it('wants the bearer token when METRICS_TOKEN is set', async () => {
    const token = 'a-metrics-token-of-32-characters'
    testApp = await buildTestApp({ metricsToken: token })
    const refused = await testApp.app.inject({ method: 'GET', url: '/metrics' })
    expect(refused.statusCode).toBe(401)
    expect(refused.body).not.toContain('ql_http_requests_total')
    const wrong = await testApp.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${token.replace(/.$/, 'x')}` },
    })
    expect(wrong.statusCode).toBe(401)
    expect(await scrape(testApp, { authorization: `Bearer ${token}` })).toContain('ql_http_requests_total')
  })

  describe('with PRODUCTION=true', () => {
    /** The config `npm run serve` makes from a deployment's environment, plus `extra`. */
    function productionConfig(extra: Record<string, string> = {}) {
      return parseServerEnv({
        PRODUCTION: 'true',
        SIGNER_MASTER_KEY: '5e'.repeat(32),
        DATABASE_URL: 'postgres://app@db:5432/quicklinks',
        REDIS_URL: 'redis://redis.internal:6379',
        PUBLIC_ORIGIN: 'https://pay.example.com',
        FRAMES_ORIGIN: 'https://frames.example.com',
        SMTP_URL: 'smtps://mailer:secret@smtp.example.com',
        RPC_URL_8453: 'https://base.example/rpc',
        ROUTING_PROVIDER: 'squid',
        SQUID_INTEGRATOR_ID: 'quick-links',
        ...extra,
      })
    }

    it('refuses every scrape when no METRICS_TOKEN is configured, whatever token is sent, and says so at start', async () => {
      const { production, metricsToken } = productionConfig()
      testApp = await buildTestApp({ production, metricsToken })
      for (const headers of [{}, { authorization: 'Bearer a-metrics-token-of-32-characters' }]) {
        const refused = await testApp.app.inject({ method: 'GET', url: '/metrics', headers })
        expect(refused.statusCode).toBe(403)
        expect(refused.json().error.message).toBe(
          'Metrics are off on this server: set METRICS_TOKEN to scrape them.',
        )
        expect(refused.body).not.toContain('ql_http_requests_total')
      }
      expect(testApp.logs.some((line) => String(line.msg).includes('METRICS_TOKEN is not set'))).toBe(true)
    })

    it('wants the configured token: none or a wrong one is 401, the right one scrapes', async () => {
      const token = 'a-production-metrics-token-32-ch'
      const { production, metricsToken } = productionConfig({ METRICS_TOKEN: token })
      testApp = await buildTestApp({ production, metricsToken })
      expect((await testApp.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401)
      const wrong = await testApp.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${token.toUpperCase()}` },
      })
      expect(wrong.statusCode).toBe(401)
      expect(await scrape(testApp, { authorization: `Bearer ${token}` })).toContain('ql_http_requests_total')
    })
  })
})
