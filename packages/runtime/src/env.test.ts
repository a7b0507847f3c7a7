import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { getConfirmations, parseEnv, repoRoot } from './env.ts'

// Outside dev mode the master key is required; these tests are about other variables.
const masterKey = '5e'.repeat(32)
const deployed = { SIGNER_MASTER_KEY: masterKey }

/** Base58 (Bitcoin's alphabet), for building SOLANA_SPONSOR_KEY values. */
function encodeBase58(bytes: Uint8Array): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
  let number = BigInt(`0x${Buffer.from(bytes).toString('hex')}`)
  let text = ''
  while (number > 0n) {
    text = alphabet[Number(number % 58n)] + text
    number /= 58n
  }
  const leadingZeros = bytes.findIndex((byte) => byte !== 0)
  return '1'.repeat(leadingZeros < 0 ? bytes.length : leadingZeros) + text
}

describe('parseEnv', () => {
  it('applies the documented defaults, resolving paths against the repository root', () => {
    expect(parseEnv(deployed)).toEqual({
      port: 3000,
      host: '0.0.0.0',
      dataDir: join(repoRoot, '.data'),
      databaseUrl: undefined,
      devMode: false,
      devnetDeploymentFile: join(repoRoot, '.data', 'devnet', 'deployment.json'),
      publicOrigin: 'http://localhost:3000',
      webDistDir: join(repoRoot, 'apps', 'web', 'dist'),
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
      workerIntervalMs: 1000,
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

  it('reads a confirmation depth per chain: CONFIRMATIONS_<chainId>, else CONFIRMATIONS_DEFAULT, else 0 in dev mode and 2 otherwise', () => {
    const config = parseEnv({ ...deployed, CONFIRMATIONS_8453: '5', CONFIRMATIONS_42161: '0' })
    expect(config.confirmations).toEqual({ 8453: 5, 42161: 0 })
    expect(getConfirmations(config, 8453)).toBe(5)
    expect(getConfirmations(config, 42161)).toBe(0)
    expect(getConfirmations(config, 43114)).toBe(2)
    expect(getConfirmations(parseEnv({ DEV_MODE: 'true' }), 43114)).toBe(0)
    expect(getConfirmations(parseEnv({ DEV_MODE: 'true', CONFIRMATIONS_DEFAULT: '3' }), 1)).toBe(3)
    expect(() => parseEnv({ ...deployed, CONFIRMATIONS_1: 'two' })).toThrow(
      /CONFIRMATIONS_1: must be a whole number of blocks, 0 to 1000/,
    )
  })

  it('reads RPC_URL_<chainId> variables and needs SQUID_INTEGRATOR_ID for the squid provider', () => {
    const config = parseEnv({
      ...deployed,
      RPC_URL_8453: 'https://base.example/rpc',
      RPC_URL_42161: 'http://127.0.0.1:8547',
    })
    expect(config.rpcUrls).toEqual({ 8453: 'https://base.example/rpc', 42161: 'http://127.0.0.1:8547' })
    expect(() => parseEnv({ ...deployed, RPC_URL_1: 'ftp://nope' })).toThrow(
      /RPC_URL_1: must be an http\(s\) URL/,
    )
    expect(() => parseEnv({ ...deployed, ROUTING_PROVIDER: 'squid' })).toThrow(/SQUID_INTEGRATOR_ID/)
    expect(
      parseEnv({ ...deployed, ROUTING_PROVIDER: 'squid', SQUID_INTEGRATOR_ID: 'acme-1' }).squidIntegratorId,
    ).toBe('acme-1')
  })

  it('reads WALLETCONNECT_PROJECT_ID as a 32-hex-digit project id, off when unset', () => {
    expect(parseEnv(deployed).walletConnectProjectId).toBeUndefined()
    expect(
      parseEnv({ ...deployed, WALLETCONNECT_PROJECT_ID: '0123456789abcdef0123456789ABCDEF' })
        .walletConnectProjectId,
    ).toBe('0123456789abcdef0123456789ABCDEF')
    expect(() => parseEnv({ ...deployed, WALLETCONNECT_PROJECT_ID: 'my-project' })).toThrow(
      /WALLETCONNECT_PROJECT_ID: must be a WalletConnect \(Reown\) project id/,
    )
  })

  it('reads OAUTH_PROVIDERS as a JSON array of {id, issuer, clientId, clientSecret?, scope?}, naming each problem', () => {
    const google = {
      id: 'google',
      issuer: 'https://accounts.google.com',
      clientId: 'app.apps.googleusercontent.com',
    }
    const oauthProviders = (value: unknown, extra: Record<string, string> = {}) =>
      parseEnv({ ...deployed, ...extra, OAUTH_PROVIDERS: JSON.stringify(value) }).oauthProviders
    expect(parseEnv(deployed).oauthProviders).toEqual([])
    const custom = {
      id: 'acme',
      issuer: 'https://login.acme.example/',
      clientId: 'ql',
      clientSecret: 's3',
      scope: 'openid email',
    }
    expect(oauthProviders([google, custom])).toEqual([
      google,
      { ...custom, issuer: 'https://login.acme.example' },
    ])
    expect(() => parseEnv({ ...deployed, OAUTH_PROVIDERS: '[{id: google}]' })).toThrow(
      /OAUTH_PROVIDERS: must be a JSON array of \{id, issuer, clientId, clientSecret\?, scope\?\}, but it is not JSON/,
    )
    expect(() => oauthProviders([{ ...google, issuer: 'accounts.google.com' }])).toThrow(
      /OAUTH_PROVIDERS: \[0\]\.issuer: must be the http\(s\) issuer URL/,
    )
    expect(() => oauthProviders([google, google])).toThrow(/OAUTH_PROVIDERS: \[1\]\.id: id is given twice/)
    expect(() => oauthProviders([{ ...google, client_id: 'x' }])).toThrow(
      /OAUTH_PROVIDERS: \[0\]: .*client_id/,
    )
    const plain = { ...custom, issuer: 'http://login.acme.example' }
    expect(() => oauthProviders([plain])).toThrow(
      /OAUTH_PROVIDERS: \[0\]\.issuer: must be https outside dev mode/,
    )
    expect(oauthProviders([plain], { DEV_MODE: 'true' })).toEqual([plain])
  })

  it('reads JWT_PROVIDERS as a JSON array of {id, issuer, jwksUrl, audience, requires?, maxAgeSeconds?}, naming the entry and field of each problem', () => {
    const acme = {
      id: 'acme',
      issuer: 'https://auth.acme.example',
      jwksUrl: 'https://auth.acme.example/.well-known/jwks.json',
      audience: 'quick-links',
    }
    const jwtProviders = (value: unknown, extra: Record<string, string> = {}) =>
      parseEnv({ ...deployed, ...extra, JWT_PROVIDERS: JSON.stringify(value) }).jwtProviders
    expect(parseEnv(deployed).jwtProviders).toEqual([])
    expect(jwtProviders([acme])).toEqual([acme])
    expect(() => parseEnv({ ...deployed, JWT_PROVIDERS: '[{id: acme}]' })).toThrow(
      /JWT_PROVIDERS: must be a JSON array of \{id, issuer, jwksUrl, audience, requires\?, maxAgeSeconds\?\}, but it is not JSON \(/,
    )
    expect(() => jwtProviders(acme)).toThrow(
      /JWT_PROVIDERS: must be a JSON array of \{id, issuer, jwksUrl, audience, requires\?, maxAgeSeconds\?\}$/,
    )
    expect(() => jwtProviders([{ ...acme, jwksUrl: 'auth.acme.example/jwks' }])).toThrow(
      /JWT_PROVIDERS: \[0\]\.jwksUrl: must be the http\(s\) URL of the issuer's JSON Web Key Set/,
    )
    const { audience: _, ...withoutAudience } = acme
    expect(() => jwtProviders([withoutAudience])).toThrow(
      /JWT_PROVIDERS: \[0\]\.audience: must be the aud claim/,
    )
    expect(() => jwtProviders([{ ...acme, jwks_url: acme.jwksUrl }])).toThrow(
      /JWT_PROVIDERS: \[0\]: .*jwks_url/,
    )
    expect(() => jwtProviders([{ ...acme, issuer: 'a|b' }])).toThrow(
      /JWT_PROVIDERS: \[0\]\.issuer: must not contain \|/,
    )
    expect(() => jwtProviders([acme, { ...acme, issuer: 'https://other.example' }])).toThrow(
      /JWT_PROVIDERS: \[1\]\.id: id is given twice/,
    )
    // Keys fetched over http could be swapped in transit: only on loopback or in dev mode.
    const plain = { ...acme, jwksUrl: 'http://auth.acme.example/jwks.json' }
    expect(() => jwtProviders([plain])).toThrow(
      /JWT_PROVIDERS: \[0\]\.jwksUrl: must be https outside dev mode/,
    )
    expect(jwtProviders([plain], { DEV_MODE: 'true' })).toEqual([plain])
    const loopback = { ...acme, jwksUrl: 'http://127.0.0.1:8080/jwks.json' }
    expect(jwtProviders([loopback])).toEqual([loopback])
    // A token is single use by its nonce (default) or by jti with a short maximum age.
    const singleUse = { ...acme, requires: 'jti', maxAgeSeconds: 120 }
    expect(jwtProviders([singleUse])).toEqual([singleUse])
    expect(() => jwtProviders([{ ...acme, requires: 'none' }])).toThrow(
      /JWT_PROVIDERS: \[0\]\.requires: must be "nonce" \(the default\) or "jti"/,
    )
    expect(() => jwtProviders([{ ...acme, requires: 'jti', maxAgeSeconds: 86_400 }])).toThrow(
      /JWT_PROVIDERS: \[0\]\.maxAgeSeconds: must be at most 3600/,
    )
    expect(() => jwtProviders([{ ...acme, maxAgeSeconds: 60 }])).toThrow(
      /JWT_PROVIDERS: \[0\]\.maxAgeSeconds: only applies with "requires": "jti"/,
    )
  })

  it('uses the dev SMTP catcher and SMS outbox in dev mode, and needs every Twilio setting', () => {
    const dev = parseEnv({ DEV_MODE: 'true', SMTP_PORT: '2625' })
    expect(dev.smtpUrl).toBe('smtp://127.0.0.1:2625')
    expect(dev.sms).toEqual({ provider: 'dev' })
    expect(() => parseEnv({ ...deployed, SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1' })).toThrow(
      /TWILIO_AUTH_TOKEN/,
    )
    expect(parseEnv({ ...deployed, FRAMES_PORT: '3101' }).framesOrigin).toBe('http://localhost:3101')
  })

  it('derives the deployment file and the public origin from DATA_DIR and PORT', () => {
    const config = parseEnv({ PORT: '3100', DATA_DIR: '.data/e2e', DEV_MODE: 'true' })
    expect(config.devnetDeploymentFile).toBe(join(repoRoot, '.data', 'e2e', 'devnet', 'deployment.json'))
    expect(config.publicOrigin).toBe('http://localhost:3100')
    expect(config.devMode).toBe(true)
  })

  it('keeps absolute paths and normalises PUBLIC_ORIGIN to an origin', () => {
    const config = parseEnv({
      ...deployed,
      DATA_DIR: '/var/lib/quicklinks',
      PUBLIC_ORIGIN: 'https://pay.example.com/',
      DATABASE_URL: 'postgres://app@db:5432/quicklinks',
    })
    expect(config.dataDir).toBe('/var/lib/quicklinks')
    expect(config.publicOrigin).toBe('https://pay.example.com')
    expect(config.databaseUrl).toBe('postgres://app@db:5432/quicklinks')
  })

  it('treats empty variables as unset', () => {
    expect(parseEnv({ ...deployed, DATABASE_URL: '', PORT: '' }).databaseUrl).toBeUndefined()
  })

  it('listens on loopback in dev mode unless HOST says otherwise, and on every interface when deployed', () => {
    expect(parseEnv({ DEV_MODE: 'true' }).host).toBe('127.0.0.1')
    expect(parseEnv({ DEV_MODE: 'true', HOST: '0.0.0.0' }).host).toBe('0.0.0.0')
    expect(parseEnv(deployed).host).toBe('0.0.0.0')
  })

  it('refuses dev mode behind an https origin, and a deployment without SIGNER_MASTER_KEY', () => {
    expect(() => parseEnv({ DEV_MODE: 'true', PUBLIC_ORIGIN: 'https://pay.example.com' })).toThrow(
      /DEV_MODE: dev mode shows every sign-in code at \/api\/dev\/mail, so it refuses an https PUBLIC_ORIGIN/,
    )
    expect(() => parseEnv({})).toThrow(/SIGNER_MASTER_KEY: required outside dev mode/)
    expect(parseEnv({ DEV_MODE: 'true' }).signerMasterKey).toBeUndefined()
  })

  it('reads TRUST_PROXY as a hop count or a list of proxy addresses and CIDRs, and refuses true', () => {
    const trustProxy = (value?: string) => parseEnv({ ...deployed, TRUST_PROXY: value }).trustProxy
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
    expect(parseEnv(deployed).redisUrl).toBeUndefined()
    expect(parseEnv({ ...deployed, REDIS_URL: 'rediss://:secret@redis.internal:6380/0' }).redisUrl).toBe(
      'rediss://:secret@redis.internal:6380/0',
    )
    expect(() => parseEnv({ ...deployed, REDIS_URL: 'http://redis.internal' })).toThrow(
      /REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/,
    )
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
    expect(parseEnv(production).rpcUrls).toEqual({ 8453: 'https://base.example/rpc' })
    let message = ''
    try {
      parseEnv({ SIGNER_MASTER_KEY: masterKey, PRODUCTION: 'true' })
    } catch (error) {
      message = (error as Error).message
    }
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'PUBLIC_ORIGIN', 'FRAMES_ORIGIN', 'SMTP_URL']) {
      expect(message).toContain(`  ${name}: required in production (`)
    }
    expect(message).toContain('  RPC_URL_<chainId>: required in production')
    expect(message).toContain('  DEVNET_DEPLOYMENT_FILE: ROUTING_PROVIDER=local needs')
    expect(() => parseEnv({ ...production, RPC_URL_8453: '' })).toThrow(/RPC_URL_<chainId>: required/)
    expect(() =>
      parseEnv({ ...production, DEV_MODE: 'true', PUBLIC_ORIGIN: 'http://localhost:3000' }),
    ).toThrow(/DEV_MODE: production never runs in dev mode/)
    expect(() => parseEnv({ ...production, ROUTING_PROVIDER: 'local' })).toThrow(
      /DEVNET_DEPLOYMENT_FILE: ROUTING_PROVIDER=local/,
    )
    expect(
      parseEnv({ ...production, ROUTING_PROVIDER: 'local', DEVNET_DEPLOYMENT_FILE: '/etc/ql/contracts.json' })
        .devnetDeploymentFile,
    ).toBe('/etc/ql/contracts.json')
  })

  it('reads BUNDLER_URL_<chainId> and the per-chain smart-account contract addresses', () => {
    const factory = '0x1111111111111111111111111111111111111111'
    const paymaster = '0x2222222222222222222222222222222222222222'
    const config = parseEnv({
      ...deployed,
      BUNDLER_URL_8453: 'https://bundler.example/base',
      SMART_ACCOUNT_FACTORY_8453: factory,
      PAYMASTER_ADDRESS_8453: paymaster,
      SIMPLE_7702_ACCOUNT_10: factory,
    })
    expect(config.bundlerUrls).toEqual({ 8453: 'https://bundler.example/base' })
    expect(config.smartAccountContracts).toEqual({
      8453: { accountFactory: factory, paymaster },
      10: { simple7702Account: factory },
    })
    expect(() => parseEnv({ ...deployed, BUNDLER_URL_1: 'ws://bundler' })).toThrow(
      /BUNDLER_URL_1: must be an http\(s\) URL/,
    )
    expect(() => parseEnv({ ...deployed, MULTI_OWNER_ACCOUNT_FACTORY_1: '0x12' })).toThrow(
      /MULTI_OWNER_ACCOUNT_FACTORY_1: must be a 20-byte hex address/,
    )
  })

  it('reads SPONSOR_POLICIES, defaults to the devnet policy in dev mode, and checks SPONSOR_DEFAULT_POLICY', () => {
    expect(parseEnv(deployed).sponsorPolicies).toEqual([])
    const dev = parseEnv({ DEV_MODE: 'true' })
    expect(dev.sponsorPolicies.map((policy) => policy.id)).toEqual(['devnet-wallet'])
    expect(dev.sponsorDefaultPolicyId).toBe('devnet-wallet')
    const policies = JSON.stringify([
      {
        id: 'wallet',
        chainIds: [8453],
        accounts: 'embedded',
        tokens: ['USDC', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'],
        dailyGasCapWei: '1000000000000000',
        globalDailyGasCapWei: '100000000000000000',
      },
      {
        id: 'router',
        accounts: 'embedded',
        contracts: ['0x1111111111111111111111111111111111111111'],
        dailyGasCapWei: '1',
        globalDailyGasCapWei: '1',
      },
    ])
    const config = parseEnv({ ...deployed, SPONSOR_POLICIES: policies, SPONSOR_DEFAULT_POLICY: 'router' })
    expect(config.sponsorPolicies).toEqual([
      {
        id: 'wallet',
        chainIds: [8453],
        accounts: 'embedded',
        tokens: ['USDC', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'],
        contracts: [],
        dailyGasCapWei: 1_000_000_000_000_000n,
        globalDailyGasCapWei: 100_000_000_000_000_000n,
      },
      {
        id: 'router',
        accounts: 'embedded',
        tokens: [],
        contracts: ['0x1111111111111111111111111111111111111111'],
        dailyGasCapWei: 1n,
        globalDailyGasCapWei: 1n,
      },
    ])
    expect(config.sponsorDefaultPolicyId).toBe('router')
    expect(parseEnv({ ...deployed, SPONSOR_POLICIES: policies }).sponsorDefaultPolicyId).toBe('wallet')
    expect(() =>
      parseEnv({ ...deployed, SPONSOR_POLICIES: policies, SPONSOR_DEFAULT_POLICY: 'other' }),
    ).toThrow(/SPONSOR_DEFAULT_POLICY: "other" is not the id of a policy/)
    expect(() =>
      parseEnv({
        ...deployed,
        SPONSOR_POLICIES: '[{"id":"x","accounts":"anyone","dailyGasCapWei":"1"}]',
      }),
    ).toThrow(/SPONSOR_POLICIES: \[0\]\.accounts: must be "embedded"/)
    expect(() =>
      parseEnv({ ...deployed, SPONSOR_POLICIES: '[{"id":"x","accounts":"embedded","dailyGasCapWei":1}]' }),
    ).toThrow(/\[0\]\.dailyGasCapWei: must be a whole number of wei, as a string/)
    // Every policy has a budget for all its users together, never below one user's.
    expect(() =>
      parseEnv({ ...deployed, SPONSOR_POLICIES: '[{"id":"x","accounts":"embedded","dailyGasCapWei":"10"}]' }),
    ).toThrow(/\[0\]\.globalDailyGasCapWei: must be a whole number of wei, as a string/)
    expect(() =>
      parseEnv({
        ...deployed,
        SPONSOR_POLICIES:
          '[{"id":"x","accounts":"embedded","dailyGasCapWei":"10","globalDailyGasCapWei":"9"}]',
      }),
    ).toThrow(/\[0\]\.globalDailyGasCapWei: globalDailyGasCapWei \(all users together\) must be at least/)
    expect(() => parseEnv({ ...deployed, PAYMASTER_SIGNER_KEY: '0x12' })).toThrow(
      /PAYMASTER_SIGNER_KEY: must be/,
    )
  })

  it('PRODUCTION=true needs PAYMASTER_SIGNER_KEY with policies, and each bundler chain its contracts', () => {
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
      BUNDLER_URL_8453: 'https://bundler.example/base',
      SPONSOR_POLICIES:
        '[{"id":"wallet","accounts":"embedded","tokens":["USDC"],"dailyGasCapWei":"1000","globalDailyGasCapWei":"100000"}]',
    }
    let message = ''
    try {
      parseEnv(production)
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain('  PAYMASTER_SIGNER_KEY: required in production when SPONSOR_POLICIES is set')
    expect(message).toContain(
      '  BUNDLER_URL_8453: smart accounts on chain 8453 also need SMART_ACCOUNT_FACTORY_8453, MULTI_OWNER_ACCOUNT_FACTORY_8453, SIMPLE_7702_ACCOUNT_8453, PAYMASTER_ADDRESS_8453',
    )
    const address = '0x1111111111111111111111111111111111111111'
    const complete = parseEnv({
      ...production,
      PAYMASTER_SIGNER_KEY: `0x${'ab'.repeat(32)}`,
      SMART_ACCOUNT_FACTORY_8453: address,
      MULTI_OWNER_ACCOUNT_FACTORY_8453: address,
      SIMPLE_7702_ACCOUNT_8453: address,
      PAYMASTER_ADDRESS_8453: address,
    })
    expect(complete.sponsorDefaultPolicyId).toBe('wallet')
  })

  it('reads the Solana settings: LiteSVM in dev mode without SOLANA_RPC_URL, the devnet-solana policy by default, SOLANA_SPONSOR_KEY checked', () => {
    const dev = parseEnv({ DEV_MODE: 'true' })
    expect(dev.solanaDevnet).toBe(true)
    expect(dev.solanaRpcUrl).toBeUndefined()
    expect(dev.solanaSponsorDefaultPolicyId).toBe('devnet-solana')
    expect(dev.solanaSponsorPolicies).toEqual([
      {
        id: 'devnet-solana',
        programs: [
          '11111111111111111111111111111111',
          'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
          'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
          'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
          'ComputeBudget111111111111111111111111111111',
        ],
        maxFeeLamports: 50_000n,
        dailyFeeCapLamports: 10_000_000n,
        globalDailyFeeCapLamports: 1_000_000_000n,
      },
    ])
    expect(parseEnv({ DEV_MODE: 'true', SOLANA_RPC_URL: 'http://127.0.0.1:8899' }).solanaDevnet).toBe(false)
    const policies = JSON.stringify([
      {
        id: 'transfers',
        programs: ['11111111111111111111111111111111'],
        maxFeeLamports: 10000,
        dailyFeeCapLamports: '500000',
        globalDailyFeeCapLamports: '50000000',
      },
      {
        id: 'other',
        programs: ['ComputeBudget111111111111111111111111111111'],
        maxFeeLamports: '5000',
        dailyFeeCapLamports: 5000,
        globalDailyFeeCapLamports: 5000,
      },
    ])
    // A 64-byte key: 64 bytes of 0x01 in base58.
    const key = encodeBase58(new Uint8Array(64).fill(1))
    const config = parseEnv({
      ...deployed,
      SOLANA_RPC_URL: 'https://solana.example/rpc',
      SOLANA_SPONSOR_KEY: key,
      SOLANA_SPONSOR_POLICIES: policies,
      SOLANA_SPONSOR_DEFAULT_POLICY: 'other',
    })
    expect(config).toMatchObject({
      solanaRpcUrl: 'https://solana.example/rpc',
      solanaDevnet: false,
      solanaSponsorKey: key,
      solanaSponsorDefaultPolicyId: 'other',
      solanaSponsorPolicies: [
        {
          id: 'transfers',
          programs: ['11111111111111111111111111111111'],
          maxFeeLamports: 10_000n,
          dailyFeeCapLamports: 500_000n,
          globalDailyFeeCapLamports: 50_000_000n,
        },
        {
          id: 'other',
          programs: ['ComputeBudget111111111111111111111111111111'],
          maxFeeLamports: 5_000n,
          dailyFeeCapLamports: 5_000n,
          globalDailyFeeCapLamports: 5_000n,
        },
      ],
    })
    expect(parseEnv({ ...deployed, SOLANA_SPONSOR_POLICIES: policies }).solanaSponsorDefaultPolicyId).toBe(
      'transfers',
    )
    expect(() =>
      parseEnv({ ...deployed, SOLANA_SPONSOR_POLICIES: policies, SOLANA_SPONSOR_DEFAULT_POLICY: 'nope' }),
    ).toThrow(/SOLANA_SPONSOR_DEFAULT_POLICY: "nope" is not the id of a policy in SOLANA_SPONSOR_POLICIES/)
    expect(() =>
      parseEnv({
        ...deployed,
        SOLANA_SPONSOR_POLICIES:
          '[{"id":"x","programs":["0xabc"],"maxFeeLamports":1,"dailyFeeCapLamports":1,"globalDailyFeeCapLamports":1}]',
      }),
    ).toThrow(
      /SOLANA_SPONSOR_POLICIES: \[0\]\.programs\.\[0\]: must be a base58 program id|SOLANA_SPONSOR_POLICIES: \[0\]\.programs\[0\]: must be a base58 program id/,
    )
    expect(() =>
      parseEnv({
        ...deployed,
        SOLANA_SPONSOR_POLICIES:
          '[{"id":"x","programs":["11111111111111111111111111111111"],"maxFeeLamports":-1,"dailyFeeCapLamports":1,"globalDailyFeeCapLamports":1}]',
      }),
    ).toThrow(/\[0\]\.maxFeeLamports: must be a whole number of lamports/)
    // Every policy names what all users together may be granted a day.
    expect(() =>
      parseEnv({
        ...deployed,
        SOLANA_SPONSOR_POLICIES:
          '[{"id":"x","programs":["11111111111111111111111111111111"],"maxFeeLamports":1,"dailyFeeCapLamports":1}]',
      }),
    ).toThrow(/\[0\]\.globalDailyFeeCapLamports: must be a whole number of lamports/)
    // 32 bytes is a public key, not a secret key.
    expect(() => parseEnv({ ...deployed, SOLANA_SPONSOR_KEY: '11111111111111111111111111111111' })).toThrow(
      /SOLANA_SPONSOR_KEY: must be a 64-byte Solana secret key in base58/,
    )
    expect(() => parseEnv({ ...deployed, SOLANA_SPONSOR_KEY: `${key.slice(1)}0` })).toThrow(
      /SOLANA_SPONSOR_KEY: must be/,
    )
    expect(() => parseEnv({ ...deployed, SOLANA_RPC_URL: 'ws://solana' })).toThrow(
      /SOLANA_RPC_URL: must be the http\(s\) URL of a Solana JSON-RPC node/,
    )
  })

  it('PRODUCTION=true needs SOLANA_SPONSOR_KEY and SOLANA_RPC_URL with Solana policies', () => {
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
    expect(parseEnv(production).solanaSponsorPolicies).toEqual([])
    const withPolicies = {
      ...production,
      SOLANA_SPONSOR_POLICIES:
        '[{"id":"transfers","programs":["11111111111111111111111111111111"],"maxFeeLamports":10000,"dailyFeeCapLamports":100000,"globalDailyFeeCapLamports":10000000}]',
    }
    let message = ''
    try {
      parseEnv(withPolicies)
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain(
      '  SOLANA_SPONSOR_KEY: required in production when SOLANA_SPONSOR_POLICIES is set',
    )
    expect(message).toContain('  SOLANA_RPC_URL: required in production when SOLANA_SPONSOR_POLICIES is set')
    const complete = parseEnv({
      ...withPolicies,
      SOLANA_RPC_URL: 'https://solana.example/rpc',
      SOLANA_SPONSOR_KEY: encodeBase58(new Uint8Array(64).fill(7)),
    })
    expect(complete.solanaSponsorDefaultPolicyId).toBe('transfers')
    expect(complete.solanaDevnet).toBe(false)
  })

  it('reads the HTTP timeouts (docs/api.md#timeouts), and refuses a keep-alive longer than the connection timeout', () => {
    const config = parseEnv({
      ...deployed,
      REQUEST_TIMEOUT_MS: '10000',
      CONNECTION_TIMEOUT_MS: '90000',
      KEEP_ALIVE_TIMEOUT_MS: '65000',
    })
    expect(config.httpTimeouts).toEqual({ requestMs: 10_000, connectionMs: 90_000, keepAliveMs: 65_000 })
    expect(() => parseEnv({ ...deployed, REQUEST_TIMEOUT_MS: '0' })).toThrow(
      /REQUEST_TIMEOUT_MS: must be whole milliseconds from 1000 to 3600000/,
    )
    expect(() => parseEnv({ ...deployed, KEEP_ALIVE_TIMEOUT_MS: '200000' })).toThrow(
      /KEEP_ALIVE_TIMEOUT_MS: must not exceed CONNECTION_TIMEOUT_MS \(120000\)/,
    )
    expect(
      parseEnv({ ...deployed, SIGNER_QUERY_TIMESTAMP_REQUIRED: 'true' }).signerQueryTimestampRequired,
    ).toBe(true)
  })

  it('fails naming every invalid variable', () => {
    expect(() =>
      parseEnv({
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
