import { z } from 'zod'

// Squid v2's response shapes, as far as we read them. Every object is loose: Squid adds fields
// freely, and an unknown field must never fail a payment. Numbers Squid sends as strings (chain
// ids, amounts) are accepted either way.

const idSchema = z.union([z.string(), z.number()]).transform((value) => String(value))
const amountSchema = z.union([z.string(), z.number(), z.bigint()]).transform((value) => String(value))

/** One entry of GET /v2/chains `chains`. */
export const squidChainSchema = z.looseObject({
  chainId: idSchema,
  chainType: z.string(),
  networkIdentifier: z.string().optional(),
  axelarChainName: z.string().optional(),
  networkName: z.string().optional(),
  chainName: z.string().optional(),
  chainIconURI: z.string().optional(),
  rpc: z.string().optional(),
  blockExplorerUrls: z.array(z.string()).optional(),
  nativeCurrency: z.looseObject({ symbol: z.string(), decimals: z.number().int() }).optional(),
  estimatedRouteDuration: z.number().optional(),
  squidContracts: z
    .looseObject({
      squidRouter: z.string().optional(),
      squidMulticall: z.string().optional(),
      squidCoralMulticall: z.string().optional(),
    })
    .optional(),
})

/** One entry of GET /v2/tokens `tokens`. */
export const squidTokenSchema = z.looseObject({
  chainId: idSchema,
  address: z.string(),
  symbol: z.string(),
  name: z.string().optional(),
  decimals: z.number().int(),
  type: z.string().optional(),
  logoURI: z.string().optional(),
  usdPrice: z.union([z.number(), z.string()]).nullable().optional(),
  disabled: z.boolean().optional(),
})

const squidActionTokenSchema = z.looseObject({
  chainId: idSchema.optional(),
  address: z.string(),
  symbol: z.string(),
  decimals: z.number().int(),
  logoURI: z.string().optional(),
})

/** One entry of a route's `estimate.actions`. */
export const squidActionSchema = z.looseObject({
  type: z.string(),
  fromChain: idSchema,
  toChain: idSchema,
  fromToken: squidActionTokenSchema,
  toToken: squidActionTokenSchema,
  fromAmount: amountSchema,
  toAmount: amountSchema,
  toAmountMin: amountSchema.optional(),
  provider: z.string().optional(),
  logoURI: z.string().optional(),
  estimatedDuration: z.number().optional(),
  data: z.looseObject({ provider: z.string().optional(), name: z.string().optional() }).optional(),
})

/** POST /v2/route's answer. */
export const squidRouteResponseSchema = z.looseObject({
  route: z.looseObject({
    quoteId: z.string().optional(),
    estimate: z.looseObject({
      fromAmount: amountSchema,
      toAmount: amountSchema,
      toAmountMin: amountSchema,
      estimatedRouteDuration: z.number().optional(),
      actions: z.array(squidActionSchema).default([]),
    }),
    transactionRequest: z
      .looseObject({
        target: z.string(),
        data: z.string(),
        value: amountSchema.optional(),
        gasLimit: amountSchema.optional(),
        maxFeePerGas: amountSchema.optional(),
        maxPriorityFeePerGas: amountSchema.optional(),
      })
      .optional(),
  }),
})

const squidChainStatusSchema = z
  .looseObject({
    transactionId: z.string().nullable().optional(),
    transactionUrl: z.string().nullable().optional(),
  })
  .nullable()
  .optional()

/** GET /v2/status's answer. */
export const squidStatusResponseSchema = z.looseObject({
  id: z.string().optional(),
  status: z.string().optional(),
  squidTransactionStatus: z.string().optional(),
  gasStatus: z.string().nullable().optional(),
  isGMPTransaction: z.boolean().optional(),
  axelarTransactionUrl: z.string().nullable().optional(),
  fromChain: squidChainStatusSchema,
  toChain: squidChainStatusSchema,
  routeStatus: z
    .array(
      z.looseObject({
        chainId: idSchema.optional(),
        txHash: z.string().nullable().optional(),
        status: z.string().optional(),
        action: z.string().optional(),
      }),
    )
    .optional(),
  toAmount: amountSchema.nullable().optional(),
  error: z.unknown().optional(),
})

export type SquidChain = z.infer<typeof squidChainSchema>
export type SquidToken = z.infer<typeof squidTokenSchema>
export type SquidAction = z.infer<typeof squidActionSchema>
export type SquidRouteResponse = z.infer<typeof squidRouteResponseSchema>
export type SquidStatusResponse = z.infer<typeof squidStatusResponseSchema>
