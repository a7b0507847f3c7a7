import { isIP } from 'node:net'
import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { type HttpTimeouts, parseHttpTimeouts } from './http-timeouts.ts'

/** The repository root: relative paths in the environment are resolved against it, not the cwd. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url))

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

const booleanSchema = z
  .enum(['true', 'false'], { error: "must be 'true' or 'false'" })
  .transform((value) => value === 'true')

/** Ranges proxy-addr (Fastify's trustProxy) knows by name. */
const namedProxyRanges = ['loopback', 'linklocal', 'uniquelocal']

/**
 * TRUST_PROXY: how far X-Forwarded-For is believed. Unset or `false`: not at all (the socket's
 * address is the client). A hop count: that many proxies in front. Else a comma list of the
 * proxies' addresses or CIDRs. `true` (believe any header) is refused: any client could then
 * choose the address its rate limits count.
 */
const trustProxySchema = z
  .string()
  .optional()
  .transform((value, context): false | number | string[] => {
    if (value === undefined || value === 'false' || value === '0') return false
    if (value === 'true') {
      context.addIssue({
        code: 'custom',
        message:
          "true would trust any client's X-Forwarded-For, so anyone could pick the address rate limits count; give the number of proxies in front of the server (e.g. 1) or their addresses or CIDRs (e.g. 10.0.0.0/8,192.168.0.5)",
      })
      return z.NEVER
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value)
      if (hops <= 32) return hops
      context.addIssue({ code: 'custom', message: 'a hop count is at most 32' })
      return z.NEVER
    }
    const entries = value.split(',').map((entry) => entry.trim())
    const bad = entries.filter((entry) => !isProxyAddress(entry))
    if (bad.length === 0) return entries
    context.addIssue({
      code: 'custom',
      message: `${bad.map((entry) => JSON.stringify(entry)).join(', ')} is not a hop count, an IP address or a CIDR such as 10.0.0.0/8 (or loopback, linklocal, uniquelocal)`,
    })
    return z.NEVER
  })

function isProxyAddress(entry: string): boolean {
  if (namedProxyRanges.includes(entry)) return true
  const [address = '', prefix, ...rest] = entry.split('/')
  const version = isIP(address)
  if (version === 0 || rest.length > 0) return false
  if (prefix === undefined) return true
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128)
}

/** One issuer whose JWTs sign users in at `/signer/v1/auth-jwt` (an entry of JWT_PROVIDERS). */
export type JwtProviderConfig = {
  /** What the SDK sends as `authProvider`. */
  id: string
  /** The `iss` its tokens carry; a user is keyed by this and the token's `sub`. */
  issuer: string
  /** Where the issuer publishes its signing keys (a JSON Web Key Set). */
  jwksUrl: string
  /** The `aud` its tokens must carry for this app. */
  audience: string
  /**
   * What makes a token usable once, for one sign-in (docs/signer.md#auth-jwt): `nonce` (the
   * default) wants the claim `nonce` = hex SHA-256 of the sign-in's `targetPublicKey`; `jti` wants
   * a `jti` and an `iat` at most `maxAgeSeconds` old. Either way a token signs in once.
   */
  requires?: 'nonce' | 'jti'
  /** With `requires: 'jti'`: the oldest `iat` accepted, in seconds (default 300, at most 3600). */
  maxAgeSeconds?: number
}

const jwtProvidersShape = 'a JSON array of {id, issuer, jwksUrl, audience, requires?, maxAgeSeconds?}'

/**
 * A list setting's check that no two entries share a value of any of `keys` (the path names the
 * later entry): `[1].id: id is given twice`.
 */
function refineUniqueKeys<Key extends string>(...keys: Key[]) {
  return (entries: readonly Record<Key, string>[], context: z.RefinementCtx): void => {
    for (const key of keys) {
      const seen = new Set<string>()
      entries.forEach((entry, index) => {
        if (seen.has(entry[key]))
          context.addIssue({ code: 'custom', path: [index, key], message: `${key} is given twice` })
        seen.add(entry[key])
      })
    }
  }
}

const jwtProviderListSchema = z
  .array(
    z
      .object({
        id: z
          .string({ error: 'must be a string' })
          .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1 to 64 letters, digits, dots, hyphens or underscores'),
        // A user is keyed `{issuer}|{subject}`: a `|` in an issuer could make two keys read alike.
        issuer: z
          .string({ error: 'must be the iss claim of its tokens' })
          .min(1)
          .max(512)
          .regex(/^[^|]*$/, 'must not contain |'),
        jwksUrl: z.url({
          protocol: /^https?$/,
          error: "must be the http(s) URL of the issuer's JSON Web Key Set",
        }),
        audience: z.string({ error: 'must be the aud claim its tokens carry for this app' }).min(1).max(512),
        requires: z.enum(['nonce', 'jti'], { error: 'must be "nonce" (the default) or "jti"' }).optional(),
        maxAgeSeconds: z
          .number({ error: 'must be a number of seconds' })
          .int('must be a whole number of seconds')
          .min(10, 'must be at least 10')
          .max(3600, 'must be at most 3600 (a single-use token is meant to be short-lived)')
          .optional(),
      })
      .strict()
      .refine((provider) => provider.maxAgeSeconds === undefined || provider.requires === 'jti', {
        path: ['maxAgeSeconds'],
        message: 'only applies with "requires": "jti"',
      }),
    { error: `must be ${jwtProvidersShape}` },
  )
  .superRefine(refineUniqueKeys('id', 'issuer'))

/**
 * A setting holding a JSON array, checked by `listSchema`; unset is an empty list. Not JSON says so
 * with the expected `shape`; every other problem is named with its entry, e.g. `[0].jwksUrl: …`.
 */
