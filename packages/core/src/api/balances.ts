import { z } from 'zod'

/** One token a wallet holds (docs/api.md#balance-entry). */
export const balanceEntrySchema = z
  .object({
    chainId: z.number().int().positive(),
    address: z.string().describe('Checksummed; the native token uses the all-e placeholder'),
    symbol: z.string(),
    name: z.string(),
    decimals: z.number().int(),
    balance: z.string().regex(/^\d+$/).describe('Integer in the smallest unit'),
    native: z.boolean(),
    category: z.enum(['native', 'erc20']),
    logo_uri: z.string(),
  })
  .meta({ id: 'BalanceEntry' })

/** The path of GET /api/data/wallets/{chain}/{address}/balances (docs/api.md#balances). */
export const walletBalancesParamsSchema = z.object({
  chain: z
    .string()
    .min(1)
    .max(64)
    .describe(
      "A networkIdentifier ('base', 'avalanche', 'arbitrum' or 'arbitrum-one', any case) or a chain id",
    ),
  address: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'address must be a 0x-prefixed 20-byte hex address.')
    .describe('The wallet address'),
})

/** The answer of GET /api/data/wallets/{chain}/{address}/balances: highest balance first. */
export const walletBalancesResponseSchema = z.object({ data: z.array(balanceEntrySchema) })

/** One token a wallet holds, as the API answers it. */
export type BalanceEntry = z.infer<typeof balanceEntrySchema>
