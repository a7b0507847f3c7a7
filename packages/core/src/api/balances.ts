import * as z from 'zod/mini'
import { describeSchema } from './describe-schema.ts'
import { nameSchema } from './name-schema.ts'

/** One token a wallet holds (docs/api.md#balance-entry). */
export const balanceEntrySchema = nameSchema(
  z.object({
    chainId: z.int().check(z.positive()),
    address: describeSchema(z.string(), 'Checksummed; the native token uses the all-e placeholder'),
    symbol: z.string(),
    name: z.string(),
    decimals: z.int(),
    balance: describeSchema(z.string().check(z.regex(/^\d+$/)), 'Integer in the smallest unit'),
    native: z.boolean(),
    category: z.enum(['native', 'erc20']),
    logo_uri: z.string(),
  }),
  'BalanceEntry',
)

/** The path of GET /api/data/wallets/{chain}/{address}/balances (docs/api.md#balances). */
export const walletBalancesParamsSchema = z.object({
  chain: describeSchema(
    z.string().check(z.minLength(1), z.maxLength(64)),
    "A networkIdentifier ('base', 'avalanche', 'arbitrum' or 'arbitrum-one', any case) or a chain id",
  ),
  address: describeSchema(
    z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'address must be a 0x-prefixed 20-byte hex address.')),
    'The wallet address',
  ),
})

/** The answer of GET /api/data/wallets/{chain}/{address}/balances: highest balance first. */
export const walletBalancesResponseSchema = z.object({ data: z.array(balanceEntrySchema) })

/** One token a wallet holds, as the API answers it. */
export type BalanceEntry = z.infer<typeof balanceEntrySchema>
