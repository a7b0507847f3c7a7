import { multicall3Abi } from '@quicklinks/contracts/generated/multicall3'
import type { BalanceEntry } from '@quicklinks/core/api/balances'
import { type ContractFunctionParameters, createPublicClient, erc20Abi, getAddress, http } from 'viem'
import { type ConfiguredRpcConfig, getConfiguredRpcUrlOrThrow } from '../chains/find-configured-rpc-url.ts'
import {
  isNativeTokenAddress,
  nativeTokenAddress,
  type RoutingChain,
  type RoutingToken,
} from '../payments/route/routing-provider.ts'

/** Multicall3's address on every chain it is deployed to, the devnet's included. */
export const multicall3Address = '0xcA11bde05977b3631167028862bE2a173976CA11'

/** How long the one balances eth_call may take before the answer falls back to the native entry. */
const balanceReadTimeoutMs = 5000

export type ReadWalletBalancesInput = {
  config: ConfiguredRpcConfig
  chain: RoutingChain
  /** The provider's tokens; those of other chains are ignored. */
  tokens: readonly RoutingToken[]
  owner: `0x${string}`
}

/**
 * A wallet's balances on one chain: the native balance and every listed ERC-20's, read with ONE
 * Multicall3 `aggregate3` eth_call (getEthBalance + balanceOf each, failures allowed). Entries are
 * keyed by lowercase address (the largest balance wins), sorted by balance highest first, and the
 * native entry is always there. When the call fails, or the native read does, the answer is the
 * native entry alone with balance '0'; a single token whose balanceOf fails is left out.
 *
 * The chain is read through its configured RPC only (RPC_URL_<chainId> or the devnet's), never the
 * catalogue chain's `rpcUrl`; rejects with AppError SERVICE_UNAVAILABLE when it has none.
 */
export async function readWalletBalances(input: ReadWalletBalancesInput): Promise<BalanceEntry[]> {
  const { chain, owner } = input
  const nativeToken = input.tokens.find(
    (token) => token.chainId === chain.chainId && isNativeTokenAddress(token.address),
  )
  const nativeEntry = (balance: bigint): BalanceEntry => ({
    chainId: chain.chainId,
    address: nativeTokenAddress,
    symbol: chain.nativeCurrency.symbol,
    name: nativeToken?.name ?? chain.nativeCurrency.symbol,
    decimals: chain.nativeCurrency.decimals ?? 18,
    balance: balance.toString(),
    native: true,
    category: 'native',
    logo_uri: nativeToken?.logoURI ?? '',
  })
  const erc20s = input.tokens.filter(
    (token) =>
      token.chainId === chain.chainId &&
      !isNativeTokenAddress(token.address) &&
      /^0x[0-9a-fA-F]{40}$/.test(token.address) &&
      Number.isInteger(token.decimals) &&
      token.symbol !== '',
  )

  const rpcUrl = await getConfiguredRpcUrlOrThrow(input.config, chain.chainId)
  let results: readonly { status: 'success' | 'failure'; result?: unknown }[]
  try {
    const client = createPublicClient({
      transport: http(rpcUrl, { retryCount: 0, timeout: balanceReadTimeoutMs }),
    })
    results = await client.multicall({
      multicallAddress: multicall3Address,
      // Everything in one aggregate3 call, whatever its size.
      batchSize: 0,
      allowFailure: true,
      contracts: [
        {
          address: multicall3Address,
          abi: multicall3Abi,
          functionName: 'getEthBalance',
          args: [owner],
        },
        ...erc20s.map(
          (token): ContractFunctionParameters => ({
            address: token.address as `0x${string}`,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [owner],
          }),
        ),
      ],
    })
  } catch {
    return [nativeEntry(0n)]
  }

  const [nativeResult, ...tokenResults] = results
  if (nativeResult?.status !== 'success' || typeof nativeResult.result !== 'bigint') return [nativeEntry(0n)]

  const byAddress = new Map<string, { entry: BalanceEntry; balance: bigint }>()
  const keep = (entry: BalanceEntry, balance: bigint) => {
    const key = entry.address.toLowerCase()
    const existing = byAddress.get(key)
    if (!existing || balance > existing.balance) byAddress.set(key, { entry, balance })
  }
  keep(nativeEntry(nativeResult.result), nativeResult.result)
  erc20s.forEach((token, index) => {
    const result = tokenResults[index]
    if (result?.status !== 'success' || typeof result.result !== 'bigint') return
    keep(
      {
        chainId: chain.chainId,
        address: getAddress(token.address),
        symbol: token.symbol,
        name: token.name,
        decimals: token.decimals,
        balance: result.result.toString(),
        native: false,
        category: 'erc20',
        logo_uri: token.logoURI,
      },
      result.result,
    )
  })
  return [...byAddress.values()]
    .sort((left, right) => (left.balance === right.balance ? 0 : left.balance > right.balance ? -1 : 1))
    .map(({ entry }) => entry)
}
