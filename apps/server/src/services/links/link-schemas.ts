import { normaliseName, normaliseText } from '@quicklinks/core/slug'
import { isAddress } from 'viem'
import { z } from 'zod'

// No control characters (Postgres text cannot even hold NUL); the message may keep line breaks.
const singleLinePattern = /^[^\p{Cc}]*$/u
const multiLinePattern = /^[^\p{Cc}]*(?:[\n\r\t][^\p{Cc}]*)*$/u
const hexAddressPattern = /^0x[0-9a-fA-F]{40}$/

export const maxMessageLength = 280
export const maxSettingsBytes = 2048

const chainIdSchema = z.union(
  [
    z
      .number()
      .int()
      .positive()
      .max(2 ** 53 - 1),
    z
      .string()
      .regex(/^[1-9]\d{0,15}$/)
      .transform(Number),
  ],
  { error: 'must be a positive whole number' },
)

/** JSON text of an object, at most 2 KB; an object is accepted and stored as its JSON text. */
const settingsSchema = z
  .union([z.string(), z.record(z.string(), z.unknown())], { error: 'must be JSON text of an object' })
  .transform((value) => (typeof value === 'string' ? value : JSON.stringify(value)))
  .refine((text) => Buffer.byteLength(text, 'utf8') <= maxSettingsBytes, {
    message: `must be at most ${maxSettingsBytes} bytes of JSON`,
  })
  .refine(
    (text) => {
      try {
        const parsed: unknown = JSON.parse(text)
        return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      } catch {
        return false
      }
    },
    { message: 'must be JSON text of an object, e.g. "{}"' },
  )

// Stored as shown: NFKC, no invisible or direction-changing characters (they let one name pass for another).
const aliasSchema = z
  .string()
  .overwrite(normaliseName)
  .min(3, 'must be at least 3 characters')
  .max(64, 'must be at most 64 characters')
  .regex(singleLinePattern, 'must not contain control characters')

const aliasSlugSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters')
  .regex(singleLinePattern, 'must not contain control characters')

const messageSchema = z
  .string()
  .overwrite(normaliseText)
  .max(maxMessageLength, `must be at most ${maxMessageLength} characters`)
  .regex(multiLinePattern, 'must not contain control characters')
  .nullish()

const accountTypeSchema = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_-]{0,31}$/, 'must be a short lower-case word such as "personal"')

/** POST /api/links: SPEC's link fields plus an optional idempotency key. */
export const createLinkRequestSchema = z
  .object({
    link_type: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(64, 'must be at most 64 characters')
      .regex(singleLinePattern, 'must not contain control characters')
      .optional(),
    alias: aliasSchema,
    alias_slug: aliasSlugSchema
      .optional()
      .describe('The public name in /pay/{alias_slug}; derived from alias when absent'),
    receiver_address: z
      .string()
      .trim()
      .refine(
        (value) => isAddress(value),
        'must be a valid EVM address (0x and 40 hex digits, checksum-correct)',
      ),
    chain: z
      .string()
      .trim()
      .toLowerCase()
      .min(1, 'must not be empty')
      .max(32, 'must be at most 32 characters')
      .optional()
      .describe("The chain's network identifier, e.g. 'base'"),
    chain_id: chainIdSchema.optional().describe('Default 8453 (Base)'),
    token_name: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(32, 'must be at most 32 characters')
      .optional(),
    token_address: z
      .string()
      .trim()
      .regex(hexAddressPattern, 'must be a token address (0x and 40 hex digits)')
      .describe('The all-e address (or the zero address) means the native token'),
    message: messageSchema,
    account_type: accountTypeSchema.optional(),
    enabled: z.boolean().optional(),
    favorite: z.boolean().optional(),
    settings: settingsSchema.optional(),
    idempotency_key: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(128, 'must be at most 128 characters')
      .regex(singleLinePattern, 'must not contain control characters')
      .nullish(),
  })
  .meta({ id: 'CreateLinkRequest' })

/**
 * PUT /api/links/{id}: the editable fields. Receiver, chain and token may be sent (a form sends
 * the whole link) but only with their stored values.
 */
export const updateLinkRequestSchema = z
  .object({
    id: z.string().optional(),
    alias: aliasSchema.optional(),
    alias_slug: aliasSlugSchema.optional(),
    message: messageSchema,
    account_type: accountTypeSchema.optional(),
    enabled: z.boolean().optional(),
    favorite: z.boolean().optional(),
    settings: settingsSchema.optional(),
    receiver_address: z.string().optional(),
    chain: z.string().optional(),
    chain_id: z.union([z.number(), z.string()]).optional(),
    token_name: z.string().optional(),
    token_address: z.string().optional(),
  })
  .meta({ id: 'UpdateLinkRequest' })

/** A link as its owner sees it (SPEC section 3, Link). */
export const linkSchema = z
  .object({
    id: z.uuid(),
    link_type: z.string(),
    alias: z.string(),
    alias_slug: z.string(),
    receiver_address: z.string().describe('EIP-55 checksummed'),
    chain: z.string(),
    chain_id: z.number().int(),
    token_name: z.string(),
    token_address: z.string().describe('Lower-case'),
    message: z.string(),
    account_type: z.string(),
    enabled: z.boolean(),
    favorite: z.boolean(),
    settings: z.string().describe('JSON text of an object'),
    idempotency_key: z.string().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Link' })

/** What a payer's page may know about an enabled link. */
export const publicLinkSchema = linkSchema
  .pick({
    id: true,
    link_type: true,
    alias: true,
    alias_slug: true,
    receiver_address: true,
    chain: true,
    chain_id: true,
    token_name: true,
    token_address: true,
    message: true,
  })
  .meta({ id: 'PublicLink' })

export type CreateLinkRequest = z.infer<typeof createLinkRequestSchema>
export type UpdateLinkRequest = z.infer<typeof updateLinkRequestSchema>
export type LinkResponse = z.infer<typeof linkSchema>
export type PublicLinkResponse = z.infer<typeof publicLinkSchema>
