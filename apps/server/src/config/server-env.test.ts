import { join } from 'node:path'
import { repoRoot } from '@quicklinks/runtime/env'
import { parseSignerEnv } from '@quicklinks/signer/config/signer-env'
import { describe, expect, it } from 'vitest'
import { parseServerEnv } from './server-env.ts'

// The app server parses every section it owns (the host's, the signer's, its own); these tests
// read the variables through parseServerEnv, as src/main.ts does.
// Outside dev mode the master key is required; these tests are about other variables.
const masterKey = '5e'.repeat(32)
const deployed = { SIGNER_MASTER_KEY: masterKey }

describe('parseServerEnv', () => {
  it('applies the documented defaults, resolving paths against the repository root', () => {
    expect(parseServerEnv(deployed)).toEqual({
      port: 3000,
      host: '0.0.0.0',
      dataDir: join(repoRoot, '.data'),
      databaseUrl: undefined,
      devMode: false,
      devnetDeploymentFile: join(repoRoot, '.data', 'devnet', 'deployment.json'),
      publicOrigin: 'http://localhost:3000',
      webDistDir: join(repoRoot, 'apps', 'web', 'dist'),
      receiptSigningKey: undefined,
      x402FacilitatorUrl: undefined,
      logLevel: 'info',
      trustProxy: false,
      rateLimitMax: 600,
      production: false,
      framesPort: 3001,
      signerPort: 3002,
      framesOrigin: 'http://localhost:3001',
      signerMasterKey: masterKey,
      signerSessionSeconds: 900,
      signerCodeSendCaps: { perContactPerDay: 10, perPhonePrefixPerDay: 300 },
      signerQueryTimestampRequired: false,
      signerRateLimits: { sendsPerIpPerMinute: 20, codeChecksPerIpPerMinute: 30 },
      httpTimeouts: { requestMs: 30_000, connectionMs: 120_000, keepAliveMs: 72_000 },
      jwtProviders: [],
      oauthProviders: [],
      smtpUrl: undefined,
      smtpPort: 2525,
      mailFrom: 'Quick Links <no-reply@quicklinks.local>',
      sms: { provider: 'none' },
      routingProvider: 'local',
      squidApiUrl: 'https://v2.api.squidrouter.com',
      squidIntegratorId: undefined,
      rpcUrls: {},
      relayerPrivateKey: undefined,
      depositOperatorPrivateKey: undefined,
      workerIntervalMs: 1000,
      workerIdleIntervalMs: undefined,
      confirmations: {},
      defaultConfirmations: 2,
      bundlerUrls: {},
      smartAccountContracts: {},
      paymasterSignerKey: undefined,
      sponsorPolicies: [],
      sponsorDefaultPolicyId: null,
      multiOwnerEnabled: false,
      solanaRpcUrl: undefined,
      solanaDevnet: false,
      solanaSponsorKey: undefined,
      solanaSponsorPolicies: [],
      solanaSponsorDefaultPolicyId: null,
    })
  })

  it('reads WALLETCONNECT_PROJECT_ID as a 32-hex-digit project id, off when unset', () => {
    expect(parseServerEnv(deployed).walletConnectProjectId).toBeUndefined()
    expect(
      parseServerEnv({ ...deployed, WALLETCONNECT_PROJECT_ID: '0123456789abcdef0123456789ABCDEF' })
        .walletConnectProjectId,
    ).toBe('0123456789abcdef0123456789ABCDEF')
    expect(() => parseServerEnv({ ...deployed, WALLETCONNECT_PROJECT_ID: 'my-project' })).toThrow(
      /WALLETCONNECT_PROJECT_ID: must be a WalletConnect \(Reown\) project id/,
    )
  })

  it('reads RECEIPT_SIGNING_KEY as a 0x-prefixed 32-byte hex key, and says how to make one when it is not', () => {
    const key = `0x${'4b'.repeat(32)}`
    expect(parseServerEnv({ ...deployed, RECEIPT_SIGNING_KEY: key }).receiptSigningKey).toBe(key)
    expect(() => parseServerEnv({ ...deployed, RECEIPT_SIGNING_KEY: '4b'.repeat(32) })).toThrow(
      /RECEIPT_SIGNING_KEY: must be a secp256k1 private key: 0x followed by 64 hex digits/,
    )
  })

  it('reads X402_FACILITATOR_URL as an http(s) URL without its trailing slash, and refuses anything else', () => {
    const config = parseServerEnv({ ...deployed, X402_FACILITATOR_URL: 'https://x402.example/facilitator/' })
    expect(config.x402FacilitatorUrl).toBe('https://x402.example/facilitator')
    expect(() => parseServerEnv({ ...deployed, X402_FACILITATOR_URL: 'ftp://x402.example' })).toThrow(
      /X402_FACILITATOR_URL: must be an http\(s\) URL of an x402 facilitator/,
    )
  })

  it('derives the deployment file and the public origin from DATA_DIR and PORT', () => {
    const config = parseServerEnv({ PORT: '3100', DATA_DIR: '.data/e2e', DEV_MODE: 'true' })
    expect(config.devnetDeploymentFile).toBe(join(repoRoot, '.data', 'e2e', 'devnet', 'deployment.json'))
    expect(config.publicOrigin).toBe('http://localhost:3100')
    expect(config.devMode).toBe(true)
  })

  it('refuses dev mode behind an https origin, and a deployment without SIGNER_MASTER_KEY', () => {
    expect(() => parseServerEnv({ DEV_MODE: 'true', PUBLIC_ORIGIN: 'https://pay.example.com' })).toThrow(
      /DEV_MODE: dev mode shows every sign-in code at \/api\/dev\/mail, so it refuses an https PUBLIC_ORIGIN/,
    )
    expect(() => parseServerEnv({})).toThrow(/SIGNER_MASTER_KEY: required outside dev mode/)
    expect(parseServerEnv({ DEV_MODE: 'true' }).signerMasterKey).toBeUndefined()
  })

  it('PRODUCTION=true names every setting the devnet would otherwise fill in, and refuses dev mode', () => {
    const production = {
      ...deployed,
      PRODUCTION: 'true',
      DATABASE_URL: 'postgres://app@db:5432/quicklinks',
      REDIS_URL: 'redis://redis.internal:6379',
      PUBLIC_ORIGIN: 'https://pay.example.com',
      FRAMES_ORIGIN: 'https://frames.example.com',
      SMTP_URL: 'smtps://mailer:secret@smtp.example.com',
      RPC_URL_8453: 'https://base.example/rpc',
      ROUTING_PROVIDER: 'squid',
      SQUID_INTEGRATOR_ID: 'quick-links',
    }
    expect(parseServerEnv(production).rpcUrls).toEqual({ 8453: 'https://base.example/rpc' })
    let message = ''
    try {
      parseServerEnv({ SIGNER_MASTER_KEY: masterKey, PRODUCTION: 'true' })
    } catch (error) {
      message = (error as Error).message
    }
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'PUBLIC_ORIGIN', 'FRAMES_ORIGIN', 'SMTP_URL']) {
      expect(message).toContain(`  ${name}: required in production (`)
    }
    expect(message).toContain('  RPC_URL_<chainId>: required in production')
    expect(message).toContain('  DEVNET_DEPLOYMENT_FILE: ROUTING_PROVIDER=local needs')
    expect(() => parseServerEnv({ ...production, RPC_URL_8453: '' })).toThrow(/RPC_URL_<chainId>: required/)
    expect(() =>
      parseServerEnv({ ...production, DEV_MODE: 'true', PUBLIC_ORIGIN: 'http://localhost:3000' }),
    ).toThrow(/DEV_MODE: production never runs in dev mode/)
    expect(() => parseServerEnv({ ...production, ROUTING_PROVIDER: 'local' })).toThrow(
      /DEVNET_DEPLOYMENT_FILE: ROUTING_PROVIDER=local/,
    )
    expect(
      parseServerEnv({
        ...production,
        ROUTING_PROVIDER: 'local',
        DEVNET_DEPLOYMENT_FILE: '/etc/ql/contracts.json',
      }).devnetDeploymentFile,
    ).toBe('/etc/ql/contracts.json')
  })

  it('fails naming every invalid variable', () => {
    expect(() =>
      parseServerEnv({
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

  it("refuses a missing or invalid setting of its own with today's message, where the standalone signer (which parses none of them) starts", () => {
    const production = {
      ...deployed,
      PRODUCTION: 'true',
      DATABASE_URL: 'postgres://app@db:5432/quicklinks',
      REDIS_URL: 'redis://redis.internal:6379',
      PUBLIC_ORIGIN: 'https://pay.example.com',
      FRAMES_ORIGIN: 'https://frames.example.com',
      SMTP_URL: 'smtps://mailer:secret@smtp.example.com',
      RPC_URL_8453: 'https://base.example/rpc',
      ROUTING_PROVIDER: 'squid',
    }
    expect(() => parseServerEnv(production)).toThrow(
      /^Invalid environment:\n {2}SQUID_INTEGRATOR_ID: required when ROUTING_PROVIDER=squid$/,
    )
    expect(parseSignerEnv(production).production).toBe(true)
    const invalid = { ...production, SQUID_INTEGRATOR_ID: 'quick-links', SQUID_API_URL: 'squid' }
    expect(() => parseServerEnv(invalid)).toThrow(/^Invalid environment:\n {2}SQUID_API_URL: /)
    expect(parseSignerEnv(invalid).production).toBe(true)
    expect(parseServerEnv({ ...production, SQUID_INTEGRATOR_ID: 'quick-links' }).squidIntegratorId).toBe(
      'quick-links',
    )
  })
})
