import { randomBytes } from 'node:crypto'
import {
  type Abi,
  type Address,
  bytesToHex,
  decodeErrorResult,
  encodeFunctionData,
  getAddress,
  type Hash,
  type Hex,
  maxUint256,
  parseEther,
  parseEventLogs,
  parseUnits,
  type TransactionReceipt,
  zeroAddress,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { payRouterAbi, payRouterBytecode } from '../generated/pay-router.ts'
import { reentrantReceiverAbi, reentrantReceiverBytecode } from '../generated/reentrant-receiver.ts'
import { reentrantTokenAbi, reentrantTokenBytecode } from '../generated/reentrant-token.ts'
import { testTokenAbi, testTokenBytecode } from '../generated/test-token.ts'
import { uniswapV2FactoryAbi, uniswapV2FactoryBytecode } from '../generated/uniswap-v2-factory.ts'
import { uniswapV2Router02Abi, uniswapV2Router02Bytecode } from '../generated/uniswap-v2-router02.ts'
import { weth9Abi, weth9Bytecode } from '../generated/weth9.ts'
import { startTestAnvil } from './start-test-anvil.ts'

let anvil: Awaited<ReturnType<typeof startTestAnvil>>
let deployer: Address
let payer: Address
let relayer: Address
let stranger: Address
let usdc: Address
let usdt: Address
let weth: Address
let router: Address
let payRouter: Address

/**
 * eth_estimateGas runs a swap in a block of the current second; when the transaction is mined a
 * second later, the pair also writes its price accumulators and the estimate falls a few thousand
 * gas short. Transactions that may swap name a limit instead.
 */
const swapGasLimit = 1_000_000n
const stateOpen = 1
const stateSettled = 2
const stateRefunded = 3
/** OpenZeppelin ReentrancyGuard's custom error, which a blocked re-entrant call reverts with. */
const reentrancyGuardAbi = [
  { type: 'error', name: 'ReentrancyGuardReentrantCall', inputs: [] },
] as const satisfies Abi

async function confirm(hash: Promise<Hash>): Promise<TransactionReceipt> {
  const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash: await hash })
  if (receipt.status !== 'success') throw new Error(`transaction ${receipt.transactionHash} reverted`)
  return receipt
}

async function deploy(hash: Promise<Hash>): Promise<Address> {
  const { contractAddress } = await confirm(hash)
  if (!contractAddress) throw new Error('no contract deployed')
  return getAddress(contractAddress)
}

const newIntentId = (): Hex => bytesToHex(randomBytes(32))
/** A fresh address that holds nothing, so its balance afterwards is exactly what it was paid. */
const newReceiver = (): Address => getAddress(bytesToHex(randomBytes(20)))

async function tokenBalance(token: Address, owner: Address): Promise<bigint> {
  return anvil.publicClient.readContract({
    address: token,
    abi: testTokenAbi,
    functionName: 'balanceOf',
    args: [owner],
  })
}

const nativeBalance = (owner: Address) => anvil.publicClient.getBalance({ address: owner })

async function latestTimestamp(): Promise<bigint> {
  return (await anvil.publicClient.getBlock()).timestamp
}

async function quote(amountIn: bigint, path: Address[]): Promise<bigint> {
  const amounts = await anvil.publicClient.readContract({
    address: router,
    abi: uniswapV2Router02Abi,
    functionName: 'getAmountsOut',
    args: [amountIn, path],
  })
  const out = amounts.at(-1)
  if (out === undefined) throw new Error('no quote')
  return out
}

async function approve(token: Address, owner: Address, amount = maxUint256): Promise<void> {
  await confirm(
    anvil.walletClient.writeContract({
      account: owner,
      address: token,
      abi: testTokenAbi,
      functionName: 'approve',
      args: [payRouter, amount],
    }),
  )
}

async function readDeposit(intentId: Hex) {
  const [depositor, token, amount, fillDeadline, state] = await anvil.publicClient.readContract({
    address: payRouter,
    abi: payRouterAbi,
    functionName: 'deposits',
    args: [intentId],
  })
  return { payer: depositor, token, amount, fillDeadline, state }
}

