import * as z from 'zod/mini'
import { describeSchema } from './describe-schema.ts'
import { nameSchema } from './name-schema.ts'

/**
 * The routing provider's API (docs/api.md#routing-providers): its chains and tokens, the route
 * that quotes a payment, and the receipt the payer's wallet posts after sending it.
 */

/** The path of GET /api/{provider}/chains, /tokens and POST /api/{provider}/route. */
export const providerParamsSchema = z.object({
  provider: describeSchema(
    z.string().check(z.maxLength(64)),
    "The configured routing provider ('local' by default)",
  ),
})

const positiveIntegerSchema = z.int().check(z.positive())

/**
 * The routing provider's contracts on a chain (docs/api.md#chain-object), each present when the
 * provider has it: the pay modal's spender falls back to them in this order
 * (docs/product.md#approval-and-spender).
 */
export const chainContractsSchema = z.object({
  router: describeSchema(
    z.optional(z.string()),
    "The provider's router (Squid's squidRouter, the devnet's PayRouter)",
  ),
  multicall: describeSchema(
    z.optional(z.string()),
    "The provider's multicall (squidMulticall, the devnet's Multicall3)",
  ),
  coralMulticall: describeSchema(z.optional(z.string()), "Squid's Coral multicall (squidCoralMulticall)"),
})

/** A chain the routing provider can pay to (docs/api.md#chain-object). */
export const routingChainSchema = nameSchema(
  z.object({
    chainId: positiveIntegerSchema,
    networkIdentifier: z.string(),
    axelarChainName: describeSchema(
      z.optional(z.string()),
      "Axelar's name for the chain, when the provider has one (Squid does; the devnet has none)",
    ),
    networkName: z.string(),
    chainIconURI: describeSchema(
      z.string(),
      'A path on this origin, or empty (the web then draws a monogram)',
    ),
    type: z.literal('evm'),
    enabled: z.boolean(),
    visible: z.boolean(),
    nativeCurrency: z.object({ symbol: z.string(), decimals: z.int() }),
    rpcUrl: describeSchema(z.string(), 'A public JSON-RPC URL a wallet can add (wallet_addEthereumChain)'),
    blockExplorerUrl: describeSchema(
      z.string(),
      'Explorer base without a trailing slash; {base}/tx/{hash} shows a transaction. May be empty',
    ),
    contracts: z.optional(chainContractsSchema),
  }),
  'Chain',
)

/** A token the routing provider can pay in or to (docs/api.md#token-object). */
export const routingTokenSchema = nameSchema(
  z.object({
    chainId: positiveIntegerSchema,
    address: describeSchema(z.string(), 'Checksummed; the native token uses the all-e placeholder'),
    symbol: z.string(),
    name: z.string(),
    decimals: z.int(),
    type: z.literal('evm'),
    logoURI: describeSchema(z.string(), 'A path on this origin, or empty'),
    active: z.boolean(),
    visible: z.boolean(),
    usdPrice: describeSchema(z.nullable(z.number()), 'USD for one whole token; null when unknown'),
    permit: describeSchema(
      z.optional(z.object({ name: z.string(), version: z.string() })),
      "The token takes EIP-2612 permit signatures: its EIP-712 domain name and version (USDC: 'USD Coin', '2'); absent otherwise",
    ),
  }),
  'Token',
)

/** The answer of GET /api/{provider}/chains (docs/api.md#routing-chains). */
export const chainListResponseSchema = z.object({ data: z.array(routingChainSchema) })

/** The answer of GET /api/{provider}/tokens (docs/api.md#routing-tokens). */
export const tokenListResponseSchema = z.object({ data: z.array(routingTokenSchema) })

/**
 * GET /api/{provider}/chains or /tokens as a client reads it, entry by entry: it keeps the entries
 * `routingChainSchema` or `routingTokenSchema` accepts, so a chain type it does not know yet (the
 * contract names only evm) is left out instead of failing the whole catalogue.
 */
