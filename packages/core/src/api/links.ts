import { isAddress } from 'viem'
import * as z from 'zod/mini'
import { normaliseName, normaliseText } from '../slug.ts'
import { describeSchema } from './describe-schema.ts'
import { decimalAmountSchema } from './invoices.ts'
import { nameSchema } from './name-schema.ts'

/**
 * What the owner's link API accepts (docs/api.md#links-create, #links-update) and what the web's
 * link form checks before it sends: the server's routes validate and document with these schemas,
 * the web's form validates with them. The answers are in link.ts, which the pay page reads without
 * these rules (nor viem's address check) in its bundle.
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

const noControlCharacters = z.regex(singleLinePattern, 'must not contain control characters')

const chainIdSchema = z.union(
  [
    z.number().check(z.int(), z.positive(), z.maximum(2 ** 53 - 1)),
    z.pipe(z.string().check(z.regex(/^[1-9]\d{0,15}$/)), z.transform(Number)),
  ],
  { error: 'must be a positive whole number' },
)

/** JSON text of an object, at most 2 KB; an object is accepted and stored as its JSON text. */
const settingsSchema = z
  .pipe(
    z.union([z.string(), z.record(z.string(), z.unknown())], { error: 'must be JSON text of an object' }),
    z.transform((value: string | Record<string, unknown>) =>
      typeof value === 'string' ? value : JSON.stringify(value),
    ),
  )
  .check(
    z.refine((text: string) => new TextEncoder().encode(text).length <= maxSettingsBytes, {
      message: `must be at most ${maxSettingsBytes} bytes of JSON`,
    }),
    z.refine(
      (text: string) => {
        try {
          const parsed: unknown = JSON.parse(text)
          return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        } catch {
          return false
        }
      },
      { message: 'must be JSON text of an object, e.g. "{}"' },
    ),
  )

// Stored as shown: NFKC, no invisible or direction-changing characters (they let one name pass for another).
const aliasSchema = z
  .string()
  .check(
    z.overwrite(normaliseName),
    z.minLength(aliasMinLength, `must be at least ${aliasMinLength} characters`),
    z.maxLength(aliasMaxLength, `must be at most ${aliasMaxLength} characters`),
    noControlCharacters,
  )

const aliasSlugSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'must not be empty'),
    z.maxLength(64, 'must be at most 64 characters'),
    noControlCharacters,
  )

const messageSchema = z.nullish(
  z
    .string()
    .check(
      z.overwrite(normaliseText),
      z.maxLength(maxMessageLength, `must be at most ${maxMessageLength} characters`),
      z.regex(multiLinePattern, 'must not contain control characters'),
    ),
)

const accountTypeSchema = z
  .string()
  .check(z.trim(), z.regex(/^[a-z][a-z0-9_-]{0,31}$/, 'must be a short lower-case word such as "personal"'))

const receiverAddressSchema = z.string().check(
  z.trim(),
  z.refine(
    (value: string) => isAddress(value),
    'must be a valid EVM address (0x and 40 hex digits, checksum-correct)',
  ),
)

const tokenAddressSchema = z
  .string()
  .check(z.trim(), z.regex(hexAddressPattern, 'must be a token address (0x and 40 hex digits)'))

const chainSchema = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.minLength(1, 'must not be empty'),
    z.maxLength(32, 'must be at most 32 characters'),
  )

/**
 * A link's fixed amount (docs/api.md#link-object): a decimal string in the link's token; null or
 * absent lets the payer choose. Whether it fits the token's decimals is the server's check.
 */
const linkAmountSchema = describeSchema(
  z.optional(z.nullable(decimalAmountSchema)),
  "A fixed amount, a decimal string in the link's token; null lets the payer choose",
)

/** The owner's e-mail on each verified payment of the link (docs/api.md#notices); default on. */
const notifyPaymentsSchema = describeSchema(
  z.optional(z.boolean()),
  'Whether the owner gets an e-mail on each verified payment; default true',
)

const tokenNameSchema = z
  .string()
  .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(32, 'must be at most 32 characters'))

