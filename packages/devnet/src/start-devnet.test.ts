import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { entryPointV08Abi } from '@quicklinks/contracts/generated/entry-point-v08'
import { fiatTokenAbi } from '@quicklinks/contracts/generated/fiat-token'
import { multicall3Abi } from '@quicklinks/contracts/generated/multicall3'
import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import { testTokenAbi } from '@quicklinks/contracts/generated/test-token'
import { uniswapV2Router02Abi } from '@quicklinks/contracts/generated/uniswap-v2-router02'
import {
  type Address,
  bytesToHex,
  createPublicClient,
  createWalletClient,
  http,
  maxUint256,
  parseEther,
  parseEventLogs,
  parseUnits,
  zeroAddress,
} from 'viem'
import { createBundlerClient } from 'viem/account-abstraction'
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findFreePorts } from '../test/find-free-ports.ts'
import { buildViemChain } from './build-viem-chain.ts'
import { devnetChains, devnetMnemonic } from './devnet-chains.ts'
import { type DevnetChainDeployment, readDeployment } from './devnet-deployment.ts'
import { toDevnetQuickLinksAccount } from './devnet-smart-account.ts'
import { getDevnetRelayerAccount } from './get-devnet-relayer-account.ts'
import { probeRpcPort } from './probe-rpc-port.ts'
import { fetchBundlerInfo } from './spawn-alto.ts'
import { spawnAnvil } from './spawn-anvil.ts'
import { type DevnetChainOption, type RunningDevnet, startDevnet } from './start-devnet.ts'

const accounts = Array.from(
  { length: 10 },
  (_, index) => mnemonicToAccount(devnetMnemonic, { addressIndex: index }).address,
)
const [account0, account1, account2] = accounts as [Address, Address, Address, ...Address[]]

/**
 * eth_estimateGas runs a swap in a block of the current second; when the transaction is mined a
 * second later, the pair also writes its price accumulators and the estimate is a few thousand gas
 * short ("out of gas"). Swaps here name a limit instead.
 */
const swapGasLimit = 300_000n

let dataDir: string
let ports: number[]
let devnet: RunningDevnet | undefined

function getChainClients(chain: DevnetChainDeployment) {
  const viemChain = buildViemChain(chain)
  const transport = http(chain.rpcUrl, { retryCount: 0 })
  return {
    publicClient: createPublicClient({ chain: viemChain, transport, pollingInterval: 20 }),
    walletClient: createWalletClient({ chain: viemChain, transport }),
  }
}

function getChain(deployment: { chains: DevnetChainDeployment[] }, chainId: number): DevnetChainDeployment {
  const chain = deployment.chains.find((candidate) => candidate.chainId === chainId)
  if (!chain) throw new Error(`chain ${chainId} is not in the deployment`)
  return chain
}

function getToken(chain: DevnetChainDeployment, symbol: string): Address {
  const token = chain.tokens.find((candidate) => candidate.symbol === symbol)
  if (!token) throw new Error(`${symbol} is not deployed on ${chain.name}`)
  return token.address
}

async function readTokenBalance(
  chain: DevnetChainDeployment,
  symbol: string,
  owner: Address,
): Promise<bigint> {
  return getChainClients(chain).publicClient.readContract({
    address: getToken(chain, symbol),
    abi: testTokenAbi,
    functionName: 'balanceOf',
    args: [owner],
  })
}

/** The three devnet chains on free ports, each bundler on a free port of its own. */
function getChainOptions(): DevnetChainOption[] {
  return devnetChains.map((chain, index) => ({
    chainId: chain.chainId,
    port: ports[index] ?? 0,
    bundlerPort: ports[index + 3] ?? 0,
  }))
}

function getRunningDevnet(): RunningDevnet {
  if (!devnet) throw new Error('the devnet did not start')
  return devnet
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'quicklinks-devnet-'))
  ports = await findFreePorts(6)
  devnet = await startDevnet({ dataDir, chains: getChainOptions() })
})

afterAll(async () => {
  await devnet?.stop()
  await rm(dataDir, { recursive: true, force: true })
})

