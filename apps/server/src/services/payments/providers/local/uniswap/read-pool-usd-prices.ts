import { uniswapV2PairAbi } from '@quicklinks/contracts/generated/uniswap-v2-pair'
import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import type { DevnetChainDeployment } from '@quicklinks/devnet/devnet-deployment'
import { createPublicClient, http } from 'viem'

/** How long one price read may take before the tokens list goes out without prices. */
const priceReadTimeoutMs = 3000
/** Fixed-point scale of the price division (whole USD × 10^9), so sub-cent prices survive. */
const priceScale = 10n ** 9n

/**
 * USD prices of a devnet chain's tokens from its Uniswap V2 pools, keyed by lowercase address
 * (the native placeholder included): USDC is 1, the wrapped native token and the native token
 * take the wrapped-native/USDC pool's price, USDT the USDT/USDC pool's. Both pools' reserves come
 * from ONE Multicall3 `aggregate3` eth_call. A token whose pool is empty or unreadable is left out;
 * throws when the RPC call itself fails (the caller then lists the tokens without prices).
 */
export async function readPoolUsdPrices(
  chain: DevnetChainDeployment,
  rpcUrl: string,
): Promise<Map<string, number>> {
  const prices = new Map<string, number>()
  const usdc = chain.tokens.find((token) => token.symbol === 'USDC')
  if (!usdc) return prices
  prices.set(usdc.address.toLowerCase(), 1)

  const usdt = chain.tokens.find((token) => token.symbol === 'USDT')
  const wrapped = chain.tokens.find(
    (token) => token.address.toLowerCase() === chain.contracts.weth.toLowerCase(),
  ) ?? { address: chain.contracts.weth, decimals: 18 }
  const pools = [
    { pair: chain.contracts.wethUsdcPair, token: wrapped },
    ...(usdt ? [{ pair: chain.contracts.usdtUsdcPair, token: usdt }] : []),
  ]

  const client = createPublicClient({
    transport: http(rpcUrl, { retryCount: 0, timeout: priceReadTimeoutMs }),
  })
  const results = await client.multicall({
    multicallAddress: chain.contracts.multicall3,
    // One aggregate3 call whatever the calldata size.
    batchSize: 0,
    allowFailure: true,
    contracts: pools.map((pool) => ({
      address: pool.pair,
      abi: uniswapV2PairAbi,
      functionName: 'getReserves' as const,
    })),
  })
  if (results.every((result) => result.status === 'failure')) {
    throw new Error(`reading the pool reserves on chain ${chain.chainId} failed`, {
      cause: results[0]?.error,
    })
  }

  pools.forEach((pool, index) => {
    const result = results[index]
    if (result?.status !== 'success') return
    const [reserve0, reserve1] = result.result
    // A Uniswap V2 pair orders its tokens by address: token0 is the lower one.
    const isUsdcToken0 = BigInt(usdc.address) < BigInt(pool.token.address)
    const usdcReserve = isUsdcToken0 ? reserve0 : reserve1
    const tokenReserve = isUsdcToken0 ? reserve1 : reserve0
    if (usdcReserve === 0n || tokenReserve === 0n) return
    const scaled =
      (usdcReserve * 10n ** BigInt(pool.token.decimals) * priceScale) /
      (tokenReserve * 10n ** BigInt(usdc.decimals))
    const price = Number(scaled) / Number(priceScale)
    prices.set(pool.token.address.toLowerCase(), price)
    if (pool.token.address.toLowerCase() === chain.contracts.weth.toLowerCase()) {
      prices.set(nativeTokenAddress.toLowerCase(), price)
    }
  })
  return prices
}
