import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseHostEnv, repoRoot } from './env.ts'

// The host's section alone; the signer's and the server's are tested beside their sections
// (apps/signer/src/config, apps/server/src/config), the whole server's in server-env.test.ts.
describe('parseHostEnv', () => {
  it('applies the documented defaults, resolving paths against the repository root', () => {
    expect(parseHostEnv({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      dataDir: join(repoRoot, '.data'),
      databaseUrl: undefined,
      devMode: false,
      publicOrigin: 'http://localhost:3000',
      logLevel: 'info',
      trustProxy: false,
      rateLimitMax: 600,
      production: false,
      httpTimeouts: { requestMs: 30_000, connectionMs: 120_000, keepAliveMs: 72_000 },
      smtpUrl: undefined,
      smtpPort: 2525,
      mailFrom: 'Quick Links <no-reply@quicklinks.local>',
      sms: { provider: 'none' },
    })
  })

  it('uses the dev SMTP catcher and SMS outbox in dev mode, and needs every Twilio setting', () => {
    const dev = parseHostEnv({ DEV_MODE: 'true', SMTP_PORT: '2625' })
    expect(dev.smtpUrl).toBe('smtp://127.0.0.1:2625')
    expect(dev.sms).toEqual({ provider: 'dev' })
    expect(() => parseHostEnv({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1' })).toThrow(
      /TWILIO_AUTH_TOKEN/,
    )
  })

  it('derives the public origin from PORT', () => {
    const config = parseHostEnv({ PORT: '3100', DATA_DIR: '.data/e2e', DEV_MODE: 'true' })
    expect(config.dataDir).toBe(join(repoRoot, '.data', 'e2e'))
    expect(config.publicOrigin).toBe('http://localhost:3100')
    expect(config.devMode).toBe(true)
  })

  it('keeps absolute paths and normalises PUBLIC_ORIGIN to an origin', () => {
    const config = parseHostEnv({
      DATA_DIR: '/var/lib/quicklinks',
      PUBLIC_ORIGIN: 'https://pay.example.com/',
      DATABASE_URL: 'postgres://app@db:5432/quicklinks',
    })
    expect(config.dataDir).toBe('/var/lib/quicklinks')
    expect(config.publicOrigin).toBe('https://pay.example.com')
    expect(config.databaseUrl).toBe('postgres://app@db:5432/quicklinks')
  })

  it('treats empty variables as unset', () => {
    expect(parseHostEnv({ DATABASE_URL: '', PORT: '' }).databaseUrl).toBeUndefined()
  })

  it('listens on loopback in dev mode unless HOST says otherwise, and on every interface when deployed', () => {
    expect(parseHostEnv({ DEV_MODE: 'true' }).host).toBe('127.0.0.1')
    expect(parseHostEnv({ DEV_MODE: 'true', HOST: '0.0.0.0' }).host).toBe('0.0.0.0')
    expect(parseHostEnv({}).host).toBe('0.0.0.0')
  })

  it('refuses dev mode behind an https origin', () => {
    expect(() => parseHostEnv({ DEV_MODE: 'true', PUBLIC_ORIGIN: 'https://pay.example.com' })).toThrow(
      /DEV_MODE: dev mode shows every sign-in code at \/api\/dev\/mail, so it refuses an https PUBLIC_ORIGIN/,
    )
  })

  it('reads TRUST_PROXY as a hop count or a list of proxy addresses and CIDRs, and refuses true', () => {
    const trustProxy = (value?: string) => parseHostEnv({ TRUST_PROXY: value }).trustProxy
    expect(trustProxy()).toBe(false)
    expect(trustProxy('false')).toBe(false)
    expect(trustProxy('0')).toBe(false)
    expect(trustProxy('1')).toBe(1)
    expect(trustProxy('2')).toBe(2)
    expect(trustProxy('10.0.0.0/8, 192.168.0.5,2001:db8::/32,loopback')).toEqual([
      '10.0.0.0/8',
      '192.168.0.5',
      '2001:db8::/32',
      'loopback',
    ])
    expect(() => trustProxy('true')).toThrow(
      /TRUST_PROXY: true would trust any client's X-Forwarded-For.*give the number of proxies in front of the server \(e\.g\. 1\) or their addresses or CIDRs/,
    )
    expect(() => trustProxy('10.0.0.0/33,proxy.internal')).toThrow(
      /TRUST_PROXY: "10\.0\.0\.0\/33", "proxy\.internal" is not a hop count, an IP address or a CIDR/,
    )
    expect(() => trustProxy('99')).toThrow(/TRUST_PROXY: a hop count is at most 32/)
  })

  it('reads REDIS_URL as a redis:// or rediss:// URL', () => {
    expect(parseHostEnv({}).redisUrl).toBeUndefined()
    expect(parseHostEnv({ REDIS_URL: 'rediss://:secret@redis.internal:6380/0' }).redisUrl).toBe(
      'rediss://:secret@redis.internal:6380/0',
    )
    expect(() => parseHostEnv({ REDIS_URL: 'http://redis.internal' })).toThrow(
      /REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/,
    )
  })

  it('PRODUCTION=true names every host setting the devnet would otherwise fill in, and refuses dev mode', () => {
    const production = {
      PRODUCTION: 'true',
      DATABASE_URL: 'postgres://app@db:5432/quicklinks',
      REDIS_URL: 'redis://redis.internal:6379',
      PUBLIC_ORIGIN: 'https://pay.example.com',
      SMTP_URL: 'smtps://mailer:secret@smtp.example.com',
    }
    expect(parseHostEnv(production).production).toBe(true)
    let message = ''
    try {
      parseHostEnv({ PRODUCTION: 'true' })
    } catch (error) {
      message = (error as Error).message
    }
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'PUBLIC_ORIGIN', 'SMTP_URL']) {
      expect(message).toContain(`  ${name}: required in production (`)
    }
    expect(() =>
      parseHostEnv({ ...production, DEV_MODE: 'true', PUBLIC_ORIGIN: 'http://localhost:3000' }),
    ).toThrow(/DEV_MODE: production never runs in dev mode/)
  })

  it('reads the HTTP timeouts (docs/api.md#timeouts), and refuses a keep-alive longer than the connection timeout', () => {
    const config = parseHostEnv({
      REQUEST_TIMEOUT_MS: '10000',
      CONNECTION_TIMEOUT_MS: '90000',
      KEEP_ALIVE_TIMEOUT_MS: '65000',
    })
    expect(config.httpTimeouts).toEqual({ requestMs: 10_000, connectionMs: 90_000, keepAliveMs: 65_000 })
    expect(() => parseHostEnv({ REQUEST_TIMEOUT_MS: '0' })).toThrow(
      /REQUEST_TIMEOUT_MS: must be whole milliseconds from 1000 to 3600000/,
    )
    expect(() => parseHostEnv({ KEEP_ALIVE_TIMEOUT_MS: '200000' })).toThrow(
      /KEEP_ALIVE_TIMEOUT_MS: must not exceed CONNECTION_TIMEOUT_MS \(120000\)/,
    )
  })

  it('fails naming every invalid variable', () => {
    expect(() =>
      parseHostEnv({
        PORT: 'eighty',
        DEV_MODE: 'yes',
        DATABASE_URL: 'mysql://x',
        PUBLIC_ORIGIN: 'ftp://x',
        LOG_LEVEL: 'loud',
      }),
    ).toThrow(
      /Invalid environment:\n {2}PORT: .*\n {2}DATABASE_URL: .*\n {2}DEV_MODE: must be 'true' or 'false'\n {2}PUBLIC_ORIGIN: .*\n {2}LOG_LEVEL: /,
    )
  })
})
