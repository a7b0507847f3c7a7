import { queryOptions } from '@tanstack/react-query'
import { type ApiClient, api } from '../../lib/api-client'
import { isNativeTokenAddress, nativeTokenAddress } from '../routing/catalogue'

/** One token's balance of the payer on one chain (docs/api.md#balance-entry). */
export type BalanceRecord = {
  chainId: number
  address: string
  symbol: string
  decimals: number
  balance: bigint
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined
}

function readEntry(value: unknown, chainId: number): BalanceRecord | undefined {
  const entry = asRecord(value)
  if (entry === undefined) return undefined
  const isNative = entry.native === true || entry.category === 'native'
  const rawAddress = entry.contract ?? entry.token_address ?? entry.address
  const address = typeof rawAddress === 'string' ? rawAddress : isNative ? nativeTokenAddress : undefined
  const decimals = Number(entry.decimals ?? (isNative ? 18 : Number.NaN))
  const symbol = typeof entry.symbol === 'string' ? entry.symbol : isNative ? '' : undefined
  if (address === undefined || !Number.isInteger(decimals) || symbol === undefined) return undefined
  const rawBalance = entry.balance
  const balance =
    typeof rawBalance === 'string' && /^\d+$/.test(rawBalance)
      ? BigInt(rawBalance)
      : typeof rawBalance === 'number' && Number.isSafeInteger(rawBalance)
        ? BigInt(rawBalance)
        : 0n
  return {
    chainId,
    address: isNative ? nativeTokenAddress : address.toLowerCase(),
    symbol,
    decimals,
    balance,
  }
}

/**
 * GET /api/data/wallets/{chain}/{address}/balances (docs/api.md#balances), keyed by lowercase token address
 * with the native token under the all-e placeholder. A failed read gives an empty map: a
 * failed balance lookup means zero balance (docs/product.md#catalogue-filters).
 */
export async function getWalletBalances(
  chainId: number,
  address: string,
  client: ApiClient = api,
): Promise<Map<string, BalanceRecord>> {
  const balances = new Map<string, BalanceRecord>()
  let list: unknown[] = []
  try {
    const body = await client.request<unknown>(
      `/api/data/wallets/${chainId}/${encodeURIComponent(address)}/balances`,
    )
    const record = asRecord(body)
    list = Array.isArray(body)
      ? body
      : Array.isArray(record?.data)
        ? record.data
        : Array.isArray(record?.balances)
          ? record.balances
          : []
  } catch {
    return balances
  }
  for (const value of list) {
    const entry = readEntry(value, chainId)
    if (entry === undefined) continue
    const existing = balances.get(entry.address)
    if (existing === undefined || entry.balance > existing.balance) balances.set(entry.address, entry)
  }
  return balances
}

/** The balance of one token in a balance map (zero when absent). */
export function getTokenBalance(balances: ReadonlyMap<string, BalanceRecord>, tokenAddress: string): bigint {
  const key = isNativeTokenAddress(tokenAddress) ? nativeTokenAddress : tokenAddress.toLowerCase()
  return balances.get(key)?.balance ?? 0n
}

export const balanceKeys = {
  all: ['wallet-balances'] as const,
  wallet: (chainId: number, address: string) => ['wallet-balances', chainId, address.toLowerCase()] as const,
}

/** The payer's balances on one chain as a query (fresh for 15 s; refetched after a payment). */
export function walletBalancesQueryOptions(chainId: number, address: string, client: ApiClient = api) {
  return queryOptions({
    queryKey: balanceKeys.wallet(chainId, address),
    queryFn: () => getWalletBalances(chainId, address, client),
    staleTime: 15_000,
  })
}