function jsonListSetting<Entry>(shape: string, listSchema: z.ZodType<Entry[]>) {
  return z
    .string()
    .optional()
    .transform((value, context): Entry[] => {
      if (value === undefined) return []
      let json: unknown
      try {
        json = JSON.parse(value)
      } catch (error) {
        context.addIssue({
          code: 'custom',
          message: `must be ${shape}, but it is not JSON (${(error as Error).message})`,
        })
        return z.NEVER
      }
      const parsed = listSchema.safeParse(json)
      if (parsed.success) return parsed.data
      for (const issue of parsed.error.issues) {
        const path = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
        const where = path.join('').replace(/^\./, '')
        context.addIssue({ code: 'custom', message: where ? `${where}: ${issue.message}` : issue.message })
      }
      return z.NEVER
    })
}

/** JWT_PROVIDERS: the issuers whose tokens `/signer/v1/auth-jwt` accepts. Unset: none (the route refuses every token). */
const jwtProvidersSchema = jsonListSetting<JwtProviderConfig>(jwtProvidersShape, jwtProviderListSchema)

/** One OpenID Connect provider of social login (an entry of OAUTH_PROVIDERS; docs/signer.md#social-login). */
export type OAuthProviderConfig = {
  /** What the SDK sends as `authProviderId`: google, apple, facebook, twitch and auth0 have default scopes, any other id is a custom provider. */
  id: string
  /** The issuer; its endpoints come from `{issuer}/.well-known/openid-configuration`. */
  issuer: string
  /** This app's client id at the provider (the `aud` of its id tokens). */
  clientId: string
  /** The client secret, sent to the token endpoint (client_secret_post); absent for a public client. */
  clientSecret?: string
  /** Scopes to ask for; default per id (docs/signer.md#social-login). */
  scope?: string
}

const oauthProvidersShape = 'a JSON array of {id, issuer, clientId, clientSecret?, scope?}'

const oauthProviderListSchema = z
  .array(
    z
      .object({
        id: z
          .string({ error: 'must be a string' })
          .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1 to 64 letters, digits, dots, hyphens or underscores'),
        // A linked provider is keyed `{issuer}|{subject}`: a `|` in an issuer could make two keys read alike.
        issuer: z
          .url({
            protocol: /^https?$/,
            error: 'must be the http(s) issuer URL of an OpenID Connect provider',
          })
          .max(512)
          .regex(/^[^|]*$/, 'must not contain |')
          // The `iss` of its tokens has no trailing slash when the configured issuer has one.
          .transform((issuer) => issuer.replace(/\/+$/, '')),
        clientId: z.string({ error: "must be this app's client id at the provider" }).min(1).max(512),
        clientSecret: z.string().min(1).max(4096).optional(),
        scope: z.string().min(1).max(512).optional(),
      })
      .strict(),
    { error: `must be ${oauthProvidersShape}` },
  )
  .superRefine(refineUniqueKeys('id'))

/** OAUTH_PROVIDERS: the OpenID Connect providers of social login. Unset: none (no social buttons). */
const oauthProvidersSchema = jsonListSetting<OAuthProviderConfig>(
  oauthProvidersShape,
  oauthProviderListSchema,
)

/** One gas sponsorship policy of the paymaster service (an entry of SPONSOR_POLICIES; docs/api.md#paymaster). */
export type SponsorPolicyConfig = {
  /** What a client names in the paymaster context (`{ policyId }`). */
  id: string
  /** The chains it sponsors on; absent: every chain with a bundler and a paymaster. */
  chainIds?: readonly number[]
  /**
   * Whose operations: 'embedded', the signed-in user's own accounts (smart, multi-owner or EIP-7702)
   * when the user is an embedded wallet of the signer (or signed in as that wallet's smart account).
   */
  accounts: 'embedded'
  /** ERC-20 tokens (symbols of the chain's catalogue, or addresses) whose transfer and approve it pays for. */
  tokens: readonly string[]
  /** Contracts any call to which it pays for. */
  contracts: readonly string[]
  /** Contracts of the devnet deployment named by role (the dev default's PayRouter); never from the environment. */
  devnetContracts?: readonly 'payRouter'[]
  /** Wei of gas (the operations' maximum cost) one user may be granted per UTC day under it. */
  dailyGasCapWei: bigint
  /** Wei of gas all users together may be granted per UTC day under it (at least `dailyGasCapWei`). */
  globalDailyGasCapWei: bigint
}

const sponsorPoliciesShape =
  'a JSON array of {id, chainIds?, accounts: "embedded", tokens?, contracts?, dailyGasCapWei, globalDailyGasCapWei}'

const hexAddressPattern = /^0x[0-9a-fA-F]{40}$/

const weiAmountSchema = z
  .string({ error: 'must be a whole number of wei, as a string' })
  .regex(/^\d{1,40}$/, 'must be a whole number of wei, as a string')
  .transform((value) => BigInt(value))

const sponsorPolicyListSchema = z
  .array(
    z
      .object({
        id: z
          .string({ error: 'must be a string' })
          .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1 to 64 letters, digits, dots, hyphens or underscores'),
        chainIds: z
          .array(z.number().int().positive(), { error: 'must be an array of chain ids' })
          .min(1)
          .optional(),
        accounts: z.literal('embedded', { error: 'must be "embedded" (the signed-in user\'s own accounts)' }),
        tokens: z
          .array(
            z
              .string()
              .regex(
                /^(0x[0-9a-fA-F]{40}|[A-Za-z0-9.]{1,16})$/,
                'must be a token symbol (e.g. USDC) or a 20-byte hex address',
              ),
          )
          .default([]),
        contracts: z.array(z.string().regex(hexAddressPattern, 'must be a 20-byte hex address')).default([]),
        dailyGasCapWei: weiAmountSchema,
        globalDailyGasCapWei: weiAmountSchema,
      })
      .strict()
      .refine((policy) => policy.globalDailyGasCapWei >= policy.dailyGasCapWei, {
        error: 'globalDailyGasCapWei (all users together) must be at least dailyGasCapWei (one user)',
        path: ['globalDailyGasCapWei'],
      }),
    { error: `must be ${sponsorPoliciesShape}` },
  )
  .superRefine(refineUniqueKeys('id'))