async function deposit(options: {
  intentId: Hex
  tokenIn: Address
  amountIn: bigint
  swapPath?: Address[]
  minEscrowAmount?: bigint
  fillDeadline: bigint
  account?: Address
}): Promise<TransactionReceipt> {
  return confirm(
    anvil.walletClient.writeContract({
      account: options.account ?? payer,
      address: payRouter,
      abi: payRouterAbi,
      functionName: 'deposit',
      args: [
        options.intentId,
        options.tokenIn,
        options.amountIn,
        options.swapPath ?? [],
        options.minEscrowAmount ?? 0n,
        8453n,
        usdc,
        options.amountIn,
        newReceiver(),
        options.fillDeadline,
      ],
      value: options.tokenIn === zeroAddress ? options.amountIn : 0n,
      gas: swapGasLimit,
    }),
  )
}

/** Moves the chain's clock past `timestamp` and mines a block there. */
async function passTime(timestamp: bigint): Promise<void> {
  const now = await latestTimestamp()
  if (timestamp >= now) await anvil.testClient.increaseTime({ seconds: Number(timestamp - now) + 1 })
  await anvil.testClient.mine({ blocks: 1 })
}

beforeAll(async () => {
  anvil = await startTestAnvil()
  const [account0, account1, , , , , , , account8, account9] = anvil.accounts
  if (!account0 || !account1 || !account8 || !account9) throw new Error('anvil unlocked too few accounts')
  deployer = account0
  payer = account1
  stranger = account8
  relayer = account9
  const wallet = anvil.walletClient

  usdc = await deploy(
    wallet.deployContract({ abi: testTokenAbi, bytecode: testTokenBytecode, args: ['USD Coin', 'USDC', 6] }),
  )
  usdt = await deploy(
    wallet.deployContract({
      abi: testTokenAbi,
      bytecode: testTokenBytecode,
      args: ['Tether USD', 'USDT', 6],
    }),
  )
  weth = await deploy(wallet.deployContract({ abi: weth9Abi, bytecode: weth9Bytecode }))
  const factory = await deploy(
    wallet.deployContract({ abi: uniswapV2FactoryAbi, bytecode: uniswapV2FactoryBytecode, args: [deployer] }),
  )
  router = await deploy(
    wallet.deployContract({
      abi: uniswapV2Router02Abi,
      bytecode: uniswapV2Router02Bytecode,
      args: [factory, weth],
    }),
  )
  payRouter = await deploy(
    wallet.deployContract({ abi: payRouterAbi, bytecode: payRouterBytecode, args: [router, weth, relayer] }),
  )

  for (const token of [usdc, usdt]) {
    for (const [account, amount] of [
      [deployer, parseUnits('10000000', 6)],
      [payer, parseUnits('1000000', 6)],
      [relayer, parseUnits('1000000', 6)],
    ] as const) {
      await confirm(
        wallet.writeContract({
          address: token,
          abi: testTokenAbi,
          functionName: 'mint',
          args: [account, amount],
        }),
      )
    }
    await confirm(
      wallet.writeContract({
        address: token,
        abi: testTokenAbi,
        functionName: 'approve',
        args: [router, maxUint256],
      }),
    )
    await approve(token, payer)
    await approve(token, relayer)
  }
  // 1,000 ETH against 3,000,000 USDC (3,000 USDC per ETH), and USDT/USDC at 1:1.
  await confirm(
    wallet.writeContract({
      address: router,
      abi: uniswapV2Router02Abi,
      functionName: 'addLiquidityETH',
      args: [usdc, parseUnits('3000000', 6), 0n, 0n, deployer, maxUint256],
      value: parseEther('1000'),
    }),
  )
  await confirm(
    wallet.writeContract({
      address: router,
      abi: uniswapV2Router02Abi,
      functionName: 'addLiquidity',
      args: [usdt, usdc, parseUnits('1000000', 6), parseUnits('1000000', 6), 0n, 0n, deployer, maxUint256],
    }),
  )
})

afterAll(async () => {
  await anvil?.stop()
})

