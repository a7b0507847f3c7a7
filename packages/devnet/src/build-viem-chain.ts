import { type Chain, defineChain } from 'viem'

/** The parts of a devnet chain a viem client needs. */
export type ViemChainSource = {
  chainId: number
  name: string
  rpcUrl: string
  nativeSymbol: string
  contracts?: { multicall3?: `0x${string}` }
}

/**
 * A viem `Chain` for one devnet chain, with its RPC URL and Multicall3 address filled in so that
 * viem's `multicall` works without extra arguments. Pure; never throws.
 */
export function buildViemChain(source: ViemChainSource): Chain {
  const multicall3 = source.contracts?.multicall3
  return defineChain({
    id: source.chainId,
    name: source.name,
    nativeCurrency: { name: source.nativeSymbol, symbol: source.nativeSymbol, decimals: 18 },
    rpcUrls: { default: { http: [source.rpcUrl] } },
    ...(multicall3 ? { contracts: { multicall3: { address: multicall3 } } } : {}),
    testnet: true,
  })
}
