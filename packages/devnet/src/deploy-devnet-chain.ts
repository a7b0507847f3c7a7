import { fiatTokenAbi, fiatTokenBytecode } from '@quicklinks/contracts/generated/fiat-token'
import { multicall3DeployedBytecode } from '@quicklinks/contracts/generated/multicall3'
import { payRouterAbi, payRouterBytecode } from '@quicklinks/contracts/generated/pay-router'
import { testTokenAbi, testTokenBytecode } from '@quicklinks/contracts/generated/test-token'
import {
  uniswapV2FactoryAbi,
  uniswapV2FactoryBytecode,
} from '@quicklinks/contracts/generated/uniswap-v2-factory'
import {
  uniswapV2Router02Abi,
  uniswapV2Router02Bytecode,
} from '@quicklinks/contracts/generated/uniswap-v2-router02'
import { weth9Abi, weth9Bytecode } from '@quicklinks/contracts/generated/weth9'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  type Hash,
  http,
  maxUint256,
  parseUnits,
} from 'viem'
import { buildViemChain } from './build-viem-chain.ts'
import { deployAccountAbstraction } from './deploy-account-abstraction.ts'
import { deployDepositFactory } from './deploy-deposit-factory.ts'
import { type DevnetChainConfig, devnetAccountCount } from './devnet-chains.ts'
import type { DeployedDevnetChain } from './devnet-deployment.ts'
import { getDevnetRelayerAccount } from './get-devnet-relayer-account.ts'
import { seedDevnetPools, stablecoinPoolSide, wrappedNativePoolUsdc } from './seed-devnet-pools.ts'
import { assertRouterKnowsPairCode, computePairAddress } from './uniswap-v2-pair-address.ts'

/** Where Multicall3 lives on every public chain; the devnet puts ours there too. */
export const multicall3Address: Address = getAddress('0xcA11bde05977b3631167028862bE2a173976CA11')

/** The devnet USDC's EIP-712 domain and signature standards: the real USDC's (FiatTokenV2_2). */
const usdcSignatures = { name: 'USD Coin', version: '2', permit: true, authorizations: true } as const

/** Minted to each funded account. */
const stablecoinsPerAccount = parseUnits('1000000', 6)
/** Wrapped (from the account's own native balance) for each funded account. */
const wrappedNativePerAccount = parseUnits('100', 18)

/** Minted to the relayer on top of `stablecoinsPerAccount`: its inventory for filling cross-chain intents. */
const relayerExtraStablecoins = parseUnits('10000000', 6)
/** Wrapped by the relayer instead of `wrappedNativePerAccount`. */
const relayerWrappedNative = parseUnits('1000', 18)
/** The relayer's native balance after the deploy (anvil_setBalance). */
const relayerNativeBalance = parseUnits('1000000', 18)

export type DeployDevnetChainOptions = {
  rpcUrl: string
  chain: DevnetChainConfig
  log?: (line: string) => void
}

/**
 * Deploys and seeds one devnet chain from account 0 of the test mnemonic: USDC (FiatToken: EIP-2612
 * permit and EIP-3009, domain 'USD Coin' '2') and USDT (TestToken), 6 decimals each, WETH9 as the wrapped native token, the Uniswap V2 factory and Router02 from their
 * published artifacts, wrapped-native/USDC and USDT/USDC pools priced from the chain config,
 * Multicall3 at its canonical address, PayRouter (trusting account 9 as the relayer), and 1,000,000
 * USDC and USDT plus 100 wrapped native for each of accounts 0-9; the relayer (account 9) gets
 * 10,000,000 more USDC and USDT, 1,000 wrapped and 1,000,000 native, and approves PayRouter for
 * its tokens. Throws when a transaction fails, and when Router02's built-in pair init-code
 * hash does not match the factory's pair code (swaps through the router would then fail).
 */
