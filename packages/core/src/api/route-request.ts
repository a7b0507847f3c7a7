import { getAddress } from 'viem'
import * as z from 'zod/mini'
import { isNativeTokenAddress, nativeTokenAddress } from '../native-token-address.ts'
import { describeSchema } from './describe-schema.ts'
import { invoiceIdPattern } from './invoices.ts'
import { nameSchema } from './name-schema.ts'

const invoiceIdMessage = 'invoiceId must be an invoice id (inv_ followed by 22 characters).'
const invoiceIdSchema = z.pipe(
  z.optional(z.nullable(z.string({ error: invoiceIdMessage }))),
  z.pipe(
    z.transform((value: string | null | undefined) =>
      value === undefined || value === null || value === '' ? null : value,
    ),
    z.nullable(z.string().check(z.regex(invoiceIdPattern, invoiceIdMessage))),
  ),
)

/**
 * POST /api/{provider}/route's body (docs/api.md#route-request) with every rule the server applies
 * to it: the route's schema validates it and names the first bad field with a sentence the pay
 * modal shows as it is ("fromAmount must be a positive integer in the token's smallest unit."), so
 * no handler or service checks a field again. Chain ids and amounts may come as numbers or digit
 * strings; addresses come out checksummed, native as the all-e placeholder.
 */

const addressPattern = /^0x[0-9a-fA-F]{40}$/
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A number or a string as trimmed text: the raw spelling the digit rules below read. */
const toTrimmedText = z.transform((value: number | string) => String(value).trim())

function chainIdSchema(field: string) {
  const message = `${field} must be a chain id such as 8453.`
  return z.pipe(
    z.pipe(z.union([z.number(), z.string()], { error: message }), toTrimmedText),
    z.pipe(z.string().check(z.regex(/^[1-9]\d{0,15}$/, message)), z.transform(Number)),
  )
}

function addressSchema(field: string, what: string) {
  const message = `${field} must be ${what} (0x followed by 40 hex digits).`
  return z.pipe(
    z.string({ error: message }).check(z.trim(), z.regex(addressPattern, message)),
    z.transform((address: string) => getAddress(address.toLowerCase())),
  )
}

function tokenAddressSchema(field: string) {
  return z.pipe(
    addressSchema(field, 'a token address'),
    z.transform((address: `0x${string}`) => (isNativeTokenAddress(address) ? nativeTokenAddress : address)),
  )
}

function amountSchema(field: string) {
  const message = `${field} must be a positive integer in the token's smallest unit.`
  return z.pipe(
    // A number only while it is exact (a safe integer); larger amounts come as digit strings.
    z.pipe(
      z.union(
        [z.number().check(z.refine((amount: number) => Number.isSafeInteger(amount), message)), z.string()],
        { error: message },
      ),
      toTrimmedText,
    ),
    z.pipe(
      z
        .string()
        .check(z.refine((digits: string) => /^\d{1,78}$/.test(digits) && BigInt(digits) > 0n, message)),
      z.transform((digits: string) => BigInt(digits)),
    ),
  )
}

const fromAmountMessage = "fromAmount must be a positive integer in the token's smallest unit."
/** The sentence for a body that names both amounts. */
export const bothAmountsMessage =
  'Send either fromAmount (what the payer pays) or toAmount (what the receiver must get), not both.'

const slippageMessage = 'slippage must be a percentage from 0 to 50.'
const slippageSchema = z.pipe(
  z.optional(z.nullable(z.union([z.number(), z.string()], { error: slippageMessage }))),
  z.pipe(
    // Absent, null or empty: the default 1 %.
    z.transform((value: number | string | null | undefined) =>
      value === undefined || value === null || value === '' ? 1 : Number(value),
    ),
    z.number({ error: slippageMessage }).check(z.gte(0, slippageMessage), z.lte(50, slippageMessage)),
  ),
)

const linkIdMessage = 'linkId must be a link id (a UUID).'
const linkIdSchema = z.pipe(
  z.optional(z.nullable(z.string({ error: linkIdMessage }))),
  z.pipe(
    z.transform((value: string | null | undefined) =>
      value === undefined || value === null || value === '' ? null : value,
    ),
    z.nullable(
      z.pipe(
        z.string().check(z.regex(uuidPattern, linkIdMessage)),
        z.transform((id: string) => id.toLowerCase()),
      ),
    ),
  ),
)

/**
 * POST /api/{provider}/route's body (docs/api.md#route-request). Fields are checked in this order
 * (`linkId` first, then `invoiceId`), and the first bad one is named with its sentence; a body that is no JSON object
 * is 'Send the route request as a JSON object.'
 */
export const routeRequestBodySchema = nameSchema(
  z
    .object(
      {
        linkId: describeSchema(
          linkIdSchema,
          'The link paid (uuid); only a signed-in user swapping into their own wallet may leave it out',
        ),
        invoiceId: describeSchema(
          invoiceIdSchema,
          'The invoice this route pays part or all of (inv_…); its link must be linkId',
        ),
        fromChain: describeSchema(chainIdSchema('fromChain'), 'Source chain id (number or digit string)'),
        toChain: describeSchema(chainIdSchema('toChain'), 'Destination chain id: the link’s chain'),
        fromToken: describeSchema(
          tokenAddressSchema('fromToken'),
          'Token paid in; the all-e placeholder (or zero address) for native',
        ),
        toToken: describeSchema(tokenAddressSchema('toToken'), 'Token the receiver gets: the link’s token'),
        fromAmount: describeSchema(
          z.optional(amountSchema('fromAmount')),
          "What the payer pays: a positive integer in fromToken's smallest unit (digit string). Send it or toAmount, not both",
        ),
        toAmount: describeSchema(
          z.optional(amountSchema('toAmount')),
          "What the receiver must get at least (exact output): a positive integer in toToken's smallest unit (digit string). Instead of fromAmount: the server computes the input, rounded up to cover slippage",
        ),
        fromAddress: describeSchema(
          addressSchema('fromAddress', 'the paying wallet address'),
          'The paying wallet',
        ),
        toAddress: describeSchema(
          addressSchema('toAddress', "the receiver's address"),
          'The receiver: the link’s',
        ),
        slippage: describeSchema(slippageSchema, 'Percent from 0 to 50, default 1'),
      },
      { error: 'Send the route request as a JSON object.' },
    )
    .check(
      // Exactly one amount: an absent one is named as fromAmount (the usual field), two are refused.
      z.superRefine((body, context) => {
        if (body.fromAmount !== undefined && body.toAmount !== undefined) {
          context.issues.push({
            code: 'custom',
            path: ['toAmount'],
            message: bothAmountsMessage,
            input: body,
          })
        } else if (body.fromAmount === undefined && body.toAmount === undefined) {
          context.issues.push({
            code: 'custom',
            path: ['fromAmount'],
            message: fromAmountMessage,
            input: body,
          })
        }
      }),
    ),
  'RouteRequest',
)

/** POST /api/{provider}/route's body as the client sends it. */
export type RouteRequestBody = z.input<typeof routeRequestBodySchema>
/**
 * A route request after validation: ids as numbers, checksummed addresses, the amount a bigint;
 * exactly one of fromAmount (exact input) and toAmount (exact output) is set.
 */
export type RouteRequest = z.output<typeof routeRequestBodySchema>