/** POST /api/links (docs/api.md#links-create): the link's fields plus an optional idempotency key. */
export const createLinkRequestSchema = nameSchema(
  z.object({
    link_type: z.optional(
      z
        .string()
        .check(
          z.trim(),
          z.minLength(1, 'must not be empty'),
          z.maxLength(64, 'must be at most 64 characters'),
          noControlCharacters,
        ),
    ),
    alias: aliasSchema,
    alias_slug: describeSchema(
      z.optional(aliasSlugSchema),
      'The public name in /pay/{alias_slug}; derived from alias when absent',
    ),
    receiver_address: receiverAddressSchema,
    chain: describeSchema(z.optional(chainSchema), "The chain's network identifier, e.g. 'base'"),
    chain_id: describeSchema(z.optional(chainIdSchema), 'Default 8453 (Base)'),
    token_name: z.optional(tokenNameSchema),
    token_address: describeSchema(
      tokenAddressSchema,
      'The all-e address (or the zero address) means the native token',
    ),
    message: messageSchema,
    amount: linkAmountSchema,
    account_type: z.optional(accountTypeSchema),
    enabled: z.optional(z.boolean()),
    favorite: z.optional(z.boolean()),
    notify_payments: notifyPaymentsSchema,
    settings: z.optional(settingsSchema),
    idempotency_key: z.nullish(
      z
        .string()
        .check(
          z.trim(),
          z.minLength(1, 'must not be empty'),
          z.maxLength(128, 'must be at most 128 characters'),
          noControlCharacters,
        ),
    ),
  }),
  'CreateLinkRequest',
)

/**
 * PUT /api/links/{id} (docs/api.md#links-update): the editable fields. Receiver, chain and token
 * may be sent (a form sends the whole link) but only with their stored values.
 */
export const updateLinkRequestSchema = nameSchema(
  z.object({
    id: z.optional(z.string()),
    alias: z.optional(aliasSchema),
    alias_slug: z.optional(aliasSlugSchema),
    message: messageSchema,
    amount: linkAmountSchema,
    account_type: z.optional(accountTypeSchema),
    enabled: z.optional(z.boolean()),
    favorite: z.optional(z.boolean()),
    notify_payments: notifyPaymentsSchema,
    settings: z.optional(settingsSchema),
    receiver_address: z.optional(z.string()),
    chain: z.optional(z.string()),
    chain_id: z.optional(z.union([z.number(), z.string()])),
    token_name: z.optional(z.string()),
    token_address: z.optional(z.string()),
  }),
  'UpdateLinkRequest',
)

/**
 * What the link form checks before a create (docs/product.md#link-validation): the create request's
 * rules, with the receiver at least `receiverMinLength` characters first, and the chain and token the
 * form always sends made required. An edit is checked with `updateLinkRequestSchema`.
 */
export const linkFormSchema = z.extend(createLinkRequestSchema, {
  receiver_address: z.pipe(
    z
      .string()
      .check(z.trim(), z.minLength(receiverMinLength, `must be at least ${receiverMinLength} characters`)),
    receiverAddressSchema,
  ),
  chain: chainSchema,
  chain_id: chainIdSchema,
  token_name: tokenNameSchema,
  token_address: z.pipe(z.string().check(z.trim(), z.minLength(1, 'must not be empty')), tokenAddressSchema),
})

/** The body of POST /api/links as the client sends it (before the server's normalising). */
export type CreateLinkInput = z.input<typeof createLinkRequestSchema>
/** The body of PUT /api/links/{id} as the client sends it. */
export type UpdateLinkInput = z.input<typeof updateLinkRequestSchema>
/** POST /api/links's body after validation. */
export type CreateLinkRequest = z.infer<typeof createLinkRequestSchema>
/** PUT /api/links/{id}'s body after validation. */
export type UpdateLinkRequest = z.infer<typeof updateLinkRequestSchema>
/** What the link form sends to create a link: a create request with its chain and token chosen. */
export type LinkFormInput = z.input<typeof linkFormSchema>
