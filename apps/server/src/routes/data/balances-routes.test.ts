import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import { devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import { type RunningDevnet, startDevnet } from '@quicklinks/devnet/start-devnet'
import { createPublicClient, http } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { findFreePorts } from '../../../../../packages/devnet/test/find-free-ports.ts'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { type RecordingRpcProxy, startRecordingRpcProxy } from '../../../test/start-recording-rpc-proxy.ts'

const payer = mnemonicToAccount(devnetMnemonic, { addressIndex: 1 }).address
const nativeAddress = nativeTokenAddress

let dataDir: string
let devnet: RunningDevnet
let baseProxy: RecordingRpcProxy
let avalancheProxy: RecordingRpcProxy
let testApp: TestApp

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'ql-balances-'))
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
  const rpcUrl = (chainId: number) =>
    devnet.deployment.chains.find((chain) => chain.chainId === chainId)?.rpcUrl ?? ''
  baseProxy = await startRecordingRpcProxy(rpcUrl(8453))
  avalancheProxy = await startRecordingRpcProxy(rpcUrl(43114))
  testApp = await buildTestApp({
    devnetDeploymentFile: path.join(dataDir, 'devnet', 'deployment.json'),
    rpcUrls: { 8453: baseProxy.url, 43114: avalancheProxy.url },
  })
})

afterAll(async () => {
  await testApp?.close()
  await baseProxy?.close()
  await avalancheProxy?.close()
  await devnet?.stop()
  await rm(dataDir, { recursive: true, force: true })
})

afterEach(() => {
  baseProxy.failing = false
  avalancheProxy.failing = false
})

const getBalances = (chain: string, address: string = payer) =>
  testApp.app.inject({ method: 'GET', url: `/api/data/wallets/${chain}/${address}/balances` })

describe('GET /api/data/wallets/{chain}/{address}/balances', () => {
  it('lists the native balance and every token, highest first, with exactly one eth_call on that chain', async () => {
    baseProxy.methods.length = 0
    avalancheProxy.methods.length = 0
    const response = await getBalances('base')
    expect(response.statusCode).toBe(200)
    const entries = response.json().data as Record<string, unknown>[]
    const base = devnet.deployment.chains.find((chain) => chain.chainId === 8453)
    const tokenAddress = (symbol: string) => base?.tokens.find((token) => token.symbol === symbol)?.address
    expect(entries).toEqual([
      {
        chainId: 8453,
        address: nativeAddress,
        symbol: 'ETH',
        name: 'Ether',
        decimals: 18,
        balance: (
          await createPublicClient({ transport: http(base?.rpcUrl) }).getBalance({ address: payer })
        ).toString(),
        native: true,
        category: 'native',
        logo_uri: '',
      },
      expect.objectContaining({
        symbol: 'WETH',
        address: tokenAddress('WETH'),
        balance: (100n * 10n ** 18n).toString(),
      }),
      expect.objectContaining({
        symbol: 'USDC',
        address: tokenAddress('USDC'),
        name: 'USD Coin',
        decimals: 6,
        balance: (1_000_000n * 10n ** 6n).toString(),
        native: false,
        category: 'erc20',
      }),
      expect.objectContaining({ symbol: 'USDT', balance: (1_000_000n * 10n ** 6n).toString() }),
    ])
    expect(baseProxy.countCalls('eth_call')).toBe(1)
    expect(avalancheProxy.methods).toEqual([])
  })

  it('accepts a chain id or any spelling of the network name; an unknown chain is 404', async () => {
    for (const chain of ['43114', 'Avalanche', 'AVALANCHE']) {
      const response = await getBalances(chain)
      expect(response.statusCode).toBe(200)
      expect(response.json().data[0]).toMatchObject({ chainId: 43114, symbol: 'AVAX', native: true })
    }
    const unknown = await getBalances('arbitrum-one')
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().error).toEqual({ code: 'NOT_FOUND', message: 'Unknown chain "arbitrum-one".' })
    expect((await getBalances('solana')).statusCode).toBe(404)
  })

  it('a wallet that holds nothing still gets its native entry, at 0, first', async () => {
    const empty = '0x000000000000000000000000000000000000dEaD'
    const response = await getBalances('base', empty)
    const entries = response.json().data as { symbol: string; balance: string }[]
    expect(entries[0]).toMatchObject({ symbol: 'ETH', balance: '0' })
    expect(entries.every((entry) => entry.balance === '0')).toBe(true)
  })

  it('when the RPC fails, only the native entry with balance 0', async () => {
    baseProxy.failing = true
    const response = await getBalances('base')
    expect(response.statusCode).toBe(200)
    expect(response.json().data).toEqual([
      {
        chainId: 8453,
        address: nativeAddress,
        symbol: 'ETH',
        name: 'Ether',
        decimals: 18,
        balance: '0',
        native: true,
        category: 'native',
        logo_uri: '',
      },
    ])
  })

  it('a malformed address is 422 naming it', async () => {
    const response = await getBalances('base', '0x1234')
    expect(response.statusCode).toBe(422)
    expect(response.json().error.message).toMatch(/address/)
  })
})