/** SPONSOR_POLICIES: the paymaster's policies. Unset: none (dev mode: `devnetSponsorPolicy`). */
const sponsorPoliciesSchema = jsonListSetting<SponsorPolicyConfig>(
  sponsorPoliciesShape,
  sponsorPolicyListSchema,
)

/** The id of the dev-mode policy (SPONSOR_DEFAULT_POLICY's dev default). */
export const devnetSponsorPolicyId = 'devnet-wallet'

/**
 * Dev mode without SPONSOR_POLICIES: the devnet wallet's transfers and approvals of the devnet
 * tokens and its calls to PayRouter, on every devnet chain, up to 0.05 native a user a day and 5
 * native a day for everyone (the devnet paymaster holds 1,000).
 */
export const devnetSponsorPolicy: SponsorPolicyConfig = {
  id: devnetSponsorPolicyId,
  accounts: 'embedded',
  tokens: ['USDC', 'USDT', 'WETH', 'WAVAX'],
  contracts: [],
  devnetContracts: ['payRouter'],
  dailyGasCapWei: 50_000_000_000_000_000n,
  globalDailyGasCapWei: 5_000_000_000_000_000_000n,
}

/**
 * One Solana fee sponsorship policy (an entry of SOLANA_SPONSOR_POLICIES; docs/api.md#solana): the
 * sponsor pays a transaction's fee when the user's own Solana account signs it, every instruction
 * calls a listed program, the fee stays within `maxFeeLamports`, the user's fees today under it stay
 * within `dailyFeeCapLamports` and every user's together within `globalDailyFeeCapLamports`.
 */
export type SolanaSponsorPolicyConfig = {
  /** What a client names in the fee-payer request (`policyId`). */
  id: string
  /** Base58 program ids every instruction's program must be one of. */
  programs: readonly string[]
  /** Lamports one transaction's fee (signatures plus priority fee) may reach. */
  maxFeeLamports: bigint
  /** Lamports of fees one user may be granted per UTC day under it. */
  dailyFeeCapLamports: bigint
  /**
   * Lamports of fees all users together may be granted per UTC day under it: what bounds the
   * sponsor's loss when many accounts (each with its own daily cap) farm it.
   */
  globalDailyFeeCapLamports: bigint
}

const solanaSponsorPoliciesShape =
  'a JSON array of {id, programs: [base58 program ids], maxFeeLamports, dailyFeeCapLamports, globalDailyFeeCapLamports}'

const base58AddressPattern = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

const lamportsSchema = z
  .union(
    [
      z.string().regex(/^\d{1,20}$/, 'must be a whole number of lamports'),
      z
        .number()
        .int('must be a whole number of lamports')
        .min(0, 'must be a whole number of lamports')
        .max(Number.MAX_SAFE_INTEGER, 'must be a whole number of lamports'),
    ],
    { error: 'must be a whole number of lamports' },
  )
  .transform((value) => BigInt(value))

const solanaSponsorPolicyListSchema = z
  .array(
    z
      .object({
        id: z
          .string({ error: 'must be a string' })
          .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1 to 64 letters, digits, dots, hyphens or underscores'),
        programs: z
          .array(z.string().regex(base58AddressPattern, 'must be a base58 program id'), {
            error: 'must be an array of base58 program ids',
          })
          .min(1),
        maxFeeLamports: lamportsSchema,
        dailyFeeCapLamports: lamportsSchema,
        globalDailyFeeCapLamports: lamportsSchema,
      })
      .strict(),
    { error: `must be ${solanaSponsorPoliciesShape}` },
  )
  .superRefine(refineUniqueKeys('id'))

/** SOLANA_SPONSOR_POLICIES: the Solana fee sponsor's policies. Unset: none (dev mode: `devnetSolanaSponsorPolicy`). */
const solanaSponsorPoliciesSchema = jsonListSetting<SolanaSponsorPolicyConfig>(
  solanaSponsorPoliciesShape,
  solanaSponsorPolicyListSchema,
)

/** The id of the dev-mode Solana policy (SOLANA_SPONSOR_DEFAULT_POLICY's dev default). */
export const devnetSolanaSponsorPolicyId = 'devnet-solana'

/**
 * Dev mode without SOLANA_SPONSOR_POLICIES: transfers of SOL and SPL tokens (System, Token,
 * Token-2022, Associated Token and Compute Budget programs), at most 50,000 lamports of fee a
 * transaction, 0.01 SOL of fees a user a day and 1 SOL for all users together.
 */
export const devnetSolanaSponsorPolicy: SolanaSponsorPolicyConfig = {
  id: devnetSolanaSponsorPolicyId,
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
}

