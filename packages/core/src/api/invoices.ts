import * as z from 'zod/mini'
import { describeSchema } from './describe-schema.ts'
import { nameSchema } from './name-schema.ts'

/**
 * Invoices (docs/api.md#invoice-object): an amount in a link's token, due by a time, paid by any
 * number of verified payments from any token on any chain. The owner makes and reads them under
 * /api/links/{id}/invoices and /api/invoices; a payer reads one at /api/pay/invoices/{id}. The
 * state is only ever moved by the server from verified payments (docs/decisions/0025-invoice-states.md).
 */

/** Every state an invoice can be in (docs/api.md#invoice-states). */
export const invoiceStates = [
  'open',
  'processing',
  'paid',
  'paid_over',
  'underpaid',
  'expired',
  'paid_late',
  'refunded',
] as const

export const invoiceStateSchema = z.enum(invoiceStates)

/** An invoice's state. */
export type InvoiceState = z.infer<typeof invoiceStateSchema>

/** Default and bounds of an invoice's life (seconds): 60 min by default, 1 min to 30 days. */
export const invoiceDefaultExpiresInSeconds = 60 * 60
export const invoiceMinExpiresInSeconds = 60
export const invoiceMaxExpiresInSeconds = 30 * 24 * 60 * 60
/** How long after expiry a payment still counts (paid_late). */
export const invoiceMonitoringWindowSeconds = 24 * 60 * 60
export const invoiceMaxReferenceLength = 100
export const invoiceMaxMemoLength = 500

/** `inv_` + 22 base64url characters (128 random bits). */
export const invoiceIdPattern = /^inv_[A-Za-z0-9_-]{22}$/

const singleLinePattern = /^[^\p{Cc}]*$/u
const multiLinePattern = /^[^\p{Cc}]*(?:[\n\r\t][^\p{Cc}]*)*$/u

/**
 * A positive amount written as a decimal string in a token ("12", "0.5", "1000.000001"): digits,
 * one optional point, no sign, exponent or grouping. Whether it fits the token's decimals is the
 * server's check (it knows the token).
 */
export const decimalAmountSchema = z.string({ error: 'must be a decimal string such as "12.50"' }).check(
  z.trim(),
  z.regex(/^(?:\d{1,60})(?:\.\d{1,36})?$/, 'must be a decimal string such as "12.50"'),
  z.refine((text: string) => /[1-9]/.test(text), { message: 'must be more than zero' }),
)

/** The path of the invoice routes: an unknown or malformed id is a 404 there. */
export const invoiceIdParamsSchema = z.object({
  id: describeSchema(z.string().check(z.maxLength(64)), 'The invoice id (inv_…)'),
})

/** POST /api/links/{id}/invoices's body (docs/api.md#invoices-create). */
export const createInvoiceRequestSchema = z.object({
  amount: describeSchema(decimalAmountSchema, "What is due, a decimal string in the link's token"),
  reference: z.optional(
    z.nullable(
      z
        .string()
        .check(
          z.trim(),
          z.maxLength(invoiceMaxReferenceLength, `must be at most ${invoiceMaxReferenceLength} characters`),
          z.regex(singleLinePattern, 'must not contain control characters'),
        ),
    ),
  ),
  memo: z.optional(
    z.nullable(
      z
        .string()
        .check(
          z.trim(),
          z.maxLength(invoiceMaxMemoLength, `must be at most ${invoiceMaxMemoLength} characters`),
          z.regex(multiLinePattern, 'must not contain control characters'),
        ),
    ),
  ),
  expiresInSeconds: z.optional(
    z
      .number({ error: 'must be a whole number of seconds' })
      .check(
        z.int('must be a whole number of seconds'),
        z.minimum(invoiceMinExpiresInSeconds, `must be at least ${invoiceMinExpiresInSeconds} seconds`),
        z.maximum(
          invoiceMaxExpiresInSeconds,
          `must be at most ${invoiceMaxExpiresInSeconds} seconds (30 days)`,
        ),
      ),
  ),
  toleranceBps: z.optional(
    z
      .number({ error: 'must be a whole number of basis points' })
      .check(
        z.int('must be a whole number of basis points'),
        z.minimum(0, 'must be at least 0'),
        z.maximum(10_000, 'must be at most 10000 (100%)'),
      ),
  ),
})

/** What POST /api/links/{id}/invoices accepts. */
export type CreateInvoiceRequest = z.input<typeof createInvoiceRequestSchema>

/** The token an invoice is in, copied from its link when it was made. */
export const invoiceTokenSchema = z.object({
  chainId: z.int(),
  address: describeSchema(z.string(), 'Lower-case; the all-e address is the native token'),
  symbol: z.string(),
  decimals: z.int(),
})

/** An invoice as its owner sees it (docs/api.md#invoice-object). */
export const invoiceSchema = nameSchema(
  z.object({
    id: z.string(),
    linkId: z.string(),
    state: invoiceStateSchema,
    amount: describeSchema(z.string(), 'Decimal string in the token'),
    amountPaid: describeSchema(z.string(), 'Decimal string in the token: what verified payments delivered'),
    toleranceBps: z.int(),
    token: invoiceTokenSchema,
    receiverAddress: z.string(),
    reference: z.nullable(z.string()),
    memo: z.nullable(z.string()),
    expiresAt: z.iso.datetime(),
    monitorUntil: z.iso.datetime(),
    paidAt: z.nullable(z.iso.datetime()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    /** The invoice's public page (/pay/{slug}/{id}). */
    url: z.string(),
  }),
  'Invoice',
)

/** An invoice as its owner's API answers it. */
export type Invoice = z.infer<typeof invoiceSchema>

/** The answer of POST /api/links/{id}/invoices and GET /api/invoices/{id}. */
export const invoiceResponseSchema = z.object({ data: invoiceSchema })

/** GET /api/invoices's query: the owner's invoices, newest first, optionally of one link or state. */
export const invoiceListQuerySchema = z.object({
  linkId: z.optional(z.string().check(z.maxLength(64))),
  state: z.optional(invoiceStateSchema),
  cursor: z.optional(z.string().check(z.maxLength(200))),
  limit: z.optional(
    z.pipe(
      z.union([z.number(), z.string().check(z.regex(/^\d{1,3}$/, 'must be a whole number'))]),
      z.transform(Number),
    ),
  ),
})

/** The answer of GET /api/invoices. */
export const invoiceListResponseSchema = z.object({
  data: z.array(invoiceSchema),
  nextCursor: z.nullable(z.string()),
})

/**
 * An invoice as a payer sees it (GET /api/pay/invoices/{id}): what is due and where it goes; the
 * owner's reference stays on the owner's endpoints.
 */
export const publicInvoiceSchema = nameSchema(
  z.object({
    id: z.string(),
    linkId: z.string(),
    linkSlug: z.string(),
    linkAlias: z.string(),
    state: invoiceStateSchema,
    amount: z.string(),
    amountPaid: z.string(),
    /** What is left to pay (amount − paid, never below zero), a decimal string. */
    amountDue: z.string(),
    token: invoiceTokenSchema,
    receiverAddress: z.string(),
    memo: z.nullable(z.string()),
    expiresAt: z.iso.datetime(),
    url: z.string(),
  }),
  'PublicInvoice',
)

/** An invoice as a payer sees it. */
export type PublicInvoice = z.infer<typeof publicInvoiceSchema>

/** The answer of GET /api/pay/invoices/{id}. */
export const publicInvoiceResponseSchema = z.object({ data: publicInvoiceSchema })
