import { z } from 'zod'

const addressSchema = z.string().regex(/^0x[0-9a-fA-F]{40}$/)

/** A cross-chain quote (`deposit`): what the relayer matches a deposit against and the tracker follows. */
export const depositProviderDataSchema = z.object({
  kind: z.literal('deposit'),
  /** The source chain's PayRouter, which escrows the deposit. */
  payRouter: addressSchema,
  destinationPayRouter: addressSchema,
  fillDeadline: z.number().int(),
  escrowToken: z.string(),
  minEscrowAmount: z.string().regex(/^\d+$/),
  /** The destination head when the route was quoted: a fill cannot come before it. */
  destinationFromBlock: z.number().int().min(0),
})

/**
 * What the local provider stores with a route intent (build-local-route.ts), one shape per
 * PayRouter call: `pay`, `swapAndPay` (same chain) or `deposit` (cross-chain).
 */
export const localProviderDataSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pay'), payRouter: addressSchema }),
  z.object({
    kind: z.literal('swapAndPay'),
    payRouter: addressSchema,
    path: z.array(addressSchema),
    deadline: z.string().regex(/^\d+$/),
  }),
  depositProviderDataSchema,
])

export type LocalProviderData = z.output<typeof localProviderDataSchema>
export type DepositProviderData = z.output<typeof depositProviderDataSchema>
