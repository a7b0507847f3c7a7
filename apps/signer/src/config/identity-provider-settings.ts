// JWT_PROVIDERS and OAUTH_PROVIDERS: the identity providers users sign in with, each a JSON list
// checked entry by entry (the signer's section of the environment, signer-env.ts).

import {
  type EnvProblem,
  jsonListSetting,
  refineUniqueKeys,
  settingIdSchema,
} from '@quicklinks/runtime/env/setting-schemas'
import { z } from 'zod'

const jwtProvidersShape = 'a JSON array of {id, issuer, jwksUrl, audience, requires?, maxAgeSeconds?}'

/** One issuer whose JWTs sign users in at `/signer/v1/auth-jwt` (an entry of JWT_PROVIDERS; docs/signer.md#auth-jwt). */
const jwtProviderSchema = z
  .object({
    /** What the SDK sends as `authProvider`. */
    id: settingIdSchema,
    /** The `iss` its tokens carry; a user is keyed by this and the token's `sub`. */
    // A user is keyed `{issuer}|{subject}`: a `|` in an issuer could make two keys read alike.
    issuer: z
      .string({ error: 'must be the iss claim of its tokens' })
      .min(1)
      .max(512)
      .regex(/^[^|]*$/, 'must not contain |'),
    /** Where the issuer publishes its signing keys (a JSON Web Key Set). */
    jwksUrl: z.url({
      protocol: /^https?$/,
      error: "must be the http(s) URL of the issuer's JSON Web Key Set",
    }),
    /** The `aud` its tokens must carry for this app. */
    audience: z.string({ error: 'must be the aud claim its tokens carry for this app' }).min(1).max(512),
    /**
     * What makes a token usable once, for one sign-in: `nonce` (the default) wants the claim
     * `nonce` = hex SHA-256 of the sign-in's `targetPublicKey`; `jti` wants a `jti` and an `iat` at
     * most `maxAgeSeconds` old. Either way a token signs in once.
     */
    requires: z.enum(['nonce', 'jti'], { error: 'must be "nonce" (the default) or "jti"' }).optional(),
    /** With `requires: 'jti'`: the oldest `iat` accepted, in seconds (default 300, at most 3600). */
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
  })

/** One custom-JWT issuer (docs/signer.md#auth-jwt). */
export type JwtProvider = z.output<typeof jwtProviderSchema>

/** JWT_PROVIDERS: the issuers whose tokens `/signer/v1/auth-jwt` accepts. Unset: none (the route refuses every token). */
export const jwtProvidersSchema = jsonListSetting(
  jwtProvidersShape,
  z
    .array(jwtProviderSchema, { error: `must be ${jwtProvidersShape}` })
    .superRefine(refineUniqueKeys('id', 'issuer')),
)

const oauthProvidersShape = 'a JSON array of {id, issuer, clientId, clientSecret?, scope?}'

/** One OpenID Connect provider of social login (an entry of OAUTH_PROVIDERS; docs/signer.md#social-login). */
const oauthProviderSchema = z
  .object({
    /** What the SDK sends as `authProviderId`: google, apple, facebook, twitch and auth0 have default scopes, any other id is a custom provider. */
    id: settingIdSchema,
    /** The issuer; its endpoints come from `{issuer}/.well-known/openid-configuration`. */
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
    /** This app's client id at the provider (the `aud` of its id tokens). */
    clientId: z.string({ error: "must be this app's client id at the provider" }).min(1).max(512),
    /** The client secret, sent to the token endpoint (client_secret_post); absent for a public client. */
    clientSecret: z.string().min(1).max(4096).optional(),
    /** Scopes to ask for; default per id (docs/signer.md#social-login). */
    scope: z.string().min(1).max(512).optional(),
  })
  .strict()

/** One social-login provider (docs/signer.md#social-login). */
export type OAuthProvider = z.output<typeof oauthProviderSchema>

/** OAUTH_PROVIDERS: the OpenID Connect providers of social login. Unset: none (no social buttons). */
export const oauthProvidersSchema = jsonListSetting(
  oauthProvidersShape,
  z
    .array(oauthProviderSchema, { error: `must be ${oauthProvidersShape}` })
    .superRefine(refineUniqueKeys('id')),
)

/**
 * Outside dev mode a provider's keys must not travel in clear (they could be swapped on the way,
 * and then anyone could sign in as anyone): names each http URL that is not on loopback.
 */
export function findClearTextProviders(env: {
  DEV_MODE: boolean
  JWT_PROVIDERS: readonly JwtProvider[]
  OAUTH_PROVIDERS: readonly OAuthProvider[]
}): EnvProblem[] {
  if (env.DEV_MODE) return []
  const isClearText = (url: URL) =>
    url.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
  const problems: EnvProblem[] = []
  env.JWT_PROVIDERS.forEach((provider, index) => {
    if (isClearText(new URL(provider.jwksUrl))) {
      problems.push([
        'JWT_PROVIDERS',
        `[${index}].jwksUrl: must be https outside dev mode (keys fetched over http could be swapped in transit)`,
      ])
    }
  })
  env.OAUTH_PROVIDERS.forEach((provider, index) => {
    // The discovery document names the keys that vouch for every id token.
    if (isClearText(new URL(provider.issuer))) {
      problems.push([
        'OAUTH_PROVIDERS',
        `[${index}].issuer: must be https outside dev mode (its keys fetched over http could be swapped in transit)`,
      ])
    }
  })
  return problems
}