describe('startDevnet', () => {
  it('answers every chain id on its RPC URL and saves the deployment it returns', async () => {
    const { deployment } = getRunningDevnet()
    expect(deployment.chains.map((chain) => [chain.chainId, chain.name, chain.nativeSymbol])).toEqual([
      [8453, 'Base', 'ETH'],
      [43114, 'Avalanche', 'AVAX'],
      [42161, 'Arbitrum', 'ETH'],
    ])
    for (const chain of deployment.chains) {
      expect(await getChainClients(chain).publicClient.getChainId()).toBe(chain.chainId)
    }
    expect(await readDeployment(path.join(dataDir, 'devnet', 'deployment.json'))).toEqual(deployment)
    // Each chain's bundler, on its own port, serves both EntryPoints for that chain.
    for (const [index, chain] of deployment.chains.entries()) {
      expect(chain.bundlerUrl).toBe(`http://127.0.0.1:${ports[index + 3]}`)
      expect(await fetchBundlerInfo(chain.bundlerUrl, 2_000)).toEqual({
        chainId: chain.chainId,
        entryPoints: [chain.contracts.entryPointV07, chain.contracts.entryPointV08],
      })
    }
    expect(getChain(deployment, 43114).tokens.map((token) => [token.symbol, token.decimals])).toEqual([
      ['USDC', 6],
      ['USDT', 6],
      ['WAVAX', 18],
    ])
  })

  it('funds accounts 0-9 with every token on every chain, and the relayer (account 9) with more', async () => {
    for (const chain of getRunningDevnet().deployment.chains) {
      const wrapped = chain.tokens[2]?.symbol ?? 'missing'
      for (const symbol of ['USDC', 'USDT', wrapped]) {
        expect(await readTokenBalance(chain, symbol, account0)).toBeGreaterThanOrEqual(
          symbol === wrapped ? parseUnits('100', 18) : parseUnits('1000000', 6),
        )
      }
      const last = accounts[8] as Address
      expect(await readTokenBalance(chain, 'USDC', last)).toBe(parseUnits('1000000', 6))
      expect(await readTokenBalance(chain, 'USDT', last)).toBe(parseUnits('1000000', 6))
      expect(await readTokenBalance(chain, wrapped, last)).toBe(parseUnits('100', 18))
      expect(await getChainClients(chain).publicClient.getBalance({ address: last })).toBeGreaterThan(
        parseUnits('1000', 18),
      )

      const relayer = accounts[9] as Address
      expect(chain.relayer).toBe(relayer)
      expect(await readTokenBalance(chain, 'USDC', relayer)).toBe(parseUnits('11000000', 6))
      expect(await readTokenBalance(chain, 'USDT', relayer)).toBe(parseUnits('11000000', 6))
      expect(await readTokenBalance(chain, wrapped, relayer)).toBe(parseUnits('1000', 18))
      expect(await getChainClients(chain).publicClient.getBalance({ address: relayer })).toBe(
        parseUnits('1000000', 18),
      )
    }
  })

  it("makes USDC on every chain the real USDC's kind: EIP-2612 permit and EIP-3009 under 'USD Coin', '2'", async () => {
    const owner = mnemonicToAccount(devnetMnemonic, { addressIndex: 1 })
    for (const chain of getRunningDevnet().deployment.chains) {
      const { publicClient, walletClient } = getChainClients(chain)
      const usdc = chain.tokens.find((token) => token.symbol === 'USDC')
      expect(usdc?.signatures).toEqual({ name: 'USD Coin', version: '2', permit: true, authorizations: true })
      expect(chain.tokens.find((token) => token.symbol === 'USDT')?.signatures).toBeUndefined()
      const address = getToken(chain, 'USDC')
      const domain = { name: 'USD Coin', version: '2', chainId: chain.chainId, verifyingContract: address }
      const nonce = await publicClient.readContract({
        address,
        abi: fiatTokenAbi,
        functionName: 'nonces',
        args: [owner.address],
      })
      const deadline = maxUint256
      const permit = await owner.signTypedData({
        domain,
        types: {
          Permit: [
            { name: 'owner', type: 'address' },
            { name: 'spender', type: 'address' },
            { name: 'value', type: 'uint256' },
            { name: 'nonce', type: 'uint256' },
            { name: 'deadline', type: 'uint256' },
          ],
        },
        primaryType: 'Permit',
        message: { owner: owner.address, spender: account2, value: 7n, nonce, deadline },
      })
      const permitted = await walletClient.writeContract({
        address,
        abi: fiatTokenAbi,
        functionName: 'permit',
        args: [owner.address, account2, 7n, deadline, permit],
        account: account0,
      })
      expect((await publicClient.waitForTransactionReceipt({ hash: permitted })).status).toBe('success')
      expect(
        await publicClient.readContract({
          address,
          abi: fiatTokenAbi,
          functionName: 'allowance',
          args: [owner.address, account2],
        }),
      ).toBe(7n)
      const authorization = {
        from: owner.address,
        to: account2,
        value: 3n,
        validAfter: 0n,
        validBefore: maxUint256,
        nonce: bytesToHex(randomBytes(32)),
      }
      const signature = await owner.signTypedData({
        domain,
        types: {
          TransferWithAuthorization: [
            { name: 'from', type: 'address' },
            { name: 'to', type: 'address' },
            { name: 'value', type: 'uint256' },
            { name: 'validAfter', type: 'uint256' },
            { name: 'validBefore', type: 'uint256' },
            { name: 'nonce', type: 'bytes32' },
          ],
        },
        primaryType: 'TransferWithAuthorization',
        message: authorization,
      })
      const before = await readTokenBalance(chain, 'USDC', account2)
      const transferred = await walletClient.writeContract({
        address,
        abi: fiatTokenAbi,
        functionName: 'transferWithAuthorization',
        args: [
          authorization.from,
          authorization.to,
          authorization.value,
          authorization.validAfter,
          authorization.validBefore,
          authorization.nonce,
          signature,
        ],
        account: account0,
      })
      expect((await publicClient.waitForTransactionReceipt({ hash: transferred })).status).toBe('success')
      expect(await readTokenBalance(chain, 'USDC', account2)).toBe(before + 3n)
    }
  })

  it('deploys PayRouter at one address on every chain, bound to its router, wrapped native and relayer', async () => {
    const { chains } = getRunningDevnet().deployment
    const relayer = getDevnetRelayerAccount().address
    expect(relayer).toBe(accounts[9])
    expect(new Set(chains.map((chain) => chain.contracts.payRouter)).size).toBe(1)
    for (const chain of chains) {
      const { publicClient } = getChainClients(chain)
      const read = <const name extends 'uniswapV2Router' | 'wrappedNative' | 'relayer'>(functionName: name) =>
        publicClient.readContract({ address: chain.contracts.payRouter, abi: payRouterAbi, functionName })
      expect([await read('uniswapV2Router'), await read('wrappedNative'), await read('relayer')]).toEqual([
        chain.contracts.uniswapV2Router,
        chain.contracts.weth,
        relayer,
      ])
      for (const token of chain.tokens) {
        expect(
          await publicClient.readContract({
            address: token.address,
            abi: testTokenAbi,
            functionName: 'allowance',
            args: [relayer, chain.contracts.payRouter],
          }),
        ).toBe(maxUint256)
      }
    }
  })

  it('lets the relayer account, signing locally, fill a receiver through PayRouter', async () => {
    const chain = getChain(getRunningDevnet().deployment, 43114)
    const { publicClient, walletClient } = getChainClients(chain)
    const relayer = getDevnetRelayerAccount()
    const receiverBefore = await readTokenBalance(chain, 'USDC', account2)
    const usdc = getToken(chain, 'USDC')
    // An order as a deposit on Base would have made it (fill checks only this chain's half of it).
    const order = {
      intentId: bytesToHex(randomBytes(32)),
      sourceChainId: 8453n,
      payer: account1,
      escrowToken: getToken(getChain(getRunningDevnet().deployment, 8453), 'USDC'),
      escrowAmount: parseUnits('25.1', 6),
      receiver: account2,
      destinationChainId: 43114n,
      destinationToken: usdc,
      minAmountOut: parseUnits('25', 6),
      fillDeadline: (await publicClient.getBlock()).timestamp + 600n,
    }
    const hash = await walletClient.writeContract({
      account: relayer,
      address: chain.contracts.payRouter,
      abi: payRouterAbi,
      functionName: 'fill',
      args: [order, usdc, parseUnits('25', 6), []],
    })
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect((await readTokenBalance(chain, 'USDC', account2)) - receiverBefore).toBe(parseUnits('25', 6))
    expect(
      parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Filled' })[0]?.args,
    ).toMatchObject({
      intentId: order.intentId,
      relayer: relayer.address,
      receiver: account2,
      token: usdc,
      amount: parseUnits('25', 6),
      sourceChainId: 8453n,
    })
  })

  it('swaps native currency for USDC through the Uniswap router at the seeded price', async () => {
    for (const [chainId, price] of [
      [8453, 3000],
      [43114, 30],
    ] as const) {
      const chain = getChain(getRunningDevnet().deployment, chainId)
      const { publicClient, walletClient } = getChainClients(chain)
      const usdcBefore = await readTokenBalance(chain, 'USDC', account1)
      const nativeBefore = await publicClient.getBalance({ address: account1 })
      const hash = await walletClient.writeContract({
        account: account1,
        address: chain.contracts.uniswapV2Router,
        abi: uniswapV2Router02Abi,
        functionName: 'swapExactETHForTokens',
        args: [0n, [chain.contracts.weth, getToken(chain, 'USDC')], account1, maxUint256],
        value: parseUnits('1', 18),
        gas: swapGasLimit,
      })
      expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
      const received = (await readTokenBalance(chain, 'USDC', account1)) - usdcBefore
      // 0.3% pool fee plus a little price impact, never more than the seeded price.
      expect(received).toBeGreaterThan(parseUnits(String(price * 0.99), 6))
      expect(received).toBeLessThan(parseUnits(String(price), 6))
      expect(await publicClient.getBalance({ address: account1 })).toBeLessThan(
        nativeBefore - parseUnits('1', 18),
      )
    }
  })

  it('swaps USDT for USDC at about one to one', async () => {
    const chain = getChain(getRunningDevnet().deployment, 42161)
    const { publicClient, walletClient } = getChainClients(chain)
    const usdt = getToken(chain, 'USDT')
    const usdc = getToken(chain, 'USDC')
    const [usdtBefore, usdcBefore] = [
      await readTokenBalance(chain, 'USDT', account2),
      await readTokenBalance(chain, 'USDC', account2),
    ]
    const approve = await walletClient.writeContract({
      account: account2,
      address: usdt,
      abi: testTokenAbi,
      functionName: 'approve',
      args: [chain.contracts.uniswapV2Router, maxUint256],
    })
    await publicClient.waitForTransactionReceipt({ hash: approve })
    const swap = await walletClient.writeContract({
      account: account2,
      address: chain.contracts.uniswapV2Router,
      abi: uniswapV2Router02Abi,
      functionName: 'swapExactTokensForTokens',
      args: [parseUnits('1000', 6), 0n, [usdt, usdc], account2, maxUint256],
      gas: swapGasLimit,
    })
    expect((await publicClient.waitForTransactionReceipt({ hash: swap })).status).toBe('success')
    expect(usdtBefore - (await readTokenBalance(chain, 'USDT', account2))).toBe(parseUnits('1000', 6))
    const received = (await readTokenBalance(chain, 'USDC', account2)) - usdcBefore
    expect(received).toBeGreaterThan(parseUnits('996', 6))
    expect(received).toBeLessThan(parseUnits('1000', 6))
  })

  it('answers Multicall3 at the canonical address for token and native balances in one call', async () => {
    for (const chain of getRunningDevnet().deployment.chains) {
      const { publicClient } = getChainClients(chain)
      expect(chain.contracts.multicall3).toBe('0xcA11bde05977b3631167028862bE2a173976CA11')
      const results = await publicClient.multicall({
        allowFailure: false,
        contracts: [
          ...chain.tokens.map(
            (token) =>
              ({
                address: token.address,
                abi: testTokenAbi,
                functionName: 'balanceOf',
                args: [account0],
              }) as const,
          ),
          {
            address: chain.contracts.multicall3,
            abi: multicall3Abi,
            functionName: 'getEthBalance',
            args: [account0],
          },
          { address: chain.contracts.multicall3, abi: multicall3Abi, functionName: 'getChainId' },
        ],
      })
      const expected = [
        ...(await Promise.all(chain.tokens.map((token) => readTokenBalance(chain, token.symbol, account0)))),
        await publicClient.getBalance({ address: account0 }),
        BigInt(chain.chainId),
      ]
      expect(results).toEqual(expected)
    }
  })

  it("sends a self-paid user operation of a new QuickLinksAccount through the chain's bundler", async () => {
    const chain = getChain(getRunningDevnet().deployment, 42161)
    const { publicClient, walletClient } = getChainClients(chain)
    const owner = privateKeyToAccount(generatePrivateKey())
    const account = await toDevnetQuickLinksAccount({
      client: publicClient,
      owner,
      factory: chain.contracts.accountFactory,
    })
    expect(await publicClient.getCode({ address: account.address })).toBeUndefined()
    const funding = await walletClient.sendTransaction({
      account: account0,
      to: account.address,
      value: parseEther('1'),
    })
    await publicClient.waitForTransactionReceipt({ hash: funding })
    const receiver = privateKeyToAccount(generatePrivateKey()).address

    const bundlerClient = createBundlerClient({
      account,
      client: publicClient,
      transport: http(chain.bundlerUrl, { retryCount: 0 }),
      pollingInterval: 50,
    })
    const userOperationHash = await bundlerClient.sendUserOperation({
      calls: [{ to: receiver, value: parseEther('0.25') }],
    })
    const userOperationReceipt = await bundlerClient.waitForUserOperationReceipt({
      hash: userOperationHash,
      timeout: 30_000,
    })

    // What the bundler reports is what the chain holds.
    expect(userOperationReceipt).toMatchObject({
      success: true,
      sender: account.address,
      userOpHash: userOperationHash,
    })
    const transaction = await publicClient.getTransactionReceipt({
      hash: userOperationReceipt.receipt.transactionHash,
    })
    expect(transaction.status).toBe('success')
    expect(transaction.blockNumber).toBe(userOperationReceipt.receipt.blockNumber)
    expect(transaction.to?.toLowerCase()).toBe(chain.contracts.entryPointV08.toLowerCase())
    const [event] = parseEventLogs({
      abi: entryPointV08Abi,
      logs: transaction.logs,
      eventName: 'UserOperationEvent',
    })
    expect(event?.args).toMatchObject({
      userOpHash: userOperationHash,
      sender: account.address,
      paymaster: zeroAddress,
      success: true,
      actualGasCost: userOperationReceipt.actualGasCost,
    })
    expect(await publicClient.getBalance({ address: receiver })).toBe(parseEther('0.25'))
    // Self-paid: the account (deployed by this operation) paid the value and the gas; what it
    // prefunded beyond the gas stays its deposit at the EntryPoint.
    expect(await publicClient.getCode({ address: account.address })).toMatch(/^0x[0-9a-f]+$/)
    const deposit = await publicClient.readContract({
      address: chain.contracts.entryPointV08,
      abi: entryPointV08Abi,
      functionName: 'balanceOf',
      args: [account.address],
    })
    expect((await publicClient.getBalance({ address: account.address })) + deposit).toBe(
      parseEther('0.75') - userOperationReceipt.actualGasCost,
    )
  })

  it('reuses chains that already run with the deployment, without taking them over', async () => {
    const startedAt = performance.now()
    const second = await startDevnet({ dataDir, chains: getChainOptions() })
    const elapsedMs = performance.now() - startedAt
    expect(second.deployment).toEqual(getRunningDevnet().deployment)
    expect(elapsedMs).toBeLessThan(3_000)
    await second.stop()
    for (const chain of second.deployment.chains) {
      expect(await getChainClients(chain).publicClient.getChainId()).toBe(chain.chainId)
      expect((await fetchBundlerInfo(chain.bundlerUrl, 2_000)).chainId).toBe(chain.chainId)
    }
  })

  it('restarts stopped chains from saved state with the same addresses and balances', async () => {
    const before = getRunningDevnet().deployment
    const base = getChain(before, 8453)
    const usdcBefore = await readTokenBalance(base, 'USDC', account1)
    expect(usdcBefore).toBeGreaterThan(parseUnits('1000000', 6))
    await getRunningDevnet().stop()
    await expect(getChainClients(base).publicClient.getChainId()).rejects.toThrow()

    const startedAt = performance.now()
    devnet = await startDevnet({ dataDir, chains: getChainOptions() })
    // Most of it is Alto starting (2-5 s on an idle machine, three at once here).
    expect(performance.now() - startedAt).toBeLessThan(30_000)
    expect(devnet.deployment).toEqual(before)
    expect(await readTokenBalance(base, 'USDC', account1)).toBe(usdcBefore)
  })

  it('starts the chains without their bundlers when told to, naming the bundler ports all the same', async () => {
    const [port = 0, bundlerPort = 0] = await findFreePorts(2)
    const otherDataDir = await mkdtemp(path.join(tmpdir(), 'quicklinks-devnet-no-bundler-'))
    try {
      const bare = await startDevnet({
        dataDir: otherDataDir,
        chains: [{ chainId: 8453, port, bundlerPort }],
        bundlers: false,
      })
      const base = getChain(bare.deployment, 8453)
      expect(base.bundlerUrl).toBe(`http://127.0.0.1:${bundlerPort}`)
      expect(await readDeployment(path.join(otherDataDir, 'devnet', 'deployment.json'))).toEqual(
        bare.deployment,
      )
      expect(await getChainClients(base).publicClient.getChainId()).toBe(8453)
      expect(await readTokenBalance(base, 'USDC', account1)).toBeGreaterThan(0n)
      expect((await probeRpcPort('127.0.0.1', bundlerPort, base.bundlerUrl)).status).toBe('free')
      await bare.stop()
      await expect(getChainClients(base).publicClient.getChainId()).rejects.toThrow()
    } finally {
      await rm(otherDataDir, { recursive: true, force: true })
    }
  })

  it('refuses a port held by another program or another chain, and names the port', async () => {
    const [httpPort = 0, anvilPort = 0, chainPort = 0] = await findFreePorts(3)
    const server = createServer((_, response) => response.end('not an RPC'))
    await new Promise<void>((resolve) => server.listen(httpPort, '127.0.0.1', resolve))
    const otherChain = await spawnAnvil({
      host: '127.0.0.1',
      port: anvilPort,
      chainId: 1,
      mnemonic: devnetMnemonic,
      accountCount: 1,
    })
    const otherDataDir = await mkdtemp(path.join(tmpdir(), 'quicklinks-devnet-taken-'))
    try {
      await expect(
        startDevnet({ dataDir: otherDataDir, chains: [{ chainId: 8453, port: httpPort }] }),
      ).rejects.toThrow(
        `port ${httpPort} on 127.0.0.1 is in use by a program that is not an Ethereum JSON-RPC node`,
      )
      await expect(
        startDevnet({ dataDir: otherDataDir, chains: [{ chainId: 8453, port: anvilPort }] }),
      ).rejects.toThrow(`port ${anvilPort} on 127.0.0.1 is in use by an Ethereum node with chain id 1`)
      // The bundler's port: the chain deploys, then its bundler cannot start, and the chain stops again.
      const failure = startDevnet({
        dataDir: otherDataDir,
        chains: [{ chainId: 8453, port: chainPort, bundlerPort: httpPort }],
      })
      await expect(failure).rejects.toThrow(
        `port ${httpPort} on 127.0.0.1 is in use by a program that is not an Ethereum JSON-RPC node`,
      )
      await expect(failure).rejects.toThrow('so the Base (8453) devnet bundler cannot start there')
      await expect(failure).rejects.toThrow(`bundlerPort: <free port>`)
      expect((await probeRpcPort('127.0.0.1', chainPort, `http://127.0.0.1:${chainPort}`)).status).toBe(
        'free',
      )
    } finally {
      await new Promise((resolve) => server.close(resolve))
      await otherChain.stop()
      await rm(otherDataDir, { recursive: true, force: true })
    }
  })

  it('redeploys saved state whose chain settings changed', async () => {
    const [port = 0, bundlerPort = 0] = await findFreePorts(2)
    const otherDataDir = await mkdtemp(path.join(tmpdir(), 'quicklinks-devnet-settings-'))
    const readUsdcForOneNative = async (chain: DevnetChainDeployment) => {
      const amounts = await getChainClients(chain).publicClient.readContract({
        address: chain.contracts.uniswapV2Router,
        abi: uniswapV2Router02Abi,
        functionName: 'getAmountsOut',
        args: [parseUnits('1', 18), [chain.contracts.weth, getToken(chain, 'USDC')]],
      })
      return amounts[1] ?? 0n
    }
    try {
      const first = await startDevnet({
        dataDir: otherDataDir,
        chains: [{ chainId: 42161, port, bundlerPort }],
      })
      const firstChain = getChain(first.deployment, 42161)
      expect(await readUsdcForOneNative(firstChain)).toBeGreaterThan(parseUnits('2900', 6))
      await first.stop()

      const lines: string[] = []
      const second = await startDevnet({
        dataDir: otherDataDir,
        chains: [{ chainId: 42161, port, bundlerPort, nativeUsdcPrice: 2000 }],
        log: (line) => lines.push(line),
      })
      await second.stop()
      expect(lines.join('\n')).toContain('deploying afresh')
      const quote = await startDevnet({
        dataDir: otherDataDir,
        chains: [{ chainId: 42161, port, bundlerPort, nativeUsdcPrice: 2000 }],
      })
      try {
        const usdcForOneNative = await readUsdcForOneNative(getChain(quote.deployment, 42161))
        expect(usdcForOneNative).toBeGreaterThan(parseUnits('1980', 6))
        expect(usdcForOneNative).toBeLessThan(parseUnits('2000', 6))
      } finally {
        await quote.stop()
      }
    } finally {
      await rm(otherDataDir, { recursive: true, force: true })
    }
  })
})
