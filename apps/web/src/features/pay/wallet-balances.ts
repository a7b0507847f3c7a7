import { type BalanceEntryAnswer, walletBalancesAnswerSchema } from '@quicklinks/core/api/client-answers'
import { toTokenKey } from '@quicklinks/core/native-token-address'
import { queryOptions } from '@tanstack/react-query'
import { type Address, erc20Abi } from 'viem'
import type { Config } from 'wagmi'
import { readContract } from 'wagmi/actions'
import { type ApiClient, api } from '../../lib/api-client'
import { getUsdValue } from './pay-amount'

/** One token's balance of the payer on one chain (docs/api.md#balance-entry). */
export type BalanceRecord = {
  chainId: number
  address: string
  symbol: string
  decimals: number
  balance: bigint
}

/** One entry of the API's answer (its aliases already read), keyed the way the pay modal looks tokens up. */
function toBalanceRecord(entry: BalanceEntryAnswer, chainId: number): BalanceRecord {
  return {
    chainId,
    address: toTokenKey(entry.address),
    symbol: entry.symbol,
    decimals: entry.decimals,
    balance: BigInt(entry.balance),
  }
}

/** The chain a balance read is for: its id, and its network name when the catalogue has it. */
export type BalanceChain = { chainId: number; networkName?: string | undefined }

/**
 * The chain segment of a balances path (docs/api.md#balances): the network name lowercased with
 * spaces as hyphens ('Arbitrum One' → 'arbitrum-one'); the chain id while the name is unknown.
 */
export function toChainPathSegment(chain: BalanceChain): string {
  const name = chain.networkName?.trim()
  return name === undefined || name.length === 0
    ? String(chain.chainId)
    : name.toLowerCase().replace(/\s+/g, '-')
}

/**
 * GET /api/data/wallets/{chain}/{address}/balances (docs/api.md#balances), keyed by lowercase token address
 * with the native token under the all-e placeholder. A failed read gives an empty map: a
 * failed balance lookup means zero balance (docs/product.md#catalogue-filters).
 */
export async function getWalletBalances(
  chain: BalanceChain,
  address: string,
  client: ApiClient = api,
): Promise<Map<string, BalanceRecord>> {
  const { chainId } = chain
  const balances = new Map<string, BalanceRecord>()
  let list: BalanceEntryAnswer[]
  try {
    const body = await client.request(
      `/api/data/wallets/${encodeURIComponent(toChainPathSegment(chain))}/${encodeURIComponent(address)}/balances`,
      walletBalancesAnswerSchema,
    )
    list = body
  } catch {
    return balances
  }
  for (const value of list) {
    const entry = toBalanceRecord(value, chainId)
    const existing = balances.get(entry.address)
    if (existing === undefined || entry.balance > existing.balance) balances.set(entry.address, entry)
  }
  return balances
}

/** The balance of one token in a balance map (zero when absent). */
export function getTokenBalance(balances: ReadonlyMap<string, BalanceRecord>, tokenAddress: string): bigint {
  return balances.get(toTokenKey(tokenAddress))?.balance ?? 0n
}

/**
 * The dollar value of a wallet's holdings among `tokens` (the chain step's header figure); null
 * while the balances are unknown. Tokens without a price count as nothing.
 */
export function getTotalUsdValue(
  balances: ReadonlyMap<string, BalanceRecord> | undefined,
  tokens: readonly { address: string; decimals: number; usdPrice?: number | null | undefined }[],
): number | null {
  if (balances === undefined) return null
  return tokens.reduce((sum, token) => {
    const usd = getUsdValue(getTokenBalance(balances, token.address), {
      decimals: token.decimals,
      usdPrice: token.usdPrice ?? null,
    })
    return sum + (usd ?? 0)
  }, 0)
}

export const balanceKeys = {
  all: ['wallet-balances'] as const,
  wallet: (chainId: number, address: string) => ['wallet-balances', chainId, address.toLowerCase()] as const,
}

/** The payer's balances on one chain as a query (fresh for 15 s; refetched after a payment). */
export function walletBalancesQueryOptions(chain: BalanceChain, address: string, client: ApiClient = api) {
  const { chainId } = chain
  return queryOptions({
    queryKey: balanceKeys.wallet(chainId, address),
    queryFn: () => getWalletBalances(chain, address, client),
    staleTime: 15_000,
  })
}

/** Whose allowance of which token to which spender, on one chain. */
export type AllowanceQuery = { chainId: number; token: Address; owner: Address; spender: Address }

export const allowanceKeys = {
  all: ['allowance'] as const,
  of: (query: AllowanceQuery) =>
    ['allowance', query.chainId, query.token, query.owner, query.spender] as const,
}

/**
 * The ERC-20 allowance `owner` gave `spender`, read through the connected wallet's provider (wagmi's
 * `readContract`). Rejects when the wallet's RPC fails or the token is no ERC-20.
 */
export function getAllowance(config: Config, query: AllowanceQuery): Promise<bigint> {
  return readContract(config, {
    chainId: query.chainId,
    address: query.token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [query.owner, query.spender],
  })
}

/** The payer's allowance to a route's spender as a query: always refetched, as an approval changes it. */
export function allowanceQueryOptions(config: Config, query: AllowanceQuery) {
  return queryOptions({
    queryKey: allowanceKeys.of(query),
    queryFn: () => getAllowance(config, query),
    staleTime: 0,
  })
}