/** The base58 alphabet's value of each character, for checking SOLANA_SPONSOR_KEY's length. */
function decodeBase58Length(value: string): number | undefined {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
  let number = 0n
  for (const character of value) {
    const digit = alphabet.indexOf(character)
    if (digit < 0) return undefined
    number = number * 58n + BigInt(digit)
  }
  const leadingZeros = value.length - value.replace(/^1+/, '').length
  return leadingZeros + (number === 0n ? 0 : Math.ceil(number.toString(16).length / 2))
}

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string')
    .optional(),
  DEV_MODE: booleanSchema.default(false),
  PRODUCTION: booleanSchema.default(false),
  DEVNET_DEPLOYMENT_FILE: z.string().min(1).optional(),
  PUBLIC_ORIGIN: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) origin such as https://pay.example.com' })
    .optional(),
  WEB_DIST_DIR: z.string().min(1).default('apps/web/dist'),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  TRUST_PROXY: trustProxySchema,
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL such as redis://redis.internal:6379')
    .optional(),
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(600),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  FRAMES_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  SIGNER_PORT: z.coerce.number().int().min(0).max(65535).default(3002),
  FRAMES_ORIGIN: z.url({ protocol: /^https?$/, error: 'must be an http(s) origin' }).optional(),
  SIGNER_MASTER_KEY: z.string().min(1).optional(),
  SIGNER_SESSION_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  SIGNER_CODES_PER_CONTACT_PER_DAY: z.coerce.number().int().min(1).max(1000).default(10),
  SIGNER_SMS_PER_PREFIX_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(300),
  SIGNER_QUERY_TIMESTAMP_REQUIRED: booleanSchema.default(false),
  JWT_PROVIDERS: jwtProvidersSchema,
  OAUTH_PROVIDERS: oauthProvidersSchema,
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(2525),
  MAIL_FROM: z.string().min(3).default('Quick Links <no-reply@quicklinks.local>'),
  SMS_PROVIDER: z.enum(['dev', 'twilio']).optional(),
  TWILIO_ACCOUNT_SID: z.string().min(1).optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_FROM: z.string().min(1).optional(),
  TWILIO_API_URL: z.url().default('https://api.twilio.com'),
  ROUTING_PROVIDER: z.enum(['local', 'squid']).default('local'),
  SQUID_API_URL: z.url({ protocol: /^https?$/ }).default('https://v2.api.squidrouter.com'),
  SQUID_INTEGRATOR_ID: z.string().min(1).optional(),
  WALLETCONNECT_PROJECT_ID: z
    .string()
    .regex(
      /^[0-9a-f]{32}$/i,
      'must be a WalletConnect (Reown) project id: 32 hex digits, from cloud.reown.com',
    )
    .optional(),
  RELAYER_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 32-byte hex private key (0x + 64 hex digits)')
    .optional(),
  WORKER_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  CONFIRMATIONS_DEFAULT: z.coerce.number().int().min(0).max(1000).optional(),
  MULTI_OWNER_ENABLED: booleanSchema.default(false),
  PAYMASTER_SIGNER_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 32-byte hex private key (0x + 64 hex digits)')
    .optional(),
  SPONSOR_POLICIES: sponsorPoliciesSchema,
  SPONSOR_DEFAULT_POLICY: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be the id of a policy in SPONSOR_POLICIES')
    .optional(),
  SOLANA_RPC_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'must be the http(s) URL of a Solana JSON-RPC node')
    .optional(),
  SOLANA_SPONSOR_KEY: z
    .string()
    .refine(
      (value) => decodeBase58Length(value) === 64,
      'must be a 64-byte Solana secret key in base58 (the secret seed then the public key, as `solana-keygen` and wallets export it)',
    )
    .optional(),
  SOLANA_SPONSOR_POLICIES: solanaSponsorPoliciesSchema,
  SOLANA_SPONSOR_DEFAULT_POLICY: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be the id of a policy in SOLANA_SPONSOR_POLICIES')
    .optional(),
})

