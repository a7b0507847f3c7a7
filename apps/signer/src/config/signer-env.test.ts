import { describe, expect, it } from 'vitest'
import { parseSignerEnv } from './signer-env.ts'

// Outside dev mode the master key is required; these tests are about other variables.
const masterKey = '5e'.repeat(32)
const deployed = { SIGNER_MASTER_KEY: masterKey }

/** What `npm run serve` gives a deployment: production, with the host's and the signer's settings complete. */
const production = {
  ...deployed,
  PRODUCTION: 'true',
  DATABASE_URL: 'postgres://app@db:5432/quicklinks',
  REDIS_URL: 'redis://redis.internal:6379',
  PUBLIC_ORIGIN: 'https://pay.example.com',
  FRAMES_ORIGIN: 'https://frames.example.com',
  SMTP_URL: 'smtps://mailer:secret@smtp.example.com',
}

describe('parseSignerEnv', () => {
  it("applies the signer's documented defaults beside the host's", () => {
    expect(parseSignerEnv(deployed)).toMatchObject({
      port: 3000,
      publicOrigin: 'http://localhost:3000',
      framesPort: 3001,
      signerPort: 3002,
      framesOrigin: 'http://localhost:3001',
      signerMasterKey: masterKey,
      signerSessionSeconds: 900,
      signerCodeSendCaps: { perContactPerDay: 10, perPhonePrefixPerDay: 300 },
      signerRateLimits: { sendsPerIpPerMinute: 20, codeChecksPerIpPerMinute: 30 },
      signerQueryTimestampRequired: false,
      jwtProviders: [],
      oauthProviders: [],
      multiOwnerEnabled: false,
    })
  })

  it("parses no server setting: a standalone signer starts whatever the server's sections say", () => {
    const serverSettings = {
      ROUTING_PROVIDER: 'squid',
      SQUID_API_URL: 'not a url',
      RPC_URL_1: 'ftp://nope',
      CONFIRMATIONS_1: 'two',
      SPONSOR_POLICIES: '[{id: broken}]',
      SOLANA_SPONSOR_KEY: 'short',
      WALLETCONNECT_PROJECT_ID: 'my-project',
    }
    const config = parseSignerEnv({ ...production, ...serverSettings })
    expect(config.production).toBe(true)
    expect(config.framesOrigin).toBe('https://frames.example.com')
    expect(config).not.toHaveProperty('routingProvider')
    expect(config).not.toHaveProperty('rpcUrls')
    expect(parseSignerEnv({ ...production, ROUTING_PROVIDER: 'squid' }).production).toBe(true)
  })

  it('reads the per-client limits of the unauthenticated routes, and refuses 0 naming the variable', () => {
    expect(
      parseSignerEnv({
        ...deployed,
        SIGNER_SENDS_PER_IP_PER_MINUTE: '400',
        SIGNER_CODE_CHECKS_PER_IP_PER_MINUTE: '600',
      }).signerRateLimits,
    ).toEqual({ sendsPerIpPerMinute: 400, codeChecksPerIpPerMinute: 600 })
    expect(() => parseSignerEnv({ ...deployed, SIGNER_SENDS_PER_IP_PER_MINUTE: '0' })).toThrow(
      /SIGNER_SENDS_PER_IP_PER_MINUTE/,
    )
  })

  it('derives the frames origin from FRAMES_PORT', () => {
    expect(parseSignerEnv({ ...deployed, FRAMES_PORT: '3101' }).framesOrigin).toBe('http://localhost:3101')
  })

  it('refuses a deployment without SIGNER_MASTER_KEY, and production without FRAMES_ORIGIN', () => {
    expect(() => parseSignerEnv({})).toThrow(/SIGNER_MASTER_KEY: required outside dev mode/)
    expect(parseSignerEnv({ DEV_MODE: 'true' }).signerMasterKey).toBeUndefined()
    const { FRAMES_ORIGIN: _, ...withoutFrames } = production
    expect(() => parseSignerEnv(withoutFrames)).toThrow(
      /Invalid environment:\n {2}FRAMES_ORIGIN: required in production \(the signer frames origin/,
    )
  })

  it('reads SIGNER_QUERY_TIMESTAMP_REQUIRED and MULTI_OWNER_ENABLED as booleans', () => {
    expect(
      parseSignerEnv({ ...deployed, SIGNER_QUERY_TIMESTAMP_REQUIRED: 'true' }).signerQueryTimestampRequired,
    ).toBe(true)
    expect(parseSignerEnv({ ...deployed, MULTI_OWNER_ENABLED: 'true' }).multiOwnerEnabled).toBe(true)
    expect(() => parseSignerEnv({ ...deployed, MULTI_OWNER_ENABLED: 'yes' })).toThrow(
      /MULTI_OWNER_ENABLED: must be 'true' or 'false'/,
    )
  })

  it('reads OAUTH_PROVIDERS as a JSON array of {id, issuer, clientId, clientSecret?, scope?}, naming each problem', () => {
    const google = {
      id: 'google',
      issuer: 'https://accounts.google.com',
      clientId: 'app.apps.googleusercontent.com',
    }
    const oauthProviders = (value: unknown, extra: Record<string, string> = {}) =>
      parseSignerEnv({ ...deployed, ...extra, OAUTH_PROVIDERS: JSON.stringify(value) }).oauthProviders
    expect(parseSignerEnv(deployed).oauthProviders).toEqual([])
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
    expect(() => parseSignerEnv({ ...deployed, OAUTH_PROVIDERS: '[{id: google}]' })).toThrow(
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
      parseSignerEnv({ ...deployed, ...extra, JWT_PROVIDERS: JSON.stringify(value) }).jwtProviders
    expect(parseSignerEnv(deployed).jwtProviders).toEqual([])
    expect(jwtProviders([acme])).toEqual([acme])
    expect(() => parseSignerEnv({ ...deployed, JWT_PROVIDERS: '[{id: acme}]' })).toThrow(
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
})
