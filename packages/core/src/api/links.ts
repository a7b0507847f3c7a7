import { isAddress } from 'viem'
import { z } from 'zod'
import { normaliseName, normaliseText } from '../slug.ts'

/**
 * The owner's link API (docs/api.md#link-object, #links-create, #links-update): what the server
 * accepts and answers under /api/links, and what the web's link form checks before it sends.
 * One definition: the server's routes validate and document with these schemas, the web parses
 * its answers and validates its form with them.
 */

// No control characters (Postgres text cannot even hold NUL); the message may keep line breaks.
const singleLinePattern = /^[^\p{Cc}]*$/u
const multiLinePattern = /^[^\p{Cc}]*(?:[\n\r\t][^\p{Cc}]*)*$/u
const hexAddressPattern = /^0x[0-9a-fA-F]{40}$/

export const aliasMinLength = 3
export const aliasMaxLength = 64
export const maxMessageLength = 280
export const maxSettingsBytes = 2048
/** The link form asks for this much of a receiver before it judges the address (docs/product.md#link-validation). */
export const receiverMinLength = 6

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
  .refine((text) => new TextEncoder().encode(text).length <= maxSettingsBytes, {
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
  .min(aliasMinLength, `must be at least ${aliasMinLength} characters`)
  .max(aliasMaxLength, `must be at most ${aliasMaxLength} characters`)
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

const receiverAddressSchema = z
  .string()
  .trim()
  .refine((value) => isAddress(value), 'must be a valid EVM address (0x and 40 hex digits, checksum-correct)')

const tokenAddressSchema = z
  .string()
  .trim()
  .regex(hexAddressPattern, 'must be a token address (0x and 40 hex digits)')

/** POST /api/links (docs/api.md#links-create): the link's fields plus an optional idempotency key. */
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
    receiver_address: receiverAddressSchema,
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
    token_address: tokenAddressSchema.describe(
      'The all-e address (or the zero address) means the native token',
    ),
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
 * PUT /api/links/{id} (docs/api.md#links-update): the editable fields. Receiver, chain and token
 * may be sent (a form sends the whole link) but only with their stored values.
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

/**
 * What the link form checks before a create (docs/product.md#link-validation): the create request's
 * rules, with the receiver at least `receiverMinLength` characters first, and the chain and token the
 * form always sends made required. An edit is checked with `updateLinkRequestSchema`.
 */
export const linkFormSchema = createLinkRequestSchema.extend({
  receiver_address: z
    .string()
    .trim()
    .min(receiverMinLength, `must be at least ${receiverMinLength} characters`)
    .pipe(receiverAddressSchema),
  chain: z.string().trim().toLowerCase().min(1, 'must not be empty').max(32, 'must be at most 32 characters'),
  chain_id: chainIdSchema,
  token_name: z.string().trim().min(1, 'must not be empty').max(32, 'must be at most 32 characters'),
  token_address: z.string().trim().min(1, 'must not be empty').pipe(tokenAddressSchema),
})

/** A link as its owner sees it (docs/api.md#link-object). */
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
    message: z.string().describe('Empty when the link has none'),
    account_type: z.string(),
    enabled: z.boolean(),
    favorite: z.boolean(),
    settings: z.string().describe('JSON text of an object'),
    idempotency_key: z.string().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Link' })

/** The path of GET, PUT and DELETE /api/links/{id}. */
export const linkIdParamsSchema = z.object({ id: z.string().max(64).describe('The link id (a UUID)') })

/** The answer of POST, GET and PUT /api/links[/{id}]: the link. */
export const linkResponseSchema = z.object({ data: linkSchema })

/** The answer of GET /api/links (docs/api.md#links-list): the caller's links, newest first. */
export const linkListResponseSchema = z.object({ data: z.array(linkSchema) })

/** The answer of DELETE /api/links/{id} (docs/api.md#links-delete): the id that went. */
export const deleteLinkResponseSchema = z.object({ data: z.object({ id: z.string() }) })

/** The body of POST /api/links as the client sends it (before the server's normalising). */
export type CreateLinkInput = z.input<typeof createLinkRequestSchema>
/** The body of PUT /api/links/{id} as the client sends it. */
export type UpdateLinkInput = z.input<typeof updateLinkRequestSchema>
/** POST /api/links's body after validation. */
export type CreateLinkRequest = z.infer<typeof createLinkRequestSchema>
/** PUT /api/links/{id}'s body after validation. */
export type UpdateLinkRequest = z.infer<typeof updateLinkRequestSchema>
/** A link as the owner's API answers it. */
export type LinkResponse = z.infer<typeof linkSchema>
/** GET /api/links's answer. */
export type LinkListResponse = z.infer<typeof linkListResponseSchema>
/** What the link form sends to create a link: a create request with its chain and token chosen. */
export type LinkFormInput = z.input<typeof linkFormSchema>
