// The host's section of the environment (docs/decisions/0023): what every server process needs to
// run at all — where it listens, its data, database, Redis, logs, proxies, timeouts, mail and SMS,
// and the dev-mode and production flags. Each app parses its own sections beside this one
// (apps/signer/src/config/signer-env.ts, apps/server/src/config/server-env.ts).

import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { parseEnvSections } from './env/parse-env-sections.ts'
import { type EnvProblem, hostModeShape, reportEnvProblems } from './env/setting-schemas.ts'
import { trustProxySchema } from './env/trust-proxy-setting.ts'
import { httpTimeoutsShape, readHttpTimeouts } from './http-timeouts.ts'

/** The repository root: relative paths in the environment are resolved against it, not the cwd. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url))

/** A path from the environment: absolute as given, else against the repository root. */
export function resolveFromRoot(path: string): string {
  return isAbsolute(path) ? path : resolve(repoRoot, path)
}

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/** DATA_DIR: local state (PGlite, devnet files, generated keys); sections that keep files there read it too. */
export const dataDirSchema = z.string().min(1).default('.data')

/** SMS delivery: 'twilio' in production, 'dev' (an outbox at /api/dev/sms) in dev mode, else none. */
export type SmsConfig =
  | { provider: 'dev' }
  | { provider: 'twilio'; accountSid: string; authToken: string; from: string; apiUrl: string }
  | { provider: 'none' }

/** The host's variables, then what each becomes in `HostConfig`. */
export const hostEnvSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).optional(),
    DATA_DIR: dataDirSchema,
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string')
      .optional(),
    DEV_MODE: hostModeShape.DEV_MODE,
    PRODUCTION: hostModeShape.PRODUCTION,
    PUBLIC_ORIGIN: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) origin such as https://pay.example.com' })
      .optional(),
    LOG_LEVEL: z.enum(logLevels).default('info'),
    TRUST_PROXY: trustProxySchema,
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL such as redis://redis.internal:6379')
      .optional(),
    RATE_LIMIT_MAX: z.coerce.number().int().positive().default(600),
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
    ...httpTimeoutsShape,
  })
  .transform((env, context) => {
    const problems = findHostProblems(env)
    const httpTimeouts = readHttpTimeouts(env, problems)
    const sms = readSmsConfig(env, problems)
    if (problems.length > 0) return reportEnvProblems(context, problems)
    return {
      port: env.PORT,
      /** Listen address: HOST, else 127.0.0.1 in dev mode (its mailbox shows sign-in codes) and 0.0.0.0 otherwise. */
      host: env.HOST ?? (env.DEV_MODE ? '127.0.0.1' : '0.0.0.0'),
      /** Absolute directory for local state (PGlite, devnet files). */
      dataDir: resolveFromRoot(env.DATA_DIR),
      /** Postgres connection string; when absent the process uses PGlite in `${dataDir}/pg`. */
      databaseUrl: env.DATABASE_URL,
      devMode: env.DEV_MODE,
      /**
       * PRODUCTION=true (`npm run serve`): the settings a deployment needs were checked at start, and
       * what must never be open there is refused rather than left open (GET /metrics without
       * METRICS_TOKEN).
       */
      production: env.PRODUCTION,
      /** Origin the browser sees, without a trailing slash; cookies are Secure when it is https. */
      publicOrigin: new URL(env.PUBLIC_ORIGIN ?? `http://localhost:${env.PORT}`).origin,
      logLevel: env.LOG_LEVEL,
      /**
       * How far X-Forwarded-For is believed (Fastify's trustProxy): false (not behind a proxy), the
       * number of proxies in front, or the proxies' addresses and CIDRs. Never `true`.
       */
      trustProxy: env.TRUST_PROXY,
      /** Global rate limit: requests per minute per client (IPv4 address or IPv6 /64) over /api and /signer. */
      rateLimitMax: env.RATE_LIMIT_MAX,
      /** REDIS_URL: rate-limit counters shared by every instance (app.redis); else each counts in memory. */
      redisUrl: env.REDIS_URL,
      /** REQUEST_TIMEOUT_MS, CONNECTION_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS (docs/api.md#timeouts). */
      httpTimeouts,
      /**
       * Where mail goes: SMTP_URL when set; else, in dev mode, the built-in catcher on smtpPort;
       * else undefined (sending mail then fails with a clear error).
       */
      smtpUrl: env.SMTP_URL ?? (env.DEV_MODE ? `smtp://127.0.0.1:${env.SMTP_PORT}` : undefined),
      /** Port of the dev SMTP catcher (dev mode only). */
      smtpPort: env.SMTP_PORT,
      mailFrom: env.MAIL_FROM,
      sms,
    }
  })

