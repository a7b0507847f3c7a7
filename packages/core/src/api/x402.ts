import * as z from 'zod/mini'
import { depositSchema } from './deposits.ts'
import { describeSchema } from './describe-schema.ts'
import { decimalAmountSchema } from './invoices.ts'
import { nameSchema } from './name-schema.ts'
import { payStatusSchema } from './pay-status.ts'
import { signedReceiptSchema } from './receipts.ts'

/**
 * x402 v2 (docs/decisions/0031): every link is a resource at /x402/pay/{slug} paid over HTTP, and
 * the server runs its own facilitator at /x402/facilitator/{verify,settle,supported}. The payment
 * payload's own shape is checked with `@x402/core/schemas` where it is parsed (the server); these
 * are the answers both ends read, typed to match `@x402/core/types`.
 */

/** The protocol version this server speaks. */
export const x402Version = 2

/** The x402 v2 HTTP headers (specs/transports-v2/http.md): each carries base64 JSON. */
export const x402Headers = {
  /** Server to client with the 402: the PaymentRequired object. */
  paymentRequired: 'PAYMENT-REQUIRED',
  /** Client to server on the retry: the PaymentPayload. */
  paymentSignature: 'PAYMENT-SIGNATURE',
  /** Server to client after settling: the SettleResponse. */
  paymentResponse: 'PAYMENT-RESPONSE',
} as const

/** The facilitator's paths on this server. */
export const x402FacilitatorPaths = {
  verify: '/x402/facilitator/verify',
  settle: '/x402/facilitator/settle',
  supported: '/x402/facilitator/supported',
} as const

/** An EVM chain's CAIP-2 network id, as x402 names networks (`eip155:8453`). Pure. */
export function toX402Network(chainId: number): `eip155:${number}` {
  return `eip155:${chainId}`
}

const extraSchema = z.record(z.string(), z.unknown())

/** One scheme on one network the facilitator settles (`SupportedKind`). */
export const x402SupportedKindSchema = z.object({
  x402Version: z.number(),
  scheme: z.string(),
  network: z.string(),
  extra: z.optional(extraSchema),
})

/** GET /x402/facilitator/supported's answer (`SupportedResponse`): kinds, extensions, signers by CAIP family. */
export const x402SupportedResponseSchema = z.object({
  kinds: z.array(x402SupportedKindSchema),
  extensions: z.array(z.string()),
  signers: z.record(z.string(), z.array(z.string())),
})

export type X402SupportedResponse = z.infer<typeof x402SupportedResponseSchema>

/**
 * POST /x402/facilitator/verify and /settle's body (x402 v2 section 7): the payload as the client
 * sent it and the requirement it claims to meet. Their inner shapes are the protocol's: the server
 * checks them with `@x402/core/schemas`.
 */
export const x402FacilitatorRequestSchema = z.object({
  x402Version: z.number(),
  paymentPayload: z.record(z.string(), z.unknown()),
  paymentRequirements: z.record(z.string(), z.unknown()),
})

export type X402FacilitatorRequest = z.infer<typeof x402FacilitatorRequestSchema>

/** POST /x402/facilitator/verify's answer (`VerifyResponse`): whether the payment would settle, or why not. */
export const x402VerifyResponseSchema = z.object({
  isValid: z.boolean(),
  /** The library's reason (`invalid_exact_evm_…`, `unsupported_scheme`), when not valid. */
  invalidReason: z.optional(z.string()),
  invalidMessage: z.optional(z.string()),
  /** The paying address, when the payload names one. */
  payer: z.optional(z.string()),
  extensions: z.optional(extraSchema),
})

export type X402VerifyResponse = z.infer<typeof x402VerifyResponseSchema>

/** POST /x402/facilitator/settle's answer (`SettleResponse`): the transaction that moved the payment, or why none did. */
export const x402SettleResponseSchema = z.object({
  success: z.boolean(),
  errorReason: z.optional(z.string()),
  errorMessage: z.optional(z.string()),
  payer: z.optional(z.string()),
  /** The settling transaction's hash; empty when nothing was sent. */
  transaction: z.string(),
  /** CAIP-2 network of the settlement. */
  network: z.string(),
  amount: z.optional(z.string()),
  extensions: z.optional(extraSchema),
})

export type X402SettleResponse = z.infer<typeof x402SettleResponseSchema>
// ---- The resource: GET /x402/pay/{slug}[/{invoiceId}] (x402pay) ----

/** The resource's path for a link, and for one of its invoices. */
export function buildX402PayPath(slug: string, invoiceId?: string): string {
  const path = `/x402/pay/${encodeURIComponent(slug)}`
  return invoiceId === undefined ? path : `${path}/${encodeURIComponent(invoiceId)}`
}

/** The resource's path parameters. */
export const x402PayParamsSchema = z.object({ slug: z.string().check(z.maxLength(256)) })
export const x402PayInvoiceParamsSchema = z.object({
  slug: z.string().check(z.maxLength(256)),
  invoiceId: z.string().check(z.maxLength(64)),
})

/** `?amount=`: for a link without an amount, in the link's token (a link's or invoice's own amount wins). */
export const x402PayQuerySchema = z.object({
  amount: z.optional(
    describeSchema(decimalAmountSchema, "For a link without an amount: a decimal string in the link's token"),
  ),
})

/** One way to pay (`PaymentRequirements`): the `exact` scheme on one network. */
export const x402PaymentRequirementsSchema = z.object({
  scheme: z.string(),
  network: z.string(),
  asset: z.string(),
  amount: z.string(),
  payTo: z.string(),
  maxTimeoutSeconds: z.number(),
  extra: extraSchema,
})

/** The 402's PAYMENT-REQUIRED object (`PaymentRequired`), also sent as its JSON body. */
export const x402PaymentRequiredSchema = nameSchema(
  z.object({
    x402Version: z.number(),
    error: z.optional(z.string()),
    resource: z.object({
      url: z.string(),
      description: z.optional(z.string()),
      mimeType: z.optional(z.string()),
    }),
    accepts: z.array(x402PaymentRequirementsSchema),
    extensions: z.optional(z.record(z.string(), z.unknown())),
  }),
  'X402PaymentRequired',
)

export type X402PaymentRequired = z.infer<typeof x402PaymentRequiredSchema>

/** The x402 `offer-receipt` extension's receipt, EIP-712 signed by the instance's receipt key. */
export const x402OfferReceiptSchema = nameSchema(
  z.object({
    format: z.literal('eip712'),
    payload: z.object({
      version: z.number(),
      network: z.string(),
      resourceUrl: z.string(),
      payer: z.string(),
      issuedAt: z.number(),
      transaction: z.string(),
    }),
    signature: z.string(),
  }),
  'X402OfferReceipt',
)

/**
 * A paid request's 200 body: the payment's record as GET /api/pay/status shows it (null while a
 * cross-chain deposit is not routed yet), the deposit it went into (cross chain), the payment's
 * signed receipt once it is final, and the offer-receipt extension's receipt.
 */
export const x402PaidResponseSchema = z.object({
  data: z.object({
    payment: z.nullable(payStatusSchema),
    deposit: z.nullable(depositSchema),
    receipt: z.nullable(signedReceiptSchema),
    offerReceipt: z.nullable(x402OfferReceiptSchema),
  }),
})

export type X402PaidResponse = z.infer<typeof x402PaidResponseSchema>