export const catalogueAnswerSchema = z.object({ data: z.array(z.unknown()) })

const integerStringSchema = z
  .string()
  .check(z.regex(/^\d+$/, 'expected a non-negative integer as a decimal string'))

/** A token as a route action names it. */
export const routeTokenRefSchema = z.object({
  chainId: positiveIntegerSchema,
  address: z.string(),
  symbol: z.string(),
  decimals: z.int(),
  logoURI: z.string(),
})

/**
 * One step of a route (docs/api.md#route-action): a swap on one chain, a bridge between two, or a
 * transfer to the receiver. Amounts in the smallest unit. `provider` is who does the step: 'Uniswap
 * V2', 'Quick Links relayer', or Squid's provider name.
 */
export const routeActionSchema = nameSchema(
  z.object({
    type: z.enum(['swap', 'bridge', 'transfer']),
    fromChainId: positiveIntegerSchema,
    toChainId: positiveIntegerSchema,
    fromToken: routeTokenRefSchema,
    toToken: routeTokenRefSchema,
    fromAmount: integerStringSchema,
    toAmount: integerStringSchema,
    toAmountMin: integerStringSchema,
    provider: z.string(),
    providerLogoURI: z.string(),
    estimatedMs: z.int().check(z.nonnegative()),
  }),
  'RouteAction',
)

/**
 * The transaction the payer's wallet sends (docs/api.md#transaction-request): `to` is the contract
 * or account to call, `target` repeats it (Squid's name).
 */
export const transactionRequestSchema = nameSchema(
  z.object({
    to: z.string(),
    target: z.string(),
    data: z.string(),
    value: integerStringSchema,
    gasLimit: z.optional(integerStringSchema),
    maxFeePerGas: z.optional(integerStringSchema),
    maxPriorityFeePerGas: z.optional(integerStringSchema),
  }),
  'TransactionRequest',
)

/** The route POST /api/{provider}/route answers (docs/api.md#route-result). */
export const routeResultSchema = nameSchema(
  z.object({
    intentId: z.string(),
    route: z.object({
      transactionRequest: transactionRequestSchema,
      estimate: z.object({
        fromAmount: z.string(),
        toAmount: z.string(),
        toAmountMin: z.string(),
        requestedToAmount: describeSchema(
          z.optional(z.string()),
          'Exact output only: the toAmount asked for; toAmountMin is at least this',
        ),
        expectedExcess: describeSchema(
          z.optional(z.string()),
          'Exact output only: toAmount − requestedToAmount, the extra the quote includes to cover price movement',
        ),
        estimatedRouteDuration: describeSchema(z.number(), 'Seconds'),
        actions: z.array(routeActionSchema),
      }),
      spender: describeSchema(z.nullable(z.string()), 'Whom to approve for an ERC-20 input; null for native'),
      acceptsPermit: describeSchema(
        z.optional(z.boolean()),
        "True when the route's contract (PayRouter) takes an EIP-2612 permit in place of the approval: permitAndCall(token, value, deadline, v, r, s, transactionRequest.data)",
      ),
    }),
  }),
  'RouteResult',
)

/** The answer of POST /api/{provider}/route. */
export const routeResponseSchema = z.object({ data: routeResultSchema })

/** A chain of the routing provider. */
export type RoutingChain = z.infer<typeof routingChainSchema>
/** The routing provider's contracts on a chain. */
export type ChainContracts = z.infer<typeof chainContractsSchema>
/** A token of the routing provider. */
export type RoutingToken = z.infer<typeof routingTokenSchema>
/** One step of a route. */
export type RouteAction = z.infer<typeof routeActionSchema>
/** A token as a route action names it. */
export type RouteTokenRef = z.infer<typeof routeTokenRefSchema>
/** The transaction the payer's wallet sends. */
export type TransactionRequest = z.infer<typeof transactionRequestSchema>
/** The route result: intent id, transaction request, estimate and spender. */
export type RouteResult = z.infer<typeof routeResultSchema>
