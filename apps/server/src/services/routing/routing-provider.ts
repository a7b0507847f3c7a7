import { z } from 'zod'

/** The placeholder address of a chain's native token (SPEC section 3, Token). */
export const nativeTokenAddress = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
/** The zero address also stands for the native token. */
export const zeroAddress = '0x0000000000000000000000000000000000000000'

/** Whether an address (any case) is the native-token placeholder or the zero address. */
export function isNativeTokenAddress(address: string): boolean {
  const lower = address.toLowerCase()
  return lower === nativeTokenAddress.toLowerCase() || lower === zeroAddress
}

/** A chain the routing provider can pay to (SPEC section 3, Chain record), as the API returns it. */
export const routingChainSchema = z
  .object({
    chainId: z.number().int().positive(),
    networkIdentifier: z.string(),
    networkName: z.string(),
    chainIconURI: z.string().describe('A path on this origin, or empty (the web then draws a monogram)'),
    type: z.literal('evm'),
    enabled: z.boolean(),
    visible: z.boolean(),
    nativeCurrency: z.object({ symbol: z.string(), decimals: z.number().int() }),
  })
  .meta({ id: 'Chain' })

/** A token the routing provider can pay in or to (SPEC section 3, Token), as the API returns it. */
export const routingTokenSchema = z
  .object({
    chainId: z.number().int().positive(),
    address: z.string().describe('Checksummed; the native token uses the all-e placeholder'),
    symbol: z.string(),
    name: z.string(),
    decimals: z.number().int(),
    type: z.literal('evm'),
    logoURI: z.string().describe('A path on this origin, or empty'),
    active: z.boolean(),
    visible: z.boolean(),
  })
  .meta({ id: 'Token' })

export type RoutingChain = z.infer<typeof routingChainSchema>
export type RoutingToken = z.infer<typeof routingTokenSchema>

/**
 * A source of chains, tokens and (with the payment-engine issue) routes and their status.
 * ARCHITECTURE.md "Routing": `local` reads the devnet, `squid` adapts Squid's API.
 */
export type RoutingProvider = {
  /** Its name in the URL, /api/{name}/chains. */
  readonly name: string
  /** Every chain it serves. Throws AppError SERVICE_UNAVAILABLE when it has none configured. */
  chains(): Promise<RoutingChain[]>
  /** Every token on those chains, the native one of each included. Throws like `chains()`. */
  tokens(): Promise<RoutingToken[]>
}