/** Everything the server needs to know about its surroundings; tests build their own. */
export type ServerConfig = {
  port: number
  /** Listen address: HOST, else 127.0.0.1 in dev mode (its mailbox shows sign-in codes) and 0.0.0.0 otherwise. */
  host: string
  /** Absolute directory for local state (PGlite, devnet files). */
  dataDir: string
  /** Postgres connection string; when absent the server uses PGlite in `${dataDir}/pg`. */
  databaseUrl: string | undefined
  devMode: boolean
  devnetDeploymentFile: string
  /** Origin the browser sees, without a trailing slash; cookies are Secure when it is https. */
  publicOrigin: string
  webDistDir: string
  logLevel: (typeof logLevels)[number]
  /**
   * How far X-Forwarded-For is believed (Fastify's trustProxy): false (not behind a proxy), the
   * number of proxies in front, or the proxies' addresses and CIDRs. Never `true`.
   */
  trustProxy: false | number | string[]
  /** Global rate limit: requests per minute per client (IPv4 address or IPv6 /64) over /api and /signer. */
  rateLimitMax: number
  /** REDIS_URL: rate-limit counters shared by every instance (app.redis); else each counts in memory. */
  redisUrl: string | undefined
  /**
   * METRICS_TOKEN: when set, GET /metrics wants `Authorization: Bearer <token>`. Without it /metrics
   * is open in development and refused in production (`production`).
   */
  metricsToken: string | undefined
  /**
   * PRODUCTION=true (`npm run serve`): the settings a deployment needs were checked at start, and
   * what must never be open there is refused rather than left open (GET /metrics without
   * METRICS_TOKEN). Optional so hand-built configs are development ones.
   */
  production?: boolean
  /** Port of the signer frames origin (auth and export frames), a different origin on purpose. */
  framesPort: number
  /** Origin the browser loads the frames from, without a trailing slash. */
  framesOrigin: string
  /** Port of the standalone signer (`npm run signer -w apps/signer`); by default the app server mounts it. */
  signerPort: number
  /** Key-encryption key for wallet seeds (32 bytes, hex or base64); required outside dev mode, else a 0600 file in dataDir. */
  signerMasterKey: string | undefined
  /** Lifetime of an embedded-wallet session key, in seconds (900 by default; docs/signer.md#session-keys). */
  signerSessionSeconds: number
  /**
   * Codes (and magic links) the signer sends in any 24 hours: to one contact
   * (SIGNER_CODES_PER_CONTACT_PER_DAY) and to one phone-number range, country code and three digits
   * (SIGNER_SMS_PER_PREFIX_PER_DAY).
   */
  signerCodeSendCaps: { perContactPerDay: number; perPhonePrefixPerDay: number }
  /**
   * SIGNER_QUERY_TIMESTAMP_REQUIRED: Turnkey's query paths refuse a body without `timestampMs`
   * (docs/signer.md#query-stamps). Off by default: stock `@turnkey/http` clients send none.
   * Optional so hand-built configs keep the default.
   */
  signerQueryTimestampRequired?: boolean
  /** REQUEST_TIMEOUT_MS, CONNECTION_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS (docs/api.md#timeouts); optional for hand-built configs. */
  httpTimeouts?: HttpTimeouts
  /** JWT_PROVIDERS: the issuers whose tokens sign users in at /signer/v1/auth-jwt; empty: none. */
  jwtProviders: readonly JwtProviderConfig[]
  /** OAUTH_PROVIDERS: the OpenID Connect providers of social login; empty: none. */
  oauthProviders: readonly OAuthProviderConfig[]
  /**
   * Where mail goes: SMTP_URL when set; else, in dev mode, the built-in catcher on smtpPort;
   * else undefined (sending mail then fails with a clear error).
   */
  smtpUrl: string | undefined
  /** Port of the dev SMTP catcher (dev mode only). */
  smtpPort: number
  mailFrom: string
  /** SMS delivery: 'twilio' in production, 'dev' (an outbox at /api/dev/sms) in dev mode. */
  sms:
    | { provider: 'dev' }
    | { provider: 'twilio'; accountSid: string; authToken: string; from: string; apiUrl: string }
    | { provider: 'none' }
  /** Who lists chains and tokens and builds routes: 'local' (the devnet) or 'squid'; the web calls /api/{routingProvider}/… */
  routingProvider: 'local' | 'squid'
  /** Squid's API base (SQUID_API_URL), so a recorded-response server on loopback can stand in. */
  squidApiUrl: string
  /** Squid's x-integrator-id; required when routingProvider is 'squid'. */
  squidIntegratorId: string | undefined
  /**
   * The WalletConnect (Reown) project id (WALLETCONNECT_PROJECT_ID): served to the web by
   * GET /api/config, and the CSP then admits WalletConnect's relay; without it the pay modal's
   * 'Continue with WalletConnect' is off.
   */
  walletConnectProjectId: string | undefined
  /**
   * JSON-RPC endpoint per chain id, from RPC_URL_<chainId> variables (production, and what
   * `npm start` passes for the devnet). The local provider falls back to the devnet deployment's.
   */
  rpcUrls: Readonly<Record<number, string>>
  /**
   * The local provider's relayer key (RELAYER_PRIVATE_KEY). In dev mode without it, the devnet's
   * relayer account (test mnemonic index 9) is used; otherwise cross-chain routes answer 503.
   */
  relayerPrivateKey: `0x${string}` | undefined
  /** How often the tracker and relayer workers poll, in milliseconds (WORKER_INTERVAL_MS). */
  workerIntervalMs: number
  /**
   * Blocks that must sit on top of a block before the relayer acts on it and the tracker calls a
   * payment final, per chain id (CONFIRMATIONS_<chainId>); see getConfirmations.
   */
  confirmations: Readonly<Record<number, number>>
  /** Depth for chains without their own (CONFIRMATIONS_DEFAULT): 0 in dev mode, else 2. */
  defaultConfirmations: number
  /**
   * MULTI_OWNER_ENABLED: the signer's experimental multi-owner paths (docs/signer.md#multi-owner);
   * off (the default) they answer 403. Optional so hand-built configs leave them off.
   */
  multiOwnerEnabled?: boolean
  /**
   * ERC-4337 bundler JSON-RPC per chain id, from BUNDLER_URL_<chainId> (production, and what
   * `npm start` passes for the devnet); else the devnet deployment's `bundlerUrl`. Only the
   * server calls it (POST /api/bundler/{chainId} relays to it).
   */
  bundlerUrls: Readonly<Record<number, string>>
  /**
   * Per chain id, where the smart-account contracts sit when not where the devnet deployment says:
   * SMART_ACCOUNT_FACTORY_<chainId>, MULTI_OWNER_ACCOUNT_FACTORY_<chainId>,
   * SIMPLE_7702_ACCOUNT_<chainId> and PAYMASTER_ADDRESS_<chainId>.
   */
  smartAccountContracts: Readonly<Record<number, SmartAccountContractOverrides>>
  /**
   * The key that signs SponsorPaymaster data (PAYMASTER_SIGNER_KEY). In dev mode without it, the
   * devnet's paymaster signer (test mnemonic index 12); otherwise nothing is sponsored.
   */
  paymasterSignerKey: `0x${string}` | undefined
  /** The paymaster's policies (SPONSOR_POLICIES); in dev mode without it, `devnetSponsorPolicy`. */
  sponsorPolicies: readonly SponsorPolicyConfig[]
  /** The policy the web app asks for (SPONSOR_DEFAULT_POLICY; dev mode: devnet-wallet), or null. */
  sponsorDefaultPolicyId: string | null
  /**
   * SOLANA_RPC_URL: the Solana JSON-RPC node POST /api/solana relays to. Optional so hand-built
   * configs have none; without it the endpoint runs on the in-process LiteSVM when `solanaDevnet`.
   */
  solanaRpcUrl?: string | undefined
  /** The in-process LiteSVM answers POST /api/solana: dev mode without SOLANA_RPC_URL (and tests). */
  solanaDevnet?: boolean
  /**
   * SOLANA_SPONSOR_KEY: the fee sponsor's 64-byte secret key in base58. On the LiteSVM without it, a
   * key generated once into `${dataDir}/solana-sponsor.key` (mode 0600); otherwise nothing is sponsored.
   */
  solanaSponsorKey?: string | undefined
  /** The Solana fee sponsor's policies (SOLANA_SPONSOR_POLICIES); dev mode without it: `devnetSolanaSponsorPolicy`. */
  solanaSponsorPolicies?: readonly SolanaSponsorPolicyConfig[]
  /** The Solana policy the web app asks for (SOLANA_SPONSOR_DEFAULT_POLICY; dev mode: devnet-solana), or null. */
  solanaSponsorDefaultPolicyId?: string | null
}

/** A chain's smart-account contract addresses from the environment (each optional). */
export type SmartAccountContractOverrides = {
  accountFactory?: `0x${string}`
  multiOwnerAccountFactory?: `0x${string}`
  simple7702Account?: `0x${string}`
  paymaster?: `0x${string}`
}

/**
 * Parses the environment into a `ServerConfig`. Relative paths resolve against the repository
 * root so the server behaves the same whichever directory it is started from.
 * Throws an Error naming every invalid variable; `main.ts` prints it and exits.
 */