/** What every process knows about its host; each app adds its own sections' config to it. */
export type HostConfig = z.output<typeof hostEnvSchema>

/**
 * Dev mode behind an https public origin leaks every sign-in code (its mailbox at /api/dev/mail);
 * PRODUCTION=true (what `npm run serve` sets) runs alone, with no devnet beside it, so every host
 * setting dev mode would otherwise fill in must be given. Names each one, with what it is for.
 */
function findHostProblems(env: {
  DEV_MODE: boolean
  PRODUCTION: boolean
  PUBLIC_ORIGIN?: string | undefined
  DATABASE_URL?: string | undefined
  REDIS_URL?: string | undefined
  SMTP_URL?: string | undefined
}): EnvProblem[] {
  const problems: EnvProblem[] = []
  if (env.DEV_MODE && env.PUBLIC_ORIGIN?.startsWith('https:')) {
    problems.push([
      'DEV_MODE',
      'dev mode shows every sign-in code at /api/dev/mail, so it refuses an https PUBLIC_ORIGIN; unset DEV_MODE for a deployment',
    ])
  }
  if (!env.PRODUCTION) return problems
  if (env.DEV_MODE) {
    problems.push([
      'DEV_MODE',
      'production never runs in dev mode (it shows every sign-in code at /api/dev/mail)',
    ])
  }
  const required: [keyof typeof env, string][] = [
    ['DATABASE_URL', 'a postgres:// URL; the embedded PGlite is for one process on a laptop'],
    ['REDIS_URL', 'a redis:// URL; every instance counts rate limits in it'],
    ['PUBLIC_ORIGIN', 'the https origin payers open, e.g. https://pay.example.com'],
    ['SMTP_URL', 'where sign-in codes are mailed, e.g. smtps://user:pass@smtp.example.com'],
  ]
  for (const [name, why] of required) {
    if (env[name] === undefined) problems.push([name, `required in production (${why})`])
  }
  return problems
}

function readSmsConfig(
  env: {
    DEV_MODE: boolean
    SMS_PROVIDER?: 'dev' | 'twilio' | undefined
    TWILIO_ACCOUNT_SID?: string | undefined
    TWILIO_AUTH_TOKEN?: string | undefined
    TWILIO_FROM?: string | undefined
    TWILIO_API_URL: string
  },
  problems: EnvProblem[],
): SmsConfig {
  const provider = env.SMS_PROVIDER ?? (env.DEV_MODE ? 'dev' : undefined)
  if (provider === 'dev') return { provider: 'dev' }
  if (provider === 'twilio') {
    if (!env.TWILIO_ACCOUNT_SID || !env.TWILIO_AUTH_TOKEN || !env.TWILIO_FROM) {
      problems.push(['SMS_PROVIDER', 'twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM'])
      return { provider: 'none' }
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

/**
 * Parses the host's section alone (tools and tests that need no app's settings). Throws an Error
 * naming every invalid variable.
 */
export function parseHostEnv(source: Record<string, string | undefined> = process.env): HostConfig {
  return parseEnvSections(source, { host: hostEnvSchema }).host
}

/** Whether cookies must carry `Secure`: the public origin is served over https. */
export function isSecureOrigin(config: Pick<HostConfig, 'publicOrigin'>): boolean {
  return config.publicOrigin.startsWith('https:')
}
