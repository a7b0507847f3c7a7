import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

/** The repository root: relative paths in the environment are resolved against it, not the cwd. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url))

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

const booleanSchema = z
  .enum(['true', 'false'], { error: "must be 'true' or 'false'" })
  .transform((value) => value === 'true')

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string')
    .optional(),
  DEV_MODE: booleanSchema.default(false),
  DEVNET_DEPLOYMENT_FILE: z.string().min(1).optional(),
  PUBLIC_ORIGIN: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) origin such as https://pay.example.com' })
    .optional(),
  WEB_DIST_DIR: z.string().min(1).default('apps/web/dist'),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  TRUST_PROXY: booleanSchema.default(false),
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(600),
})

/** Everything the server needs to know about its surroundings; tests build their own. */
export type ServerConfig = {
  port: number
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
  /** Trust X-Forwarded-For (behind a load balancer), so rate limits key on the client's IP. */
  trustProxy: boolean
  /** Global rate limit: requests per minute per client IP over /api, /signer and /health. */
  rateLimitMax: number
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
  const dataDir = resolveFromRoot(env.DATA_DIR)
  return {
    port: env.PORT,
    host: env.HOST,
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
  }
}

/** Whether cookies must carry `Secure`: the public origin is served over https. */
export function isSecureOrigin(config: Pick<ServerConfig, 'publicOrigin'>): boolean {
  return config.publicOrigin.startsWith('https:')
}

function resolveFromRoot(path: string): string {
  return isAbsolute(path) ? path : resolve(repoRoot, path)
}