export function parseEnv(source: Record<string, string | undefined> = process.env): ServerConfig {
  // An empty variable (`FOO=`) means "not set", as most shells and .env loaders intend.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''))
  const parsed = environmentSchema.safeParse(present)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new Error(`Invalid environment:\n${lines.join('\n')}`)
  }
  const env = parsed.data
  const problems = [
    ...findDeploymentRisks(env),
    ...(env.PRODUCTION ? findMissingProductionSettings(env, source) : []),
  ]
  if (problems.length > 0) throw new Error(`Invalid environment:\n${problems.join('\n')}`)
  const dataDir = resolveFromRoot(env.DATA_DIR)
  return {
    port: env.PORT,
    host: env.HOST ?? (env.DEV_MODE ? '127.0.0.1' : '0.0.0.0'),
    dataDir,
    databaseUrl: env.DATABASE_URL,
    devMode: env.DEV_MODE,
    devnetDeploymentFile: env.DEVNET_DEPLOYMENT_FILE
      ? resolveFromRoot(env.DEVNET_DEPLOYMENT_FILE)
      : resolve(dataDir, 'devnet', 'deployment.json'),
    publicOrigin: new URL(env.PUBLIC_ORIGIN ?? `http://localhost:${env.PORT}`).origin,
    webDistDir: resolveFromRoot(env.WEB_DIST_DIR),
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    rateLimitMax: env.RATE_LIMIT_MAX,
    redisUrl: env.REDIS_URL,
    metricsToken: env.METRICS_TOKEN,
    production: env.PRODUCTION,
    framesPort: env.FRAMES_PORT,
    framesOrigin: new URL(env.FRAMES_ORIGIN ?? `http://localhost:${env.FRAMES_PORT}`).origin,
    signerPort: env.SIGNER_PORT,
    signerMasterKey: env.SIGNER_MASTER_KEY,
    signerSessionSeconds: env.SIGNER_SESSION_SECONDS,
    signerCodeSendCaps: {
      perContactPerDay: env.SIGNER_CODES_PER_CONTACT_PER_DAY,
      perPhonePrefixPerDay: env.SIGNER_SMS_PER_PREFIX_PER_DAY,
    },
    signerQueryTimestampRequired: env.SIGNER_QUERY_TIMESTAMP_REQUIRED,
    httpTimeouts: parseHttpTimeouts(source),
    jwtProviders: env.JWT_PROVIDERS,
    oauthProviders: env.OAUTH_PROVIDERS,
    smtpUrl: env.SMTP_URL ?? (env.DEV_MODE ? `smtp://127.0.0.1:${env.SMTP_PORT}` : undefined),
    smtpPort: env.SMTP_PORT,
    mailFrom: env.MAIL_FROM,
    sms: parseSmsConfig(env),
    routingProvider: env.ROUTING_PROVIDER,
    squidApiUrl: env.SQUID_API_URL.replace(/\/+$/, ''),
    squidIntegratorId: parseSquidIntegratorId(env),
    walletConnectProjectId: env.WALLETCONNECT_PROJECT_ID,
    rpcUrls: parseRpcUrls(source),
    relayerPrivateKey: env.RELAYER_PRIVATE_KEY as `0x${string}` | undefined,
    workerIntervalMs: env.WORKER_INTERVAL_MS,
    confirmations: parseConfirmations(source),
    defaultConfirmations: env.CONFIRMATIONS_DEFAULT ?? (env.DEV_MODE ? 0 : 2),
    multiOwnerEnabled: env.MULTI_OWNER_ENABLED,
    bundlerUrls: parseBundlerUrls(source),
    smartAccountContracts: parseSmartAccountContracts(source),
    paymasterSignerKey: env.PAYMASTER_SIGNER_KEY as `0x${string}` | undefined,
    ...parseSponsorPolicies(env),
    solanaRpcUrl: env.SOLANA_RPC_URL,
    solanaDevnet: env.DEV_MODE && env.SOLANA_RPC_URL === undefined,
    solanaSponsorKey: env.SOLANA_SPONSOR_KEY,
    ...parseSolanaSponsorPolicies(env),
  }
}

/** SOLANA_SPONSOR_POLICIES (dev mode default `devnetSolanaSponsorPolicy`) and SOLANA_SPONSOR_DEFAULT_POLICY, checked against each other. */
function parseSolanaSponsorPolicies(
  env: z.infer<typeof environmentSchema>,
): Required<Pick<ServerConfig, 'solanaSponsorPolicies' | 'solanaSponsorDefaultPolicyId'>> {
  const isDevDefault = env.SOLANA_SPONSOR_POLICIES.length === 0 && env.DEV_MODE
  const policies = isDevDefault ? [devnetSolanaSponsorPolicy] : env.SOLANA_SPONSOR_POLICIES
  const defaultPolicyId =
    env.SOLANA_SPONSOR_DEFAULT_POLICY ??
    (isDevDefault ? devnetSolanaSponsorPolicyId : (policies[0]?.id ?? null))
  if (defaultPolicyId !== null && !policies.some((policy) => policy.id === defaultPolicyId)) {
    throw new Error(
      `Invalid environment:\n  SOLANA_SPONSOR_DEFAULT_POLICY: ${JSON.stringify(defaultPolicyId)} is not the id of a policy in SOLANA_SPONSOR_POLICIES`,
    )
  }
  return { solanaSponsorPolicies: policies, solanaSponsorDefaultPolicyId: defaultPolicyId }
}

/** SPONSOR_POLICIES (dev mode default `devnetSponsorPolicy`) and SPONSOR_DEFAULT_POLICY, checked against each other. */
function parseSponsorPolicies(
  env: z.infer<typeof environmentSchema>,
): Pick<ServerConfig, 'sponsorPolicies' | 'sponsorDefaultPolicyId'> {
  const isDevDefault = env.SPONSOR_POLICIES.length === 0 && env.DEV_MODE
  const sponsorPolicies = isDevDefault ? [devnetSponsorPolicy] : env.SPONSOR_POLICIES
  const sponsorDefaultPolicyId =
    env.SPONSOR_DEFAULT_POLICY ?? (isDevDefault ? devnetSponsorPolicyId : (sponsorPolicies[0]?.id ?? null))
  if (
    sponsorDefaultPolicyId !== null &&
    !sponsorPolicies.some((policy) => policy.id === sponsorDefaultPolicyId)
  ) {
    throw new Error(
      `Invalid environment:\n  SPONSOR_DEFAULT_POLICY: ${JSON.stringify(sponsorDefaultPolicyId)} is not the id of a policy in SPONSOR_POLICIES`,
    )
  }
  return { sponsorPolicies, sponsorDefaultPolicyId }
}

