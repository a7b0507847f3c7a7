import * as z from 'zod/mini'
import { describeSchema } from './describe-schema.ts'
import { nameSchema } from './name-schema.ts'

/**
 * API keys (docs/api.md#api-keys): a payee's servers call the documented /api routes of a key's
 * scopes with `Authorization: Bearer <key>`, without a browser session or CSRF token. Keys are
 * made, listed and revoked only with a signed-in session (a key cannot make keys).
 */

/** What a key may do; each documented route names the scopes that let a key call it. */
export const apiKeyScopes = [
  'links:read',
  'links:write',
  'invoices:write',
  'payments:read',
  'webhooks:write',
] as const

export const apiKeyScopeSchema = z.enum(apiKeyScopes)

/** One scope of an API key. */
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>

/** Every key starts with this, so secret scanners and people can tell one on sight. */
export const apiKeyPrefix = 'qlk_'
/** `qlk_` + 43 base64url characters (256 random bits). */
export const apiKeyPattern = /^qlk_[A-Za-z0-9_-]{43}$/
export const apiKeyMaxNameLength = 64
/** Live (not revoked) keys one user may hold. */
export const apiKeyMaxLiveKeys = 20

/** POST /api/api-keys's body. */
export const createApiKeyRequestSchema = z.object({
  name: describeSchema(
    z
      .string({ error: 'name must be text' })
      .check(
        z.trim(),
        z.minLength(1, 'name must not be empty'),
        z.maxLength(apiKeyMaxNameLength, `name must be at most ${apiKeyMaxNameLength} characters`),
        z.regex(/^[^\p{Cc}]*$/u, 'name must not contain control characters'),
      ),
    'What the key is for, e.g. "Shop server"',
  ),
  scopes: describeSchema(
    z.array(apiKeyScopeSchema).check(z.minLength(1, 'scopes must name at least one scope')),
    'What the key may do',
  ),
})

/** What POST /api/api-keys accepts. */
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequestSchema>

/** An API key as its owner's list shows it: never the key itself. */
export const apiKeySchema = nameSchema(
  z.object({
    id: z.string(),
    name: z.string(),
    /** The key's first characters (`qlk_` + 4), to tell keys apart. */
    prefix: z.string(),
    scopes: z.array(apiKeyScopeSchema),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.nullable(z.iso.datetime()),
    revokedAt: z.nullable(z.iso.datetime()),
  }),
  'ApiKey',
)

/** An API key as listed. */
export type ApiKey = z.infer<typeof apiKeySchema>

/** The answer of POST /api/api-keys: the key, whose secret `key` is shown in this answer only. */
export const createdApiKeyResponseSchema = z.object({
  data: z.extend(apiKeySchema, {
    key: describeSchema(z.string(), 'The key itself: shown once, stored only as a hash'),
  }),
})

/** The answer of GET /api/api-keys: the caller's keys, newest first, revoked ones included. */
export const apiKeyListResponseSchema = z.object({ data: z.array(apiKeySchema) })

/** The answer of DELETE /api/api-keys/{id}: the key, now revoked. */
export const apiKeyResponseSchema = z.object({ data: apiKeySchema })

/** The path of DELETE /api/api-keys/{id}. */
export const apiKeyIdParamsSchema = z.object({
  id: describeSchema(z.string().check(z.maxLength(64)), 'The key id (a UUID)'),
})
