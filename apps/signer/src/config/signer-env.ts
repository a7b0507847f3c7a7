// The signer's section of the environment (docs/decisions/0023): its ports and frames origin, the
// seeds' master key, session keys, code budgets, the identity providers and the experimental
// paths. The standalone signer parses the host's section and this one, nothing of the server's;
// the app server, which mounts the signer, parses this one beside its own.

import { type HostConfig, hostEnvSchema } from '@quicklinks/runtime/env'
import { parseEnvSections } from '@quicklinks/runtime/env/parse-env-sections'
import {
  booleanSchema,
  type EnvProblem,
  hostModeShape,
  reportEnvProblems,
} from '@quicklinks/runtime/env/setting-schemas'
import { z } from 'zod'
import {
  findClearTextProviders,
  jwtProvidersSchema,
  oauthProvidersSchema,
} from './identity-provider-settings.ts'

const portSchema = z.coerce.number().int().min(0).max(65535)

/** The signer's variables, then what each becomes in `SignerEnvConfig`. */
export const signerEnvSchema = z
  .object({
    ...hostModeShape,
    FRAMES_PORT: portSchema.default(3001),
    SIGNER_PORT: portSchema.default(3002),
    FRAMES_ORIGIN: z.url({ protocol: /^https?$/, error: 'must be an http(s) origin' }).optional(),
    SIGNER_MASTER_KEY: z.string().min(1).optional(),
    SIGNER_SESSION_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
    SIGNER_CODES_PER_CONTACT_PER_DAY: z.coerce.number().int().min(1).max(1000).default(10),
    SIGNER_SMS_PER_PREFIX_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(300),
    SIGNER_SENDS_PER_IP_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(20),
    SIGNER_CODE_CHECKS_PER_IP_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
    SIGNER_QUERY_TIMESTAMP_REQUIRED: booleanSchema.default(false),
    JWT_PROVIDERS: jwtProvidersSchema,
    OAUTH_PROVIDERS: oauthProvidersSchema,
    MULTI_OWNER_ENABLED: booleanSchema.default(false),
  })
  .transform((env, context) => {
    const problems = findSignerProblems(env)
    if (problems.length > 0) return reportEnvProblems(context, problems)
    return {
      /** Port of the signer frames origin (auth and export frames), a different origin on purpose. */
      framesPort: env.FRAMES_PORT,
      /** Origin the browser loads the frames from, without a trailing slash. */
      framesOrigin: new URL(env.FRAMES_ORIGIN ?? `http://localhost:${env.FRAMES_PORT}`).origin,
      /** Port of the standalone signer (`npm run signer -w apps/signer`); by default the app server mounts it. */
      signerPort: env.SIGNER_PORT,
      /** Key-encryption key for wallet seeds (32 bytes, hex or base64); required outside dev mode, else a 0600 file in dataDir. */
      signerMasterKey: env.SIGNER_MASTER_KEY,
      /** Lifetime of an embedded-wallet session key, in seconds (900 by default; docs/signer.md#session-keys). */
      signerSessionSeconds: env.SIGNER_SESSION_SECONDS,
      /**
       * Codes (and magic links) the signer sends in any 24 hours: to one contact
       * (SIGNER_CODES_PER_CONTACT_PER_DAY) and to one phone-number range, country code and three
       * digits (SIGNER_SMS_PER_PREFIX_PER_DAY).
       */
      signerCodeSendCaps: {
        /** To one e-mail address or phone number, sign-in and verification codes together. */
        perContactPerDay: env.SIGNER_CODES_PER_CONTACT_PER_DAY,
        /** To all the phone numbers of one range (country code and three digits, see getPhonePrefix). */
        perPhonePrefixPerDay: env.SIGNER_SMS_PER_PREFIX_PER_DAY,
      },
      /**
       * Per-client limits of the unauthenticated routes, per minute (signer-rate-limits.ts): sends
       * (signup, auth, init-otp; SIGNER_SENDS_PER_IP_PER_MINUTE) and code checks (otp, verify-otp,
       * magic-link, auth-jwt, passkeys; SIGNER_CODE_CHECKS_PER_IP_PER_MINUTE). A client is an IPv4
       * address or IPv6 /64: raise them only where many people share one (the e2e suite's browsers).
       */
      signerRateLimits: {
        sendsPerIpPerMinute: env.SIGNER_SENDS_PER_IP_PER_MINUTE,
        codeChecksPerIpPerMinute: env.SIGNER_CODE_CHECKS_PER_IP_PER_MINUTE,
      },
      /**
       * SIGNER_QUERY_TIMESTAMP_REQUIRED: Turnkey's query paths refuse a body without `timestampMs`
       * (docs/signer.md#query-stamps). Off by default: stock `@turnkey/http` clients send none.
       */
      signerQueryTimestampRequired: env.SIGNER_QUERY_TIMESTAMP_REQUIRED,
      /** JWT_PROVIDERS: the issuers whose tokens sign users in at /signer/v1/auth-jwt; empty: none. */
      jwtProviders: env.JWT_PROVIDERS,
      /** OAUTH_PROVIDERS: the OpenID Connect providers of social login; empty: none. */
      oauthProviders: env.OAUTH_PROVIDERS,
      /**
       * MULTI_OWNER_ENABLED: the signer's experimental multi-owner paths (docs/signer.md#multi-owner);
       * off (the default) they answer 403.
       */
      multiOwnerEnabled: env.MULTI_OWNER_ENABLED,
    }
  })

/** The signer's own settings, from its section of the environment. */
export type SignerEnvConfig = z.output<typeof signerEnvSchema>

/** What the standalone signer process knows: the host's settings and the signer's. */
export type SignerProcessConfig = HostConfig & SignerEnvConfig

/**
 * A deployment without SIGNER_MASTER_KEY would keep the seeds' key in a file beside the data it
 * protects; identity providers' keys must not travel in clear; in production (PRODUCTION=true) the
 * frames need their own origin.
 */
function findSignerProblems(
  env: {
    PRODUCTION: boolean
    SIGNER_MASTER_KEY?: string | undefined
    FRAMES_ORIGIN?: string | undefined
  } & Parameters<typeof findClearTextProviders>[0],
): EnvProblem[] {
  const problems: EnvProblem[] = []
  if (!env.DEV_MODE && !env.SIGNER_MASTER_KEY) {
    problems.push([
      'SIGNER_MASTER_KEY',
      'required outside dev mode (32 bytes as 64 hex digits, e.g. `openssl rand -hex 32`, kept in your secret store)',
    ])
  }
  problems.push(...findClearTextProviders(env))
  if (env.PRODUCTION && env.FRAMES_ORIGIN === undefined) {
    problems.push([
      'FRAMES_ORIGIN',
      'required in production (the signer frames origin, a different host, e.g. https://frames.example.com)',
    ])
  }
  return problems
}

/**
 * Parses what the standalone signer owns: the host's section and the signer's (never the
 * server's: a bad SQUID_INTEGRATOR_ID is no reason for the signer not to start). Throws an Error
 * naming every invalid variable; `src/main.ts` prints it and exits.
 */
export function parseSignerEnv(
  source: Record<string, string | undefined> = process.env,
): SignerProcessConfig {
  const { host, signer } = parseEnvSections(source, { host: hostEnvSchema, signer: signerEnvSchema })
  return { ...host, ...signer }
}
