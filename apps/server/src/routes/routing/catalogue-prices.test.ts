import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { testTokenAbi } from '@quicklinks/contracts/generated/test-token'
import { uniswapV2PairAbi } from '@quicklinks/contracts/generated/uniswap-v2-pair'
import { buildViemChain } from '@quicklinks/devnet/build-viem-chain'
import { devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import type { DevnetChainDeployment } from '@quicklinks/devnet/devnet-deployment'
import { type RunningDevnet, startDevnet } from '@quicklinks/devnet/start-devnet'
import { createPublicClient, createWalletClient, http, parseUnits } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { findFreePorts } from '../../../../../packages/devnet/test/find-free-ports.ts'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { type RecordingRpcProxy, startRecordingRpcProxy } from '../../../test/start-recording-rpc-proxy.ts'

type Token = { chainId: number; symbol: string; usdPrice: number | null }

let dataDir: string
let devnet: RunningDevnet
let proxies: Record<number, RecordingRpcProxy>
let testApp: TestApp

const chainOf = (chainId: number): DevnetChainDeployment => {
  const chain = devnet.deployment.chains.find((candidate) => candidate.chainId === chainId)
  if (!chain) throw new Error(`chain ${chainId} missing`)
  return chain
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'ql-prices-'))
  const [basePort, avalanchePort, baseBundlerPort, avalancheBundlerPort] = (await findFreePorts(4)) as [
    number,
    number,
    number,
    number,
  ]
  devnet = await startDevnet({
    dataDir,
    chains: [
      { chainId: 8453, port: basePort, bundlerPort: baseBundlerPort },
      { chainId: 43114, port: avalanchePort, bundlerPort: avalancheBundlerPort },
    ],
  })
  proxies = {
    8453: await startRecordingRpcProxy(chainOf(8453).rpcUrl),
    43114: await startRecordingRpcProxy(chainOf(43114).rpcUrl),
  }
  testApp = await buildTestApp({
    devnetDeploymentFile: path.join(dataDir, 'devnet', 'deployment.json'),
    rpcUrls: { 8453: proxies[8453]?.url ?? '', 43114: proxies[43114]?.url ?? '' },
  })
})

afterAll(async () => {
  await testApp?.close()
  await Promise.all(Object.values(proxies ?? {}).map((proxy) => proxy.close()))
  await devnet?.stop()
  await rm(dataDir, { recursive: true, force: true })
})

afterEach(() => {
  for (const proxy of Object.values(proxies)) {
    proxy.failing = false
    proxy.methods.length = 0
  }
})

const getTokens = async (): Promise<Token[]> => {
  const response = await testApp.app.inject({ method: 'GET', url: '/api/local/tokens' })
  expect(response.statusCode).toBe(200)
  return response.json().data as Token[]
}
const priceOf = (tokens: Token[], chainId: number, symbol: string) =>
  tokens.find((token) => token.chainId === chainId && token.symbol === symbol)?.usdPrice

describe('usdPrice of the local provider’s tokens (devnet pools)', () => {
  it('USDC is 1; ETH, WETH, AVAX, WAVAX and USDT come from the pools, with one eth_call per chain', async () => {
    const tokens = await getTokens()
    expect(priceOf(tokens, 8453, 'USDC')).toBe(1)
    expect(priceOf(tokens, 8453, 'ETH')).toBeCloseTo(3000, 3)
    expect(priceOf(tokens, 8453, 'WETH')).toBeCloseTo(3000, 3)
    expect(priceOf(tokens, 8453, 'USDT')).toBeCloseTo(1, 6)
    expect(priceOf(tokens, 43114, 'AVAX')).toBeCloseTo(30, 4)
    expect(priceOf(tokens, 43114, 'WAVAX')).toBeCloseTo(30, 4)
    expect(proxies[8453]?.countCalls('eth_call')).toBe(1)
    expect(proxies[43114]?.countCalls('eth_call')).toBe(1)
  })

  it('concurrent requests share one in-flight read', async () => {
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => testApp.app.inject({ method: 'GET', url: '/api/local/tokens' })),
    )
    expect(responses.every((response) => response.statusCode === 200)).toBe(true)
    expect(proxies[8453]?.countCalls('eth_call')).toBe(1)
    expect(proxies[43114]?.countCalls('eth_call')).toBe(1)
  })

  it('prices follow the pool: more USDC in the ETH pool raises ETH’s price on the next read', async () => {
    const base = chainOf(8453)
    const usdc = base.tokens.find((token) => token.symbol === 'USDC')?.address
    if (!usdc) throw new Error('no USDC')
    const account = mnemonicToAccount(devnetMnemonic, { addressIndex: 0 })
    const chain = buildViemChain(base)
    const transport = http(base.rpcUrl)
    const wallet = createWalletClient({ account, chain, transport })
    const reader = createPublicClient({ chain, transport })
    const before = priceOf(await getTokens(), 8453, 'ETH') ?? 0
    await reader.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: usdc,
        abi: testTokenAbi,
        functionName: 'transfer',
        args: [base.contracts.wethUsdcPair, parseUnits('100000', 6)],
      }),
    })
    await reader.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: base.contracts.wethUsdcPair,
        abi: uniswapV2PairAbi,
        functionName: 'sync',
      }),
    })
    const after = priceOf(await getTokens(), 8453, 'ETH') ?? 0
    expect(after).toBeGreaterThan(before)
  })

  it('a chain whose RPC fails lists its tokens with usdPrice null (USDC still 1); the other keeps its prices', async () => {
    const failing = proxies[43114]
    if (failing) failing.failing = true
    const tokens = await getTokens()
    expect(priceOf(tokens, 43114, 'USDC')).toBe(1)
    expect(priceOf(tokens, 43114, 'AVAX')).toBeNull()
    expect(priceOf(tokens, 43114, 'USDT')).toBeNull()
    expect(priceOf(tokens, 8453, 'USDT')).toBeCloseTo(1, 6)
  })
})
