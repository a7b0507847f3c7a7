import * as z from 'zod/mini'
import { nameSchema } from './name-schema.ts'
import { routeIntentParamsSchema } from './route-intent.ts'

/**
 * A payment's public status under GET /api/pay/status/{intentId} (docs/api.md#pay-status): what the
 * payer's status page shows. The intent id (32 random bytes) is the capability, so the answer holds
 * only what the payer already knows: this one payment, its link's name, its chains, tokens, amounts
 * and hashes; never the payee's other payments or a server error.
 */

/** Every state a payment's status page shows (docs/api.md#pay-status-states). */
export const payStatusStates = [
  'in_flight',
  'bridging',
  'delivered',
  'failed',
  'refundable',
  'refunded',
] as const

export const payStatusStateSchema = z.enum(payStatusStates)

/** A payment's state on its status page. */
export type PayStatusState = z.infer<typeof payStatusStateSchema>

/** The states after which nothing more happens: the page stops polling. */
export const finalPayStatusStates: readonly PayStatusState[] = ['delivered', 'failed', 'refunded']

/** The path of GET /api/pay/status/{intentId}: the id the route answered, any case. */
export const payStatusParamsSchema = routeIntentParamsSchema

const addressSchema = z.string().check(z.regex(/^0x[0-9a-f]{40}$/))
const hashSchema = z.string().check(z.regex(/^0x[0-9a-f]{64}$/))
const integerStringSchema = z.string().check(z.regex(/^\d+$/))

/** A token of the payment: its chain, address (lower-case), symbol and decimals. */
export const payStatusTokenSchema = z.object({
  chainId: z.int(),
  address: z.string(),
  symbol: z.string(),
  decimals: z.int(),
})

/**
 * How the payer takes back a cross-chain deposit nobody filled (docs/api.md#pay-status-refund):
 * the wallet sends `data` to `contract` on `chainId` (PayRouter's `refund(order)`, `functionName`
 * and `args` say what `data` encodes). The contract accepts it only after `availableAt` (the fill
 * deadline plus the settlement window, by the source chain's clock) and pays the escrow to
 * `depositor`, the wallet that paid; the status page sends it from that wallet only.
 */
export const payStatusRefundSchema = nameSchema(
  z.object({
    available: z.boolean(),
    availableAt: z.iso.datetime(),
    /** Seconds from the answer until `availableAt` by the source chain's clock; 0 once available. */
    secondsUntilAvailable: z.int().check(z.nonnegative()),
    contract: addressSchema,
    chainId: z.int(),
    functionName: z.literal('refund'),
    /** The Order tuple `refund` takes, as the Deposited event gave it (amounts as decimal strings). */
    args: z.object({
      intentId: hashSchema,
      sourceChainId: integerStringSchema,
      payer: addressSchema,
      escrowToken: addressSchema,
      escrowAmount: integerStringSchema,
      receiver: addressSchema,
      destinationChainId: integerStringSchema,
      destinationToken: addressSchema,
      minAmountOut: integerStringSchema,
      fillDeadline: integerStringSchema,
    }),
    data: z.string().check(z.regex(/^0x[0-9a-f]*$/)),
    depositor: addressSchema,
  }),
  'PayStatusRefund',
)

/** A payment as its status page shows it (docs/api.md#pay-status). Amounts in the smallest unit. */
export const payStatusSchema = nameSchema(
  z.object({
    intentId: hashSchema,
    state: payStatusStateSchema,
    /** The paid link's name; null when the payee deleted the link since. */
    linkName: z.nullable(z.string()),
    fromChainId: z.int(),
    toChainId: z.int(),
    fromToken: payStatusTokenSchema,
    toToken: payStatusTokenSchema,
    /** What the payer's wallet sent. */
    fromAmount: integerStringSchema,
    /** The least the receiver gets, as quoted. */
    toAmountMin: integerStringSchema,
    /** What the chain shows the receiver got; null until delivered. */
    toAmountReceived: z.nullable(integerStringSchema),
    payer: addressSchema,
    sourceTxHash: z.nullable(hashSchema),
    destTxHash: z.nullable(hashSchema),
    /** The refund transaction, once the escrow went back (found on the source chain). */
    refundTxHash: z.nullable(hashSchema),
    /** Explorer pages of the hashes; null when the chain has no explorer. */
    sourceTxUrl: z.nullable(z.string()),
    destTxUrl: z.nullable(z.string()),
    refundTxUrl: z.nullable(z.string()),
    /** The route's estimate of the whole payment, for "this usually takes about N minutes". */
    estimatedDurationMs: z.int(),
    createdAt: z.iso.datetime(),
    submittedAt: z.nullable(z.iso.datetime()),
    completedAt: z.nullable(z.iso.datetime()),
    updatedAt: z.iso.datetime(),
    /** Present for a cross-chain deposit of our own router that was not filled (yet). */
    refund: z.nullable(payStatusRefundSchema),
  }),
  'PayStatus',
)

/** The answer of GET /api/pay/status/{intentId}. */
export const payStatusResponseSchema = z.object({ data: payStatusSchema })

export type PayStatus = z.infer<typeof payStatusSchema>
export type PayStatusRefund = z.infer<typeof payStatusRefundSchema>
export type PayStatusToken = z.infer<typeof payStatusTokenSchema>