/** BUNDLER_URL_<chainId>=<http(s) URL> variables; throws naming any that is not an http(s) URL. */
function parseBundlerUrls(source: Record<string, string | undefined>): Record<number, string> {
  const urls: Record<number, string> = {}
  const bad: string[] = []
  for (const [name, value] of Object.entries(source)) {
    const match = /^BUNDLER_URL_(\d+)$/.exec(name)
    if (!match?.[1] || !value) continue
    if (!/^https?:\/\/\S+$/.test(value)) bad.push(`  ${name}: must be an http(s) URL`)
    else urls[Number(match[1])] = value
  }
  if (bad.length > 0) throw new Error(`Invalid environment:\n${bad.join('\n')}`)
  return urls
}

/** The per-chain address variables of the smart-account contracts, by the field they fill. */
const smartAccountContractVariables = [
  ['SMART_ACCOUNT_FACTORY', 'accountFactory'],
  ['MULTI_OWNER_ACCOUNT_FACTORY', 'multiOwnerAccountFactory'],
  ['SIMPLE_7702_ACCOUNT', 'simple7702Account'],
  ['PAYMASTER_ADDRESS', 'paymaster'],
] as const satisfies readonly (readonly [string, keyof SmartAccountContractOverrides])[]

/** SMART_ACCOUNT_FACTORY_<chainId> and its siblings; throws naming any that is not an address. */
function parseSmartAccountContracts(
  source: Record<string, string | undefined>,
): Record<number, SmartAccountContractOverrides> {
  const contracts: Record<number, SmartAccountContractOverrides> = {}
  const bad: string[] = []
  for (const [name, value] of Object.entries(source)) {
    if (!value) continue
    for (const [prefix, field] of smartAccountContractVariables) {
      const match = new RegExp(`^${prefix}_(\\d+)$`).exec(name)
      if (!match?.[1]) continue
      if (!hexAddressPattern.test(value)) {
        bad.push(`  ${name}: must be a 20-byte hex address`)
        continue
      }
      const chainId = Number(match[1])
      contracts[chainId] = { ...contracts[chainId], [field]: value as `0x${string}` }
    }
  }
  if (bad.length > 0) throw new Error(`Invalid environment:\n${bad.join('\n')}`)
  return contracts
}

/** CONFIRMATIONS_<chainId>=<blocks> variables; throws naming any that is not a whole number 0-1000. */
function parseConfirmations(source: Record<string, string | undefined>): Record<number, number> {
  const depths: Record<number, number> = {}
  const bad: string[] = []
  for (const [name, value] of Object.entries(source)) {
    const match = /^CONFIRMATIONS_(\d+)$/.exec(name)
    if (!match?.[1] || !value) continue
    const depth = Number(value)
    if (!/^\d+$/.test(value) || depth > 1000)
      bad.push(`  ${name}: must be a whole number of blocks, 0 to 1000`)
    else depths[Number(match[1])] = depth
  }
  if (bad.length > 0) throw new Error(`Invalid environment:\n${bad.join('\n')}`)
  return depths
}

/** The confirmation depth of a chain: CONFIRMATIONS_<chainId>, else the default. */
export function getConfirmations(
  config: Pick<ServerConfig, 'confirmations' | 'defaultConfirmations'>,
  chainId: number,
): number {
  return config.confirmations[chainId] ?? config.defaultConfirmations
}

/**
 * The two settings that leak secrets quietly: dev mode (whose mailbox at /api/dev/mail shows
 * every sign-in code) behind an https public origin, and a deployment without SIGNER_MASTER_KEY
 * (the seeds' key would silently live in a file beside the data it protects).
 */
function findDeploymentRisks(env: z.infer<typeof environmentSchema>): string[] {
  const problems: string[] = []
  if (env.DEV_MODE && env.PUBLIC_ORIGIN?.startsWith('https:')) {
    problems.push(
      '  DEV_MODE: dev mode shows every sign-in code at /api/dev/mail, so it refuses an https PUBLIC_ORIGIN; unset DEV_MODE for a deployment',
    )
  }
  if (!env.DEV_MODE && !env.SIGNER_MASTER_KEY) {
    problems.push(
      '  SIGNER_MASTER_KEY: required outside dev mode (32 bytes as 64 hex digits, e.g. `openssl rand -hex 32`, kept in your secret store)',
    )
  }
  env.JWT_PROVIDERS.forEach((provider, index) => {
    // Keys fetched in clear could be swapped on the way, and then anyone could sign in as anyone.
    const url = new URL(provider.jwksUrl)
    const isLoopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
    if (!env.DEV_MODE && url.protocol === 'http:' && !isLoopback) {
      problems.push(
        `  JWT_PROVIDERS: [${index}].jwksUrl: must be https outside dev mode (keys fetched over http could be swapped in transit)`,
      )
    }
  })
  env.OAUTH_PROVIDERS.forEach((provider, index) => {
    // The discovery document names the keys that vouch for every id token: it must not travel in clear.
    const url = new URL(provider.issuer)
    const isLoopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
    if (!env.DEV_MODE && url.protocol === 'http:' && !isLoopback) {
      problems.push(
        `  OAUTH_PROVIDERS: [${index}].issuer: must be https outside dev mode (its keys fetched over http could be swapped in transit)`,
      )
    }
  })
  return problems
}

/**
 * PRODUCTION=true (what `npm run serve` sets): the app server runs alone, with no devnet beside it,
 * so every setting that dev mode or the devnet would otherwise fill in must be given. Names each one
 * missing, with what it is for.
 */