describe('PayRouter', () => {
  it('knows its router, wrapped native token and relayer', async () => {
    const read = <const name extends 'uniswapV2Router' | 'wrappedNative' | 'relayer'>(functionName: name) =>
      anvil.publicClient.readContract({ address: payRouter, abi: payRouterAbi, functionName })
    expect([await read('uniswapV2Router'), await read('wrappedNative'), await read('relayer')]).toEqual([
      router,
      weth,
      relayer,
    ])
  })

  it('refuses native currency sent to it directly (only the router pays it native)', async () => {
    await expect(
      anvil.publicClient.call({ account: payer, to: payRouter, value: parseEther('1') }),
    ).rejects.toThrow('PayRouter: unexpected native transfer')
  })

  describe('pay', () => {
    it('pays an ERC-20 from the payer straight to the receiver and says so in Paid', async () => {
      const receiver = newReceiver()
      const intentId = newIntentId()
      const payerBefore = await tokenBalance(usdc, payer)
      const receipt = await confirm(
        anvil.walletClient.writeContract({
          account: payer,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'pay',
          args: [intentId, usdc, parseUnits('12.5', 6), receiver],
        }),
      )
      expect(await tokenBalance(usdc, receiver)).toBe(parseUnits('12.5', 6))
      expect(payerBefore - (await tokenBalance(usdc, payer))).toBe(parseUnits('12.5', 6))
      expect(await tokenBalance(usdc, payRouter)).toBe(0n)
      const [event] = parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Paid' })
      expect(event?.args).toEqual({ intentId, payer, receiver, token: usdc, amount: parseUnits('12.5', 6) })
    })

    it('pays native currency when msg.value is the amount, and refuses any other value', async () => {
      const receiver = newReceiver()
      const intentId = newIntentId()
      const receipt = await confirm(
        anvil.walletClient.writeContract({
          account: payer,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'pay',
          args: [intentId, zeroAddress, parseEther('0.25'), receiver],
          value: parseEther('0.25'),
        }),
      )
      expect(await nativeBalance(receiver)).toBe(parseEther('0.25'))
      expect(await nativeBalance(payRouter)).toBe(0n)
      const [event] = parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Paid' })
      expect(event?.args).toMatchObject({
        intentId,
        token: zeroAddress,
        amount: parseEther('0.25'),
        receiver,
      })

      const simulate = (token: Address, value: bigint) =>
        anvil.publicClient.simulateContract({
          account: payer,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'pay',
          args: [newIntentId(), token, parseEther('0.25'), receiver],
          value,
        })
      await expect(simulate(zeroAddress, parseEther('0.24'))).rejects.toThrow('PayRouter: bad value')
      await expect(simulate(usdc, 1n)).rejects.toThrow('PayRouter: bad value')
    })
  })

  describe('swapAndPay', () => {
    const swapAndPay = (
      tokenIn: Address,
      amountIn: bigint,
      path: Address[],
      tokenOut: Address,
      amountOutMin: bigint,
      receiver: Address,
      intentId: Hex = newIntentId(),
    ) =>
      confirm(
        anvil.walletClient.writeContract({
          account: payer,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'swapAndPay',
          args: [intentId, tokenIn, amountIn, path, tokenOut, amountOutMin, receiver, maxUint256],
          value: tokenIn === zeroAddress ? amountIn : 0n,
          gas: swapGasLimit,
        }),
      )

    it('swaps USDT for USDC and pays the receiver exactly what the swap yielded', async () => {
      const receiver = newReceiver()
      const intentId = newIntentId()
      const expected = await quote(parseUnits('100', 6), [usdt, usdc])
      const receipt = await swapAndPay(
        usdt,
        parseUnits('100', 6),
        [usdt, usdc],
        usdc,
        (expected * 99n) / 100n,
        receiver,
        intentId,
      )
      expect(expected).toBeGreaterThan(parseUnits('99', 6))
      expect(await tokenBalance(usdc, receiver)).toBe(expected)
      expect(await tokenBalance(usdc, payRouter)).toBe(0n)
      expect(await tokenBalance(usdt, payRouter)).toBe(0n)
      const [event] = parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'SwappedAndPaid' })
      expect(event?.args).toEqual({
        intentId,
        payer,
        receiver,
        tokenIn: usdt,
        amountIn: parseUnits('100', 6),
        tokenOut: usdc,
        amountOut: expected,
      })
    })

    it('swaps native currency for USDC', async () => {
      const receiver = newReceiver()
      const expected = await quote(parseEther('1'), [weth, usdc])
      await swapAndPay(zeroAddress, parseEther('1'), [weth, usdc], usdc, (expected * 99n) / 100n, receiver)
      expect(expected).toBeGreaterThan(parseUnits('2980', 6))
      expect(await tokenBalance(usdc, receiver)).toBe(expected)
      expect(await nativeBalance(payRouter)).toBe(0n)
    })

    it('swaps USDC for native currency and pays it out unwrapped', async () => {
      const receiver = newReceiver()
      const expected = await quote(parseUnits('3000', 6), [usdc, weth])
      await swapAndPay(
        usdc,
        parseUnits('3000', 6),
        [usdc, weth],
        zeroAddress,
        (expected * 99n) / 100n,
        receiver,
      )
      expect(expected).toBeGreaterThan(parseEther('0.98'))
      expect(await nativeBalance(receiver)).toBe(expected)
      expect(await tokenBalance(weth, receiver)).toBe(0n)
      expect(await nativeBalance(payRouter)).toBe(0n)
    })

    it('reverts when the swap yields less than the minimum, leaving the payer untouched', async () => {
      const expected = await quote(parseUnits('100', 6), [usdt, usdc])
      const before = await tokenBalance(usdt, payer)
      await expect(
        anvil.publicClient.simulateContract({
          account: payer,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'swapAndPay',
          args: [
            newIntentId(),
            usdt,
            parseUnits('100', 6),
            [usdt, usdc],
            usdc,
            expected + 1n,
            newReceiver(),
            maxUint256,
          ],
        }),
      ).rejects.toThrow('UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT')
      expect(await tokenBalance(usdt, payer)).toBe(before)
    })

    it('refuses a path whose ends are not the tokens named, and a mismatched value', async () => {
      const simulate = (tokenIn: Address, path: Address[], tokenOut: Address, value = 0n) =>
        anvil.publicClient.simulateContract({
          account: payer,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'swapAndPay',
          args: [newIntentId(), tokenIn, parseUnits('1', 6), path, tokenOut, 0n, newReceiver(), maxUint256],
          value,
        })
      await expect(simulate(usdt, [usdc, weth], weth)).rejects.toThrow('PayRouter: bad path')
      await expect(simulate(usdt, [usdt, usdc], weth)).rejects.toThrow('PayRouter: bad path')
      await expect(simulate(zeroAddress, [weth, usdc], usdc, 5n)).rejects.toThrow('PayRouter: bad value')
      await expect(simulate(usdt, [usdt, usdc], usdc, 5n)).rejects.toThrow('PayRouter: bad value')
    })
  })

  describe('deposit, settle and refund', () => {
    it('escrows an ERC-20 as it is, with the intent in Deposited', async () => {
      const intentId = newIntentId()
      const fillDeadline = (await latestTimestamp()) + 600n
      const payerBefore = await tokenBalance(usdc, payer)
      const escrowBefore = await tokenBalance(usdc, payRouter)
      const receiver = newReceiver()
      const receipt = await confirm(
        anvil.walletClient.writeContract({
          account: payer,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'deposit',
          args: [
            intentId,
            usdc,
            parseUnits('50', 6),
            [],
            parseUnits('50', 6),
            43114n,
            usdt,
            parseUnits('49.5', 6),
            receiver,
            fillDeadline,
          ],
        }),
      )
      expect(payerBefore - (await tokenBalance(usdc, payer))).toBe(parseUnits('50', 6))
      expect((await tokenBalance(usdc, payRouter)) - escrowBefore).toBe(parseUnits('50', 6))
      expect(await readDeposit(intentId)).toEqual({
        payer,
        token: usdc,
        amount: parseUnits('50', 6),
        fillDeadline,
        state: stateOpen,
      })
      const [event] = parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Deposited' })
      expect(event?.args).toEqual({
        intentId,
        payer,
        escrowToken: usdc,
        escrowAmount: parseUnits('50', 6),
        destinationChainId: 43114n,
        destinationToken: usdt,
        minAmountOut: parseUnits('49.5', 6),
        receiver,
        fillDeadline,
      })
    })

    it('escrows native currency as it is', async () => {
      const intentId = newIntentId()
      await deposit({
        intentId,
        tokenIn: zeroAddress,
        amountIn: parseEther('2'),
        fillDeadline: (await latestTimestamp()) + 600n,
      })
      expect(await readDeposit(intentId)).toMatchObject({
        token: zeroAddress,
        amount: parseEther('2'),
        state: stateOpen,
      })
      expect(await nativeBalance(payRouter)).toBeGreaterThanOrEqual(parseEther('2'))
    })

    it('swaps native currency into USDC first and escrows what the swap yielded', async () => {
      const intentId = newIntentId()
      const expected = await quote(parseEther('1'), [weth, usdc])
      const receipt = await deposit({
        intentId,
        tokenIn: zeroAddress,
        amountIn: parseEther('1'),
        swapPath: [weth, usdc],
        minEscrowAmount: (expected * 99n) / 100n,
        fillDeadline: (await latestTimestamp()) + 600n,
      })
      expect(await readDeposit(intentId)).toMatchObject({
        payer,
        token: usdc,
        amount: expected,
        state: stateOpen,
      })
      const [event] = parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Deposited' })
      expect(event?.args).toMatchObject({ escrowToken: usdc, escrowAmount: expected })
    })

    it('reverts a deposit whose swap yields less than the minimum escrow', async () => {
      const expected = await quote(parseUnits('100', 6), [usdt, usdc])
      await expect(
        anvil.publicClient.simulateContract({
          account: payer,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'deposit',
          args: [
            newIntentId(),
            usdt,
            parseUnits('100', 6),
            [usdt, usdc],
            expected + 1n,
            8453n,
            usdc,
            1n,
            newReceiver(),
            (await latestTimestamp()) + 600n,
          ],
        }),
      ).rejects.toThrow('UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT')
    })

    it('rejects a second deposit with the same intent id, and a deadline already passed', async () => {
      const intentId = newIntentId()
      const fillDeadline = (await latestTimestamp()) + 600n
      await deposit({ intentId, tokenIn: usdc, amountIn: parseUnits('1', 6), fillDeadline })
      await expect(
        anvil.publicClient.simulateContract({
          account: stranger,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'deposit',
          args: [intentId, zeroAddress, 1n, [], 0n, 8453n, usdc, 1n, newReceiver(), fillDeadline],
          value: 1n,
        }),
      ).rejects.toThrow('PayRouter: intent exists')
      await expect(
        anvil.publicClient.simulateContract({
          account: payer,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'deposit',
          args: [
            newIntentId(),
            zeroAddress,
            1n,
            [],
            0n,
            8453n,
            usdc,
            1n,
            newReceiver(),
            await latestTimestamp(),
          ],
          value: 1n,
        }),
      ).rejects.toThrow('PayRouter: deadline passed')
    })

    it('settles an open escrow to the relayer only, once, and never refunds it afterwards', async () => {
      const intentId = newIntentId()
      const fillDeadline = (await latestTimestamp()) + 600n
      await deposit({ intentId, tokenIn: usdt, amountIn: parseUnits('75', 6), fillDeadline })
      const settle = (account: Address) =>
        anvil.publicClient.simulateContract({
          account,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'settle',
          args: [intentId],
        })
      await expect(settle(payer)).rejects.toThrow('PayRouter: not relayer')

      const relayerBefore = await tokenBalance(usdt, relayer)
      const receipt = await confirm(
        anvil.walletClient.writeContract({
          account: relayer,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'settle',
          args: [intentId],
        }),
      )
      expect((await tokenBalance(usdt, relayer)) - relayerBefore).toBe(parseUnits('75', 6))
      expect((await readDeposit(intentId)).state).toBe(stateSettled)
      expect(
        parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Settled' })[0]?.args,
      ).toEqual({
        intentId,
      })
      await expect(settle(relayer)).rejects.toThrow('PayRouter: not open')

      await passTime(fillDeadline)
      await expect(
        anvil.publicClient.simulateContract({
          account: payer,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'refund',
          args: [intentId],
        }),
      ).rejects.toThrow('PayRouter: not open')
    })

    it('refunds the payer only after the deadline, to anyone asking, exactly once', async () => {
      const intentId = newIntentId()
      const fillDeadline = (await latestTimestamp()) + 600n
      await deposit({ intentId, tokenIn: zeroAddress, amountIn: parseEther('3'), fillDeadline })
      const refund = () =>
        anvil.publicClient.simulateContract({
          account: stranger,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'refund',
          args: [intentId],
        })
      await expect(refund()).rejects.toThrow('PayRouter: deadline not passed')
      await expect(
        anvil.publicClient.simulateContract({
          account: stranger,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'refund',
          args: [newIntentId()],
        }),
      ).rejects.toThrow('PayRouter: unknown intent')

      await passTime(fillDeadline)
      const payerBefore = await nativeBalance(payer)
      const receipt = await confirm(
        anvil.walletClient.writeContract({
          account: stranger,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'refund',
          args: [intentId],
        }),
      )
      expect((await nativeBalance(payer)) - payerBefore).toBe(parseEther('3'))
      expect((await readDeposit(intentId)).state).toBe(stateRefunded)
      expect(
        parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Refunded' })[0]?.args,
      ).toEqual({
        intentId,
        payer,
        token: zeroAddress,
        amount: parseEther('3'),
      })
      await expect(refund()).rejects.toThrow('PayRouter: not open')
      await expect(
        anvil.publicClient.simulateContract({
          account: relayer,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'settle',
          args: [intentId],
        }),
      ).rejects.toThrow('PayRouter: not open')
    })
  })

  describe('fill', () => {
    const fill = (options: {
      intentId: Hex
      tokenIn: Address
      amountIn: bigint
      swapPath?: Address[]
      tokenOut: Address
      minAmountOut?: bigint
      receiver: Address
      account?: Address
    }) => ({
      account: options.account ?? relayer,
      address: payRouter,
      abi: payRouterAbi,
      functionName: 'fill' as const,
      args: [
        options.intentId,
        options.tokenIn,
        options.amountIn,
        options.swapPath ?? [],
        options.tokenOut,
        options.minAmountOut ?? 0n,
        options.receiver,
        42161n,
      ] as const,
      value: options.tokenIn === zeroAddress ? options.amountIn : 0n,
      gas: swapGasLimit,
    })

    it('pays the receiver from the relayer inventory, once per intent, and only for the relayer', async () => {
      const intentId = newIntentId()
      const receiver = newReceiver()
      const request = fill({
        intentId,
        tokenIn: usdc,
        amountIn: parseUnits('40', 6),
        tokenOut: usdc,
        receiver,
      })
      await expect(anvil.publicClient.simulateContract({ ...request, account: payer })).rejects.toThrow(
        'PayRouter: not relayer',
      )
      const relayerBefore = await tokenBalance(usdc, relayer)
      const receipt = await confirm(anvil.walletClient.writeContract(request))
      expect(await tokenBalance(usdc, receiver)).toBe(parseUnits('40', 6))
      expect(relayerBefore - (await tokenBalance(usdc, relayer))).toBe(parseUnits('40', 6))
      expect(
        await anvil.publicClient.readContract({
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'filled',
          args: [intentId],
        }),
      ).toBe(true)
      expect(parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Filled' })[0]?.args).toEqual(
        {
          intentId,
          relayer,
          receiver,
          token: usdc,
          amount: parseUnits('40', 6),
          sourceChainId: 42161n,
        },
      )

      await expect(anvil.publicClient.simulateContract(request)).rejects.toThrow('PayRouter: already filled')
      await expect(
        anvil.publicClient.simulateContract(
          fill({
            intentId,
            tokenIn: zeroAddress,
            amountIn: 1n,
            tokenOut: zeroAddress,
            receiver: newReceiver(),
          }),
        ),
      ).rejects.toThrow('PayRouter: already filled')
      expect(await tokenBalance(usdc, receiver)).toBe(parseUnits('40', 6))
    })

    it('fills in native currency from msg.value', async () => {
      const receiver = newReceiver()
      await confirm(
        anvil.walletClient.writeContract(
          fill({
            intentId: newIntentId(),
            tokenIn: zeroAddress,
            amountIn: parseEther('0.5'),
            tokenOut: zeroAddress,
            receiver,
          }),
        ),
      )
      expect(await nativeBalance(receiver)).toBe(parseEther('0.5'))
    })

    it('swaps the relayer inventory into the receiver token when they differ', async () => {
      const receiver = newReceiver()
      const expected = await quote(parseUnits('250', 6), [usdt, usdc])
      await confirm(
        anvil.walletClient.writeContract(
          fill({
            intentId: newIntentId(),
            tokenIn: usdt,
            amountIn: parseUnits('250', 6),
            swapPath: [usdt, usdc],
            tokenOut: usdc,
            minAmountOut: (expected * 99n) / 100n,
            receiver,
          }),
        ),
      )
      expect(await tokenBalance(usdc, receiver)).toBe(expected)

      const nativeReceiver = newReceiver()
      const expectedNative = await quote(parseUnits('300', 6), [usdc, weth])
      await confirm(
        anvil.walletClient.writeContract(
          fill({
            intentId: newIntentId(),
            tokenIn: usdc,
            amountIn: parseUnits('300', 6),
            swapPath: [usdc, weth],
            tokenOut: zeroAddress,
            minAmountOut: expectedNative,
            receiver: nativeReceiver,
          }),
        ),
      )
      expect(await nativeBalance(nativeReceiver)).toBe(expectedNative)
    })

    it('reverts a fill below the minimum amount, so the intent stays fillable', async () => {
      const intentId = newIntentId()
      await expect(
        anvil.publicClient.simulateContract(
          fill({
            intentId,
            tokenIn: usdc,
            amountIn: parseUnits('10', 6),
            tokenOut: usdc,
            minAmountOut: parseUnits('10.01', 6),
            receiver: newReceiver(),
          }),
        ),
      ).rejects.toThrow('PayRouter: slippage')
      const expected = await quote(parseUnits('10', 6), [usdt, usdc])
      await expect(
        anvil.publicClient.simulateContract(
          fill({
            intentId,
            tokenIn: usdt,
            amountIn: parseUnits('10', 6),
            swapPath: [usdt, usdc],
            tokenOut: usdc,
            minAmountOut: expected + 1n,
            receiver: newReceiver(),
          }),
        ),
      ).rejects.toThrow('UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT')
      expect(
        await anvil.publicClient.readContract({
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'filled',
          args: [intentId],
        }),
      ).toBe(false)
    })
  })

  describe('reentrancy', () => {
    let reentrantToken: Address

    /** What the armed contract's re-entrant call did: succeeded, or the error it reverted with. */
    async function readAttack(address: Address, abi: typeof reentrantTokenAbi | typeof reentrantReceiverAbi) {
      const [count, succeeded, result] = await Promise.all([
        anvil.publicClient.readContract({ address, abi, functionName: 'attackCount' }),
        anvil.publicClient.readContract({ address, abi, functionName: 'attackSucceeded' }),
        anvil.publicClient.readContract({ address, abi, functionName: 'attackResult' }),
      ])
      const error =
        result === '0x' ? undefined : decodeErrorResult({ abi: reentrancyGuardAbi, data: result }).errorName
      return { count, succeeded, error }
    }

    /** Arms the contract's one re-entrant call; returns how many attacks it had made before. */
    async function arm(
      address: Address,
      abi: typeof reentrantTokenAbi | typeof reentrantReceiverAbi,
      data: Hex,
    ): Promise<bigint> {
      const { count } = await readAttack(address, abi)
      await confirm(
        anvil.walletClient.writeContract({ address, abi, functionName: 'arm', args: [payRouter, data] }),
      )
      return count
    }

    beforeAll(async () => {
      reentrantToken = await deploy(
        anvil.walletClient.deployContract({ abi: reentrantTokenAbi, bytecode: reentrantTokenBytecode }),
      )
      for (const account of [payer, relayer]) {
        await confirm(
          anvil.walletClient.writeContract({
            address: reentrantToken,
            abi: reentrantTokenAbi,
            functionName: 'mint',
            args: [account, parseUnits('1000', 6)],
          }),
        )
        await approve(reentrantToken, account)
      }
    })

    it('blocks a token that re-enters pay while being paid', async () => {
      const receiver = newReceiver()
      const attacksBefore = await arm(
        reentrantToken,
        reentrantTokenAbi,
        encodeFunctionData({
          abi: payRouterAbi,
          functionName: 'pay',
          args: [newIntentId(), reentrantToken, 1n, receiver],
        }),
      )
      await confirm(
        anvil.walletClient.writeContract({
          account: payer,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'pay',
          args: [newIntentId(), reentrantToken, parseUnits('5', 6), receiver],
        }),
      )
      expect(await readAttack(reentrantToken, reentrantTokenAbi)).toEqual({
        count: attacksBefore + 1n,
        succeeded: false,
        error: 'ReentrancyGuardReentrantCall',
      })
      expect(await tokenBalance(reentrantToken, receiver)).toBe(parseUnits('5', 6))
    })

    it('blocks a token that re-enters fill for the same intent, which is then filled once', async () => {
      const intentId = newIntentId()
      const receiver = newReceiver()
      const fillData = encodeFunctionData({
        abi: payRouterAbi,
        functionName: 'fill',
        args: [intentId, reentrantToken, parseUnits('5', 6), [], reentrantToken, 0n, receiver, 1n],
      })
      const attacksBefore = await arm(reentrantToken, reentrantTokenAbi, fillData)
      await confirm(anvil.walletClient.sendTransaction({ account: relayer, to: payRouter, data: fillData }))
      expect(await readAttack(reentrantToken, reentrantTokenAbi)).toEqual({
        count: attacksBefore + 1n,
        succeeded: false,
        error: 'ReentrancyGuardReentrantCall',
      })
      expect(await tokenBalance(reentrantToken, receiver)).toBe(parseUnits('5', 6))
    })

    it('blocks a token that re-enters refund while its escrow is paid back', async () => {
      const intentId = newIntentId()
      const fillDeadline = (await latestTimestamp()) + 60n
      await deposit({ intentId, tokenIn: reentrantToken, amountIn: parseUnits('20', 6), fillDeadline })
      await passTime(fillDeadline)
      const refundData = encodeFunctionData({ abi: payRouterAbi, functionName: 'refund', args: [intentId] })
      const attacksBefore = await arm(reentrantToken, reentrantTokenAbi, refundData)
      const before = await tokenBalance(reentrantToken, payer)
      await confirm(
        anvil.walletClient.sendTransaction({ account: stranger, to: payRouter, data: refundData }),
      )
      expect(await readAttack(reentrantToken, reentrantTokenAbi)).toEqual({
        count: attacksBefore + 1n,
        succeeded: false,
        error: 'ReentrancyGuardReentrantCall',
      })
      expect((await tokenBalance(reentrantToken, payer)) - before).toBe(parseUnits('20', 6))
      expect(await tokenBalance(reentrantToken, payRouter)).toBe(0n)
    })

    it('blocks a payer contract that re-enters refund when its native refund arrives', async () => {
      const attacker = await deploy(
        anvil.walletClient.deployContract({ abi: reentrantReceiverAbi, bytecode: reentrantReceiverBytecode }),
      )
      const intentId = newIntentId()
      const fillDeadline = (await latestTimestamp()) + 60n
      await confirm(
        anvil.walletClient.writeContract({
          address: attacker,
          abi: reentrantReceiverAbi,
          functionName: 'execute',
          args: [
            payRouter,
            encodeFunctionData({
              abi: payRouterAbi,
              functionName: 'deposit',
              args: [
                intentId,
                zeroAddress,
                parseEther('1'),
                [],
                0n,
                8453n,
                usdc,
                1n,
                newReceiver(),
                fillDeadline,
              ],
            }),
          ],
          value: parseEther('1'),
        }),
      )
      expect(await readDeposit(intentId)).toMatchObject({
        payer: attacker,
        amount: parseEther('1'),
        state: stateOpen,
      })
      await passTime(fillDeadline)
      const refundData = encodeFunctionData({ abi: payRouterAbi, functionName: 'refund', args: [intentId] })
      const attacksBefore = await arm(attacker, reentrantReceiverAbi, refundData)
      await confirm(
        anvil.walletClient.sendTransaction({ account: stranger, to: payRouter, data: refundData }),
      )
      expect(await readAttack(attacker, reentrantReceiverAbi)).toEqual({
        count: attacksBefore + 1n,
        succeeded: false,
        error: 'ReentrancyGuardReentrantCall',
      })
      expect(await nativeBalance(attacker)).toBe(parseEther('1'))
      expect((await readDeposit(intentId)).state).toBe(stateRefunded)
    })

    it('blocks a receiver contract that re-enters pay when paid in native currency', async () => {
      const attacker = await deploy(
        anvil.walletClient.deployContract({ abi: reentrantReceiverAbi, bytecode: reentrantReceiverBytecode }),
      )
      await confirm(anvil.walletClient.sendTransaction({ to: attacker, value: parseEther('1') }))
      const attacksBefore = await arm(
        attacker,
        reentrantReceiverAbi,
        encodeFunctionData({
          abi: payRouterAbi,
          functionName: 'pay',
          args: [newIntentId(), zeroAddress, 0n, attacker],
        }),
      )
      await confirm(
        anvil.walletClient.writeContract({
          account: payer,
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'pay',
          args: [newIntentId(), zeroAddress, parseEther('0.1'), attacker],
          value: parseEther('0.1'),
        }),
      )
      expect(await readAttack(attacker, reentrantReceiverAbi)).toEqual({
        count: attacksBefore + 1n,
        succeeded: false,
        error: 'ReentrancyGuardReentrantCall',
      })
      expect(await nativeBalance(attacker)).toBe(parseEther('1.1'))
    })
  })
})
