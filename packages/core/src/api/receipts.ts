import * as z from 'zod/mini'
import { describeSchema } from './describe-schema.ts'
import { nameSchema } from './name-schema.ts'

/**
 * Receipts anyone can verify (docs/api.md#receipts): an EIP-712 `Receipt` the instance signs for
 * every verified payment, served as viem's `verifyTypedData` arguments. Amounts, chain ids and
 * times are uint fields, so JSON carries them as decimal strings; `reviveReceiptMessage` turns
 * them back into bigints before verifying.
 */

/**
 * The EIP-712 domain. No chainId: a receipt speaks of two chains (source and destination) and is
 * signed by a key that sends nothing on either, so binding it to one chain would add nothing; no
 * verifyingContract: nothing on chain checks it.
 */
export const receiptDomain = { name: 'Quick Links Receipt', version: '1' } as const

/** The EIP-712 types of a receipt, in the order they are hashed. */
export const receiptTypes = {
  Receipt: [
    { name: 'linkId', type: 'string' },
    { name: 'invoiceId', type: 'string' },
    { name: 'receiver', type: 'address' },
    { name: 'destinationChainId', type: 'uint256' },
    { name: 'destinationToken', type: 'address' },
    { name: 'amountReceived', type: 'uint256' },
    { name: 'sourceChainId', type: 'uint256' },
    { name: 'sourceTxHash', type: 'bytes32' },
    { name: 'destinationTxHash', type: 'bytes32' },
    { name: 'payer', type: 'address' },
    { name: 'issuedAt', type: 'uint64' },
  ],
} as const

export const receiptPrimaryType = 'Receipt' as const

/** A receipt's message with its uint fields as bigints: what viem signs and verifies. */
export type ReceiptMessage = {
  linkId: string
  invoiceId: string
  receiver: `0x${string}`
  destinationChainId: bigint
  destinationToken: `0x${string}`
  amountReceived: bigint
  sourceChainId: bigint
  sourceTxHash: `0x${string}`
  destinationTxHash: `0x${string}`
  payer: `0x${string}`
  issuedAt: bigint
}

const addressSchema = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address'))
const hashSchema = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 32-byte hash'))
const uintSchema = z.string().check(z.regex(/^\d{1,78}$/, 'must be a decimal integer string'))

/** A receipt's message as JSON carries it: uint fields as decimal strings. */
export const receiptMessageJsonSchema = nameSchema(
  z.object({
    linkId: describeSchema(z.string(), "The paid link's id (a UUID), or '' when the link was deleted"),
    invoiceId: describeSchema(z.string(), "The invoice the payment was for (inv_…), or '' when none"),
    receiver: describeSchema(addressSchema, 'The address credited (EIP-55)'),
    destinationChainId: uintSchema,
    destinationToken: describeSchema(
      addressSchema,
      "The token credited; the all-e placeholder 0xEeee…EEeE is the chain's native token",
    ),
    amountReceived: describeSchema(uintSchema, "The verified credit, in the token's smallest unit"),
    sourceChainId: uintSchema,
    sourceTxHash: hashSchema,
    destinationTxHash: hashSchema,
    payer: describeSchema(addressSchema, 'The wallet that sent the source transaction (EIP-55)'),
    issuedAt: describeSchema(uintSchema, 'Unix seconds when the payment became final'),
  }),
  'ReceiptMessage',
)

/** A receipt's message as JSON carries it. */
export type ReceiptMessageJson = z.infer<typeof receiptMessageJsonSchema>

const typedDataFieldSchema = z.object({ name: z.string(), type: z.string() })

/** The domain and types as served (checked against `receiptDomain` and `receiptTypes` by verifiers). */
const receiptDefinitionShape = {
  domain: z.object({ name: z.string(), version: z.string() }),
  types: z.object({ Receipt: z.array(typedDataFieldSchema) }),
  primaryType: z.literal(receiptPrimaryType),
}

/** A signed receipt: exactly viem's `verifyTypedData` arguments once the message is revived. */
export const signedReceiptSchema = nameSchema(
  z.object({
    ...receiptDefinitionShape,
    message: receiptMessageJsonSchema,
    signature: describeSchema(
      z.string().check(z.regex(/^0x[0-9a-fA-F]+$/)),
      'The EIP-712 signature (65 bytes, hex)',
    ),
    signer: describeSchema(addressSchema, "The instance's receipt key (EIP-55)"),
  }),
  'SignedReceipt',
)

/** A signed receipt as JSON carries it. */
export type SignedReceipt = z.infer<typeof signedReceiptSchema>

/** The answer of GET /api/receipts/{intentId}. */
export const receiptResponseSchema = z.object({ data: signedReceiptSchema })

/** The path of the receipt routes: a malformed id is a 404. */
export const receiptParamsSchema = z.object({
  intentId: describeSchema(z.string().check(z.maxLength(80)), 'The payment’s intentId (0x + 64 hex, random)'),
})

/** GET /.well-known/quick-links-receipts.json: who signs this instance's receipts, and how. */
export const wellKnownReceiptsSchema = nameSchema(
  z.object({
    ...receiptDefinitionShape,
    signer: describeSchema(addressSchema, "The instance's receipt key (EIP-55)"),
    keyId: describeSchema(
      z.string(),
      'A short name for the key: the first 8 bytes of keccak256 of the signer address',
    ),
  }),
  'WellKnownReceipts',
)

/** The instance's receipt signer. */
export type WellKnownReceipts = z.infer<typeof wellKnownReceiptsSchema>

/** Longest e-mail address the receipt form takes (RFC 5321's path limit). */
export const receiptEmailMaxLength = 254

/** POST /api/receipts/{intentId}/email's body: where the payer wants a copy. */
export const receiptEmailRequestSchema = z.object({
  email: describeSchema(
    z
      .string({ error: 'email must be an e-mail address.' })
      .check(
        z.trim(),
        z.maxLength(receiptEmailMaxLength, 'email must be at most 254 characters.'),
        z.regex(
          /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\]]+$/,
          'email must be an e-mail address.',
        ),
      ),
    'The address to send one copy of the receipt to',
  ),
})

/** The answer of POST /api/receipts/{intentId}/email: queued (or already queued for that address). */
export const receiptEmailResponseSchema = z.object({ data: z.object({ queued: z.literal(true) }) })

/**
 * The message with its uint fields as bigints, as viem's `verifyTypedData` and `signTypedData`
 * want them (JSON has no bigint).
 */
export function reviveReceiptMessage(message: ReceiptMessageJson): ReceiptMessage {
  return {
    linkId: message.linkId,
    invoiceId: message.invoiceId,
    receiver: message.receiver as `0x${string}`,
    destinationChainId: BigInt(message.destinationChainId),
    destinationToken: message.destinationToken as `0x${string}`,
    amountReceived: BigInt(message.amountReceived),
    sourceChainId: BigInt(message.sourceChainId),
    sourceTxHash: message.sourceTxHash as `0x${string}`,
    destinationTxHash: message.destinationTxHash as `0x${string}`,
    payer: message.payer as `0x${string}`,
    issuedAt: BigInt(message.issuedAt),
  }
}

/** The message as JSON carries it: every bigint as its decimal string. */
export function toReceiptMessageJson(message: ReceiptMessage): ReceiptMessageJson {
  return {
    ...message,
    destinationChainId: message.destinationChainId.toString(),
    amountReceived: message.amountReceived.toString(),
    sourceChainId: message.sourceChainId.toString(),
    issuedAt: message.issuedAt.toString(),
  }
}