function findMissingProductionSettings(
  env: z.infer<typeof environmentSchema>,
  source: Record<string, string | undefined>,
): string[] {
  const problems: string[] = []
  const require = (name: keyof typeof env, why: string) => {
    if (env[name] === undefined) problems.push(`  ${name}: required in production (${why})`)
  }
  if (env.DEV_MODE) {
    problems.push(
      '  DEV_MODE: production never runs in dev mode (it shows every sign-in code at /api/dev/mail)',
    )
  }
  require('DATABASE_URL', 'a postgres:// URL; the embedded PGlite is for one process on a laptop')
  require('REDIS_URL', 'a redis:// URL; every instance counts rate limits in it')
  require('PUBLIC_ORIGIN', 'the https origin payers open, e.g. https://pay.example.com')
  require('FRAMES_ORIGIN', 'the signer frames origin, a different host, e.g. https://frames.example.com')
  require('SMTP_URL', 'where sign-in codes are mailed, e.g. smtps://user:pass@smtp.example.com')
  if (Object.keys(parseRpcUrls(source)).length === 0) {
    problems.push(
      '  RPC_URL_<chainId>: required in production, one per chain payments land on (e.g. RPC_URL_8453=https://…); there is no devnet to fall back to',
    )
  }
  if (env.SPONSOR_POLICIES.length > 0 && env.PAYMASTER_SIGNER_KEY === undefined) {
    problems.push(
      '  PAYMASTER_SIGNER_KEY: required in production when SPONSOR_POLICIES is set (the key your SponsorPaymaster trusts to sign sponsored operations)',
    )
  }
  if (env.SOLANA_SPONSOR_POLICIES.length > 0 && env.SOLANA_SPONSOR_KEY === undefined) {
    problems.push(
      '  SOLANA_SPONSOR_KEY: required in production when SOLANA_SPONSOR_POLICIES is set (the base58 secret key of the account that pays sponsored Solana fees)',
    )
  }
  if (env.SOLANA_SPONSOR_POLICIES.length > 0 && env.SOLANA_RPC_URL === undefined) {
    problems.push(
      '  SOLANA_RPC_URL: required in production when SOLANA_SPONSOR_POLICIES is set (the Solana JSON-RPC node sponsored transactions go to)',
    )
  }
  if (env.DEVNET_DEPLOYMENT_FILE === undefined) {
    // No devnet deployment to take the contracts from: each chain with a bundler names its own.
    const contracts = parseSmartAccountContracts(source)
    for (const chainId of Object.keys(parseBundlerUrls(source))) {
      const missing = smartAccountContractVariables
        .filter(([prefix, field]) => prefix !== 'PAYMASTER_ADDRESS' && !contracts[Number(chainId)]?.[field])
        .map(([prefix]) => `${prefix}_${chainId}`)
      if (env.SPONSOR_POLICIES.length > 0 && !contracts[Number(chainId)]?.paymaster)
        missing.push(`PAYMASTER_ADDRESS_${chainId}`)
      if (missing.length > 0) {
        problems.push(
          `  BUNDLER_URL_${chainId}: smart accounts on chain ${chainId} also need ${missing.join(', ')} (the deployed contracts' addresses)`,
        )
      }
    }
  }
  if (env.ROUTING_PROVIDER === 'local' && env.DEVNET_DEPLOYMENT_FILE === undefined) {
    problems.push(
      '  DEVNET_DEPLOYMENT_FILE: ROUTING_PROVIDER=local needs the deployment of its contracts on your chains; use ROUTING_PROVIDER=squid otherwise',
    )
  }
  return problems
}

function parseSquidIntegratorId(env: z.infer<typeof environmentSchema>): string | undefined {
  if (env.ROUTING_PROVIDER === 'squid' && !env.SQUID_INTEGRATOR_ID) {
    throw new Error('Invalid environment:\n  SQUID_INTEGRATOR_ID: required when ROUTING_PROVIDER=squid')
  }
  return env.SQUID_INTEGRATOR_ID
}

/** RPC_URL_<chainId>=<http(s) URL> variables; throws naming any that is not an http(s) URL. */
function parseRpcUrls(source: Record<string, string | undefined>): Record<number, string> {
  const urls: Record<number, string> = {}
  const bad: string[] = []
  for (const [name, value] of Object.entries(source)) {
    const match = /^RPC_URL_(\d+)$/.exec(name)
    if (!match?.[1] || !value) continue
    if (!/^https?:\/\/\S+$/.test(value)) bad.push(`  ${name}: must be an http(s) URL`)
    else urls[Number(match[1])] = value
  }
  if (bad.length > 0) throw new Error(`Invalid environment:\n${bad.join('\n')}`)
  return urls
}

function parseSmsConfig(env: z.infer<typeof environmentSchema>): ServerConfig['sms'] {
  const provider = env.SMS_PROVIDER ?? (env.DEV_MODE ? 'dev' : undefined)
  if (provider === 'dev') return { provider: 'dev' }
  if (provider === 'twilio') {
    if (!env.TWILIO_ACCOUNT_SID || !env.TWILIO_AUTH_TOKEN || !env.TWILIO_FROM) {
      throw new Error(
        'Invalid environment:\n  SMS_PROVIDER: twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM',
      )
    }
    return {
      provider: 'twilio',
      accountSid: env.TWILIO_ACCOUNT_SID,
      authToken: env.TWILIO_AUTH_TOKEN,
      from: env.TWILIO_FROM,
      apiUrl: env.TWILIO_API_URL,
    }
  }
  return { provider: 'none' }
}

/** Whether cookies must carry `Secure`: the public origin is served over https. */
export function isSecureOrigin(config: Pick<ServerConfig, 'publicOrigin'>): boolean {
  return config.publicOrigin.startsWith('https:')
}

function resolveFromRoot(path: string): string {
  return isAbsolute(path) ? path : resolve(repoRoot, path)
}
