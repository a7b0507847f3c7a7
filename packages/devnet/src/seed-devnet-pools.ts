import { testTokenAbi } from '@quicklinks/contracts/generated/test-token'
import { uniswapV2Router02Abi } from '@quicklinks/contracts/generated/uniswap-v2-router02'
import {
  type Address,
  type Chain,
  type Hash,
  maxUint256,
  type PublicClient,
  parseUnits,
  type TestClient,
  type Transport,
  type WalletClient,
} from 'viem'

/** USDC side of the wrapped-native/USDC pool: deep enough that a devnet payment barely moves the price. */
export const wrappedNativePoolUsdc = parseUnits('30000000', 6)
/** Each side of the USDT/USDC pool, at 1:1. */
export const stablecoinPoolSide = parseUnits('30000000', 6)

export type SeedDevnetPoolsOptions = {
  publicClient: PublicClient<Transport, Chain>
  walletClient: WalletClient<Transport, Chain>
  testClient: TestClient
  /** Waits for the transaction and throws, naming `what`, when it reverted. */
  confirm: (hash: Hash, what: string) => Promise<unknown>
  /** Account 0: holds the pools' USDC and USDT (minted before) and receives the liquidity. */
  deployer: Address
  router: Address
  usdc: Address
  usdt: Address
  /** The native side of the wrapped-native/USDC pool, priced from the chain config. */
  wrappedNativePoolNative: bigint
  wrappedNativeSymbol: string
}

/**
 * Seeds the devnet chain's two Uniswap V2 pools through Router02 from the deployer: wrapped
 * native/USDC (`wrappedNativePoolUsdc` against `wrappedNativePoolNative`) and USDT/USDC at 1:1
 * (`stablecoinPoolSide` each). Throws when a transaction reverts.
 */
export async function seedDevnetPools(options: SeedDevnetPoolsOptions): Promise<void> {
  const { publicClient, walletClient, testClient, confirm, deployer, router, usdc, usdt } = options
  const { wrappedNativePoolNative, wrappedNativeSymbol } = options
  // The pool's native side can exceed a dev account's 10,000 of balance (1,000,000 AVAX at $30).
  const deployerBalance = await publicClient.getBalance({ address: deployer })
  await testClient.setBalance({ address: deployer, value: deployerBalance + wrappedNativePoolNative })
  for (const token of [usdc, usdt]) {
    await confirm(
      await walletClient.writeContract({
        address: token,
        abi: testTokenAbi,
        functionName: 'approve',
        args: [router, maxUint256],
        account: deployer,
      }),
      'approving the router',
    )
  }
  await confirm(
    await walletClient.writeContract({
      address: router,
      abi: uniswapV2Router02Abi,
      functionName: 'addLiquidityETH',
      args: [
        usdc,
        wrappedNativePoolUsdc,
        wrappedNativePoolUsdc,
        wrappedNativePoolNative,
        deployer,
        maxUint256,
      ],
      value: wrappedNativePoolNative,
      account: deployer,
    }),
    `seeding the ${wrappedNativeSymbol}/USDC pool`,
  )
  await confirm(
    await walletClient.writeContract({
      address: router,
      abi: uniswapV2Router02Abi,
      functionName: 'addLiquidity',
      args: [
        usdt,
        usdc,
        stablecoinPoolSide,
        stablecoinPoolSide,
        stablecoinPoolSide,
        stablecoinPoolSide,
        deployer,
        maxUint256,
      ],
      account: deployer,
    }),
    'seeding the USDT/USDC pool',
  )
}