export async function deployDevnetChain(options: DeployDevnetChainOptions): Promise<DeployedDevnetChain> {
  const { chain, rpcUrl } = options
  const log = options.log ?? (() => {})
  const viemChain = buildViemChain({ ...chain, rpcUrl })
  const transport = http(rpcUrl, { retryCount: 0 })
  const publicClient = createPublicClient({ chain: viemChain, transport, pollingInterval: 20 })
  const testClient = createTestClient({ chain: viemChain, transport, mode: 'anvil' })
  const walletClient = createWalletClient({ chain: viemChain, transport })

  const accounts = (await walletClient.getAddresses()).slice(0, devnetAccountCount)
  const deployer = accounts[0]
  if (!deployer || accounts.length < devnetAccountCount) {
    throw new Error(
      `${chain.name}: anvil at ${rpcUrl} unlocks ${accounts.length} accounts, expected ${devnetAccountCount}`,
    )
  }
  const relayer = getDevnetRelayerAccount().address
  if (!accounts.includes(relayer)) {
    throw new Error(`${chain.name}: anvil at ${rpcUrl} does not unlock the relayer account ${relayer}`)
  }

  const confirm = async (hash: Hash, what: string): Promise<Address | null | undefined> => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (receipt.status !== 'success') throw new Error(`${chain.name}: ${what} reverted (transaction ${hash})`)
    return receipt.contractAddress
  }
  const deploy = async (what: string, hash: Promise<Hash>): Promise<Address> => {
    const address = await confirm(await hash, `deploying ${what}`)
    if (!address) throw new Error(`${chain.name}: deploying ${what} created no contract`)
    return getAddress(address)
  }

  // FiatToken takes EIP-2612 and EIP-3009 signatures like the real USDC; first, as before, so
  // USDC keeps its address (account 0's nonce 0).
  const usdc = await deploy(
    'USDC',
    walletClient.deployContract({
      abi: fiatTokenAbi,
      bytecode: fiatTokenBytecode,
      args: [usdcSignatures.name, 'USDC', 6, usdcSignatures.version],
      account: deployer,
    }),
  )
  const usdt = await deploy(
    'USDT',
    walletClient.deployContract({
      abi: testTokenAbi,
      bytecode: testTokenBytecode,
      args: ['Tether USD', 'USDT', 6],
      account: deployer,
    }),
  )
  const weth = await deploy(
    chain.wrappedNativeSymbol,
    walletClient.deployContract({ abi: weth9Abi, bytecode: weth9Bytecode, account: deployer }),
  )
  const factory = await deploy(
    'UniswapV2Factory',
    walletClient.deployContract({
      abi: uniswapV2FactoryAbi,
      bytecode: uniswapV2FactoryBytecode,
      args: [deployer],
      account: deployer,
    }),
  )
  const router = await deploy(
    'UniswapV2Router02',
    walletClient.deployContract({
      abi: uniswapV2Router02Abi,
      bytecode: uniswapV2Router02Bytecode,
      args: [factory, weth],
      account: deployer,
    }),
  )
  assertRouterKnowsPairCode(await publicClient.getCode({ address: router }), chain.name)
  // Right after the router (account 0's nonce 5), so PayRouter has the same address on every chain.
  const payRouter = await deploy(
    'PayRouter',
    walletClient.deployContract({
      abi: payRouterAbi,
      bytecode: payRouterBytecode,
      args: [router, weth, relayer],
      account: deployer,
    }),
  )
  await testClient.setCode({ address: multicall3Address, bytecode: multicall3DeployedBytecode })

  const nativeUsdcPrice = parseUnits(String(chain.nativeUsdcPrice), 6)
  const wrappedNativePoolNative = (wrappedNativePoolUsdc * 10n ** 18n) / nativeUsdcPrice
  for (const account of accounts) {
    const isDeployer = account === deployer
    const relayerExtra = account === relayer ? relayerExtraStablecoins : 0n
    const usdcAmount =
      stablecoinsPerAccount + relayerExtra + (isDeployer ? wrappedNativePoolUsdc + stablecoinPoolSide : 0n)
    const usdtAmount = stablecoinsPerAccount + relayerExtra + (isDeployer ? stablecoinPoolSide : 0n)
    for (const [token, amount, symbol] of [
      [usdc, usdcAmount, 'USDC'],
      [usdt, usdtAmount, 'USDT'],
    ] as const) {
      await confirm(
        await walletClient.writeContract({
          address: token,
          abi: testTokenAbi,
          functionName: 'mint',
          args: [account, amount],
          account: deployer,
        }),
        `minting ${symbol}`,
      )
    }
  }
  await Promise.all(
    accounts.map(async (account) =>
      confirm(
        await walletClient.writeContract({
          address: weth,
          abi: weth9Abi,
          functionName: 'deposit',
          value: account === relayer ? relayerWrappedNative : wrappedNativePerAccount,
          account,
        }),
        `wrapping ${chain.nativeSymbol}`,
      ),
    ),
  )
  // The relayer fills through PayRouter from its own inventory; on the devnet it starts approved.
  for (const [token, symbol] of [
    [usdc, 'USDC'],
    [usdt, 'USDT'],
    [weth, chain.wrappedNativeSymbol],
  ] as const) {
    await confirm(
      await walletClient.writeContract({
        address: token,
        abi: testTokenAbi,
        functionName: 'approve',
        args: [payRouter, maxUint256],
        account: relayer,
      }),
      `approving PayRouter for the relayer's ${symbol}`,
    )
  }
  // After its own transactions, so the relayer holds exactly this much native currency.
  await testClient.setBalance({ address: relayer, value: relayerNativeBalance })

  await seedDevnetPools({
    publicClient,
    walletClient,
    testClient,
    confirm,
    deployer,
    router,
    usdc,
    usdt,
    wrappedNativePoolNative,
    wrappedNativeSymbol: chain.wrappedNativeSymbol,
  })

  const readPair = async (tokenA: Address, tokenB: Address): Promise<Address> => {
    const pair = await publicClient.readContract({
      address: factory,
      abi: uniswapV2FactoryAbi,
      functionName: 'getPair',
      args: [tokenA, tokenB],
    })
    const expected = computePairAddress(factory, tokenA, tokenB)
    if (getAddress(pair) !== expected) {
      throw new Error(
        `${chain.name}: the factory created pair ${pair}, but its init-code hash predicts ${expected}; the UniswapV2Factory and UniswapV2Pair artifacts do not match`,
      )
    }
    return expected
  }
  const accountAbstraction = await deployAccountAbstraction({
    publicClient,
    walletClient,
    testClient,
    deployer,
    chainName: chain.name,
  })
  const depositFactory = await deployDepositFactory({
    publicClient,
    walletClient,
    testClient,
    deployer,
    chainName: chain.name,
  })
  const wethUsdcPair = await readPair(weth, usdc)
  const usdtUsdcPair = await readPair(usdt, usdc)

  log(`${chain.name} (${chain.chainId}): deployed and seeded at ${rpcUrl}`)
  return {
    chainId: chain.chainId,
    name: chain.name,
    rpcUrl,
    nativeSymbol: chain.nativeSymbol,
    relayer,
    tokens: [
      { symbol: 'USDC', address: usdc, decimals: 6, signatures: usdcSignatures },
      { symbol: 'USDT', address: usdt, decimals: 6 },
      { symbol: chain.wrappedNativeSymbol, address: weth, decimals: 18 },
    ],
    contracts: {
      weth,
      uniswapV2Factory: factory,
      uniswapV2Router: router,
      multicall3: multicall3Address,
      wethUsdcPair,
      usdtUsdcPair,
      payRouter,
      ...accountAbstraction,
      depositFactory,
    },
  }
}
