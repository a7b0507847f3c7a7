import { randomBytes } from 'node:crypto'
import {
  type Abi,
  type Address,
  bytesToHex,
  type ContractFunctionArgs,
  decodeErrorResult,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hash,
  type Hex,
  keccak256,
  maxUint256,
  parseAbiParameters,
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

type TestAnvil = Awaited<ReturnType<typeof startTestAnvil>>
/** A cross-chain order as PayRouter takes it (`fill`, `settle`, `refund`, `orderKeyOf`). */
type Order = ContractFunctionArgs<typeof payRouterAbi, 'nonpayable', 'settle'>[0]

let anvil: TestAnvil
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
 * gas short. Transactions that may swap name a limit instead (and so do transactions sent into a
 * block of a chosen timestamp, which an estimate in the latest block could wrongly reject).
 */
const swapGasLimit = 1_000_000n
const stateNone = 0
const stateOpen = 1
const stateSettled = 2
const stateRefunded = 3
/** The test anvil's chain: the source of real deposits and the destination of hand-built fills. */
const thisChainId = 31337n
/** Where real deposits on the test anvil ask to be filled (deposit refuses this same chain). */
const otherChainId = 8453n
/** The source chain of the orders the fill tests build by hand. */
const foreignChainId = 42161n
/** PayRouter's MAX_FILL_WINDOW and SETTLEMENT_WINDOW, one hour each (checked below). */
const maxFillWindow = 3600n
const settlementWindow = 3600n
/** OpenZeppelin ReentrancyGuard's custom error, which a blocked re-entrant call reverts with. */
const reentrancyGuardAbi = [
  { type: 'error', name: 'ReentrancyGuardReentrantCall', inputs: [] },
] as const satisfies Abi
/**
 * The order as the brief defines it, written out by hand rather than read from the ABI, so the key
 * a client computes is checked against the contract's: keccak256(abi.encode(order)).
 */
const orderParameters = parseAbiParameters(
  '(bytes32 intentId, uint256 sourceChainId, address payer, address escrowToken, uint256 escrowAmount, address receiver, uint256 destinationChainId, address destinationToken, uint256 minAmountOut, uint64 fillDeadline)',
)
const keyOf = (order: Order): Hex => keccak256(encodeAbiParameters(orderParameters, [order]))

async function confirm(hash: Promise<Hash>, chain: TestAnvil = anvil): Promise<TransactionReceipt> {
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash: await hash })
  if (receipt.status !== 'success') throw new Error(`transaction ${receipt.transactionHash} reverted`)
  return receipt
}

async function deploy(hash: Promise<Hash>, chain: TestAnvil = anvil): Promise<Address> {
  const { contractAddress } = await confirm(hash, chain)
  if (!contractAddress) throw new Error('no contract deployed')
  return getAddress(contractAddress)
}

const newIntentId = (): Hex => bytesToHex(randomBytes(32))
/** A fresh address that holds nothing, so its balance afterwards is exactly what it was paid. */
const newAddress = (): Address => getAddress(bytesToHex(randomBytes(20)))

async function tokenBalance(token: Address, owner: Address, chain: TestAnvil = anvil): Promise<bigint> {
  return chain.publicClient.readContract({
    address: token,
    abi: testTokenAbi,
    functionName: 'balanceOf',
    args: [owner],
  })
}

const nativeBalance = (owner: Address) => anvil.publicClient.getBalance({ address: owner })

async function latestTimestamp(chain: TestAnvil = anvil): Promise<bigint> {
  return (await chain.publicClient.getBlock()).timestamp
}

/** Mines an empty block at exactly `timestamp`; calls simulated next run at that time. */
async function mineAt(timestamp: bigint, chain: TestAnvil = anvil): Promise<void> {
  await chain.testClient.setNextBlockTimestamp({ timestamp })
  await chain.testClient.mine({ blocks: 1 })
  expect(await latestTimestamp(chain)).toBe(timestamp)
}

/** Makes the next transaction's block carry exactly `timestamp` (send it with a gas limit). */
async function nextBlockAt(timestamp: bigint, chain: TestAnvil = anvil): Promise<void> {
  await chain.testClient.setNextBlockTimestamp({ timestamp })
}

async function blockTimestamp(receipt: TransactionReceipt, chain: TestAnvil = anvil): Promise<bigint> {
  return (await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp
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

async function approve(
  token: Address,
  owner: Address,
  spender: Address = payRouter,
  chain: TestAnvil = anvil,
): Promise<void> {
  await confirm(
    chain.walletClient.writeContract({
      account: owner,
      address: token,
      abi: testTokenAbi,
      functionName: 'approve',
      args: [spender, maxUint256],
    }),
    chain,
  )
}

async function depositState(orderKey: Hex): Promise<number> {
  return anvil.publicClient.readContract({
    address: payRouter,
    abi: payRouterAbi,
    functionName: 'depositState',
    args: [orderKey],
  })
}

async function isFilled(
  orderKey: Hex,
  chain: TestAnvil = anvil,
  address: Address = payRouter,
): Promise<boolean> {
  return chain.publicClient.readContract({
    address,
    abi: payRouterAbi,
    functionName: 'filled',
    args: [orderKey],
  })
}

type DepositOptions = {
  intentId?: Hex
  tokenIn: Address
  amountIn: bigint
  swapPath?: Address[]
  minEscrowAmount?: bigint
  destinationChainId?: bigint
  destinationToken?: Address
  /** The amount the receiver must get; defaults to `amountIn`. */
  minAmountOut?: bigint
  receiver?: Address
  fillDeadline: bigint
  account?: Address
}

/** A `deposit` call on the test anvil (to simulate or send); other chain, USDC out by default. */
function depositRequest(options: DepositOptions) {
  return {
    account: options.account ?? payer,
    address: payRouter,
    abi: payRouterAbi,
    functionName: 'deposit' as const,
    args: [
      options.intentId ?? newIntentId(),
      options.tokenIn,
      options.amountIn,
      options.swapPath ?? [],
      options.minEscrowAmount ?? 0n,
      options.destinationChainId ?? otherChainId,
      options.destinationToken ?? usdc,
      options.minAmountOut ?? options.amountIn,
      options.receiver ?? newAddress(),
      options.fillDeadline,
    ] as const,
    value: options.tokenIn === zeroAddress ? options.amountIn : 0n,
    gas: swapGasLimit,
  }
}

/** The order and key a receipt's Deposited event names. */
function readDeposited(receipt: TransactionReceipt): { orderKey: Hex; order: Order } {
  const [event] = parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Deposited' })
  if (!event) throw new Error('no Deposited event')
  return { orderKey: event.args.orderKey, order: event.args.order }
}

async function deposit(options: DepositOptions) {
  const receipt = await confirm(anvil.walletClient.writeContract(depositRequest(options)))
  return { receipt, ...readDeposited(receipt) }
}

/** A `settle` (relayer) or `refund` (stranger) call for `order`, to simulate or send. */
const settleRequest = (order: Order, account: Address = relayer) => ({
  account,
  address: payRouter,
  abi: payRouterAbi,
  functionName: 'settle' as const,
  args: [order] as const,
  gas: swapGasLimit,
})
const refundRequest = (order: Order, account: Address = stranger) => ({
  account,
  address: payRouter,
  abi: payRouterAbi,
  functionName: 'refund' as const,
  args: [order] as const,
  gas: swapGasLimit,
})

/**
 * An order as a deposit on another chain would have made it, to be filled on the test anvil: a
 * fresh intent, payer and receiver, 40 USDC out, fill deadline ten minutes ahead.
 */
async function newFillOrder(overrides: Partial<Order> = {}): Promise<Order> {
  return {
    intentId: newIntentId(),
    sourceChainId: foreignChainId,
    payer: newAddress(),
    escrowToken: newAddress(),
    escrowAmount: parseUnits('40.2', 6),
    receiver: newAddress(),
    destinationChainId: thisChainId,
    destinationToken: usdc,
    minAmountOut: parseUnits('40', 6),
    fillDeadline: (await latestTimestamp()) + 600n,
    ...overrides,
  }
}

/** A `fill` call for `order` paying `amountIn` of `tokenIn` (swapped along `swapPath` if given). */
const fillRequest = (
  order: Order,
  tokenIn: Address,
  amountIn: bigint,
  swapPath: Address[] = [],
  account: Address = relayer,
) => ({
  account,
  address: payRouter,
  abi: payRouterAbi,
  functionName: 'fill' as const,
  args: [order, tokenIn, amountIn, swapPath] as const,
  value: tokenIn === zeroAddress ? amountIn : 0n,
  gas: swapGasLimit,
})

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
      [stranger, parseUnits('1000000', 6)],
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
    await approve(token, deployer, router)
    for (const account of [payer, stranger, relayer]) await approve(token, account)
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
  it('knows its router, wrapped native token, relayer and its two one-hour windows', async () => {
    const read = <const name extends 'uniswapV2Router' | 'wrappedNative' | 'relayer'>(functionName: name) =>
      anvil.publicClient.readContract({ address: payRouter, abi: payRouterAbi, functionName })
    expect([await read('uniswapV2Router'), await read('wrappedNative'), await read('relayer')]).toEqual([
      router,
      weth,
      relayer,
    ])
    const readWindow = (functionName: 'MAX_FILL_WINDOW' | 'SETTLEMENT_WINDOW') =>
      anvil.publicClient.readContract({ address: payRouter, abi: payRouterAbi, functionName })
    expect([await readWindow('MAX_FILL_WINDOW'), await readWindow('SETTLEMENT_WINDOW')]).toEqual([
      maxFillWindow,
      settlementWindow,
    ])
  })

  it('refuses native currency sent to it directly (only the router pays it native)', async () => {
    await expect(
      anvil.publicClient.call({ account: payer, to: payRouter, value: parseEther('1') }),
    ).rejects.toThrow('PayRouter: unexpected native transfer')
  })

  describe('pay', () => {
    it('pays an ERC-20 from the payer straight to the receiver and says so in Paid', async () => {
      const receiver = newAddress()
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
      const receiver = newAddress()
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
      const receiver = newAddress()
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
      const receiver = newAddress()
      const expected = await quote(parseEther('1'), [weth, usdc])
      await swapAndPay(zeroAddress, parseEther('1'), [weth, usdc], usdc, (expected * 99n) / 100n, receiver)
      expect(expected).toBeGreaterThan(parseUnits('2980', 6))
      expect(await tokenBalance(usdc, receiver)).toBe(expected)
      expect(await nativeBalance(payRouter)).toBe(0n)
    })

    it('swaps USDC for native currency and pays it out unwrapped', async () => {
      const receiver = newAddress()
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
            newAddress(),
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
          args: [newIntentId(), tokenIn, parseUnits('1', 6), path, tokenOut, 0n, newAddress(), maxUint256],
          value,
        })
      await expect(simulate(usdt, [usdc, weth], weth)).rejects.toThrow('PayRouter: bad path')
      await expect(simulate(usdt, [usdt, usdc], weth)).rejects.toThrow('PayRouter: bad path')
      await expect(simulate(zeroAddress, [weth, usdc], usdc, 5n)).rejects.toThrow('PayRouter: bad value')
      await expect(simulate(usdt, [usdt, usdc], usdc, 5n)).rejects.toThrow('PayRouter: bad value')
    })
  })

  describe('deposit', () => {
    it('escrows an ERC-20 as it is, names the whole order in Deposited and keeps it open under its hash', async () => {
      const intentId = newIntentId()
      const fillDeadline = (await latestTimestamp()) + 600n
      const payerBefore = await tokenBalance(usdc, payer)
      const escrowBefore = await tokenBalance(usdc, payRouter)
      const receiver = newAddress()
      const request = depositRequest({
        intentId,
        tokenIn: usdc,
        amountIn: parseUnits('50', 6),
        minEscrowAmount: parseUnits('50', 6),
        destinationChainId: 43114n,
        destinationToken: usdt,
        minAmountOut: parseUnits('49.5', 6),
        receiver,
        fillDeadline,
      })
      const { result: returnedKey } = await anvil.publicClient.simulateContract(request)
      const receipt = await confirm(anvil.walletClient.writeContract(request))
      expect(payerBefore - (await tokenBalance(usdc, payer))).toBe(parseUnits('50', 6))
      expect((await tokenBalance(usdc, payRouter)) - escrowBefore).toBe(parseUnits('50', 6))

      const order: Order = {
        intentId,
        sourceChainId: thisChainId,
        payer,
        escrowToken: usdc,
        escrowAmount: parseUnits('50', 6),
        receiver,
        destinationChainId: 43114n,
        destinationToken: usdt,
        minAmountOut: parseUnits('49.5', 6),
        fillDeadline,
      }
      const orderKey = keyOf(order)
      const [event] = parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Deposited' })
      expect(event?.args).toEqual({ orderKey, intentId, payer, order })
      expect(returnedKey).toBe(orderKey)
      expect(
        await anvil.publicClient.readContract({
          address: payRouter,
          abi: payRouterAbi,
          functionName: 'orderKeyOf',
          args: [order],
        }),
      ).toBe(orderKey)
      expect(await depositState(orderKey)).toBe(stateOpen)
      expect(await depositState(intentId)).toBe(stateNone)
      expect(await isFilled(orderKey)).toBe(false)
    })

    it('escrows native currency as it is', async () => {
      const escrowBefore = await nativeBalance(payRouter)
      const { order, orderKey } = await deposit({
        tokenIn: zeroAddress,
        amountIn: parseEther('2'),
        fillDeadline: (await latestTimestamp()) + 600n,
      })
      expect(order).toMatchObject({ payer, escrowToken: zeroAddress, escrowAmount: parseEther('2') })
      expect(await depositState(orderKey)).toBe(stateOpen)
      expect((await nativeBalance(payRouter)) - escrowBefore).toBe(parseEther('2'))
    })

    it('swaps native currency into USDC first and escrows what the swap yielded', async () => {
      const expected = await quote(parseEther('1'), [weth, usdc])
      const { order, orderKey } = await deposit({
        tokenIn: zeroAddress,
        amountIn: parseEther('1'),
        swapPath: [weth, usdc],
        minEscrowAmount: (expected * 99n) / 100n,
        fillDeadline: (await latestTimestamp()) + 600n,
      })
      expect(order).toMatchObject({ payer, escrowToken: usdc, escrowAmount: expected })
      expect(orderKey).toBe(keyOf(order))
      expect(await depositState(orderKey)).toBe(stateOpen)
    })

    it('reverts a deposit whose swap yields less than the minimum escrow', async () => {
      const expected = await quote(parseUnits('100', 6), [usdt, usdc])
      await expect(
        anvil.publicClient.simulateContract(
          depositRequest({
            tokenIn: usdt,
            amountIn: parseUnits('100', 6),
            swapPath: [usdt, usdc],
            minEscrowAmount: expected + 1n,
            minAmountOut: 1n,
            fillDeadline: (await latestTimestamp()) + 600n,
          }),
        ),
      ).rejects.toThrow('UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT')
    })

    it('refuses a deposit for this same chain, with a zero minimum, or a deadline passed or over an hour ahead', async () => {
      const now = await latestTimestamp()
      const simulate = (overrides: Partial<DepositOptions>) =>
        anvil.publicClient.simulateContract(
          depositRequest({
            tokenIn: usdc,
            amountIn: parseUnits('1', 6),
            fillDeadline: now + 600n,
            ...overrides,
          }),
        )
      await expect(simulate({ destinationChainId: thisChainId })).rejects.toThrow('PayRouter: same chain')
      await expect(simulate({ minAmountOut: 0n })).rejects.toThrow('PayRouter: zero minimum')
      await expect(simulate({ fillDeadline: now })).rejects.toThrow('PayRouter: deadline passed')
      await expect(simulate({ fillDeadline: now + maxFillWindow + 1n })).rejects.toThrow(
        'PayRouter: deadline too far',
      )
      await expect(simulate({ fillDeadline: 2n ** 64n - 1n })).rejects.toThrow('PayRouter: deadline too far')
      await expect(simulate({ receiver: zeroAddress })).rejects.toThrow('PayRouter: zero receiver')
      await expect(simulate({ amountIn: 0n })).rejects.toThrow('PayRouter: zero amount')
      await expect(simulate({ fillDeadline: now + maxFillWindow })).resolves.toBeDefined()

      // The bound counts from the deposit's own block: exactly an hour ahead of it is accepted.
      const depositTime = now + 5n
      await nextBlockAt(depositTime)
      const { receipt, order, orderKey } = await deposit({
        tokenIn: usdc,
        amountIn: parseUnits('1', 6),
        fillDeadline: depositTime + maxFillWindow,
      })
      expect(await blockTimestamp(receipt)).toBe(depositTime)
      expect(order.fillDeadline).toBe(depositTime + maxFillWindow)
      expect(await depositState(orderKey)).toBe(stateOpen)
    })

    it('refuses the identical order twice, but keys a copied intent id with another payer, receiver or amount apart', async () => {
      const intentId = newIntentId()
      const receiver = newAddress()
      const fillDeadline = (await latestTimestamp()) + 600n
      const base = { intentId, tokenIn: usdc, amountIn: parseUnits('10', 6), receiver, fillDeadline }
      const first = await deposit(base)
      await expect(anvil.publicClient.simulateContract(depositRequest(base))).rejects.toThrow(
        'PayRouter: order exists',
      )

      const copies = [
        await deposit({ ...base, account: stranger }),
        await deposit({ ...base, receiver: newAddress() }),
        await deposit({ ...base, amountIn: parseUnits('10.000001', 6) }),
        await deposit({ ...base, minAmountOut: parseUnits('9', 6) }),
        await deposit({ ...base, fillDeadline: fillDeadline + 1n }),
      ]
      expect(copies[0]?.order.payer).toBe(stranger)
      const keys = [first, ...copies].map(({ orderKey }) => orderKey)
      expect(new Set(keys).size).toBe(keys.length)
      for (const { order, orderKey } of [first, ...copies]) {
        expect(order.intentId).toBe(intentId)
        expect(orderKey).toBe(keyOf(order))
        expect(await depositState(orderKey)).toBe(stateOpen)
      }

      // Settling the stranger's copy releases its escrow alone; the payer's order stays open.
      const copy = copies[0]
      if (!copy) throw new Error('no copy')
      await confirm(anvil.walletClient.writeContract(settleRequest(copy.order)))
      expect(await depositState(copy.orderKey)).toBe(stateSettled)
      expect(await depositState(first.orderKey)).toBe(stateOpen)
    })
  })

  describe('settle and refund', () => {
    it('settles an open escrow to the relayer only, once, and never refunds it afterwards', async () => {
      const fillDeadline = (await latestTimestamp()) + 600n
      const { order, orderKey } = await deposit({
        tokenIn: usdt,
        amountIn: parseUnits('75', 6),
        fillDeadline,
      })
      await expect(anvil.publicClient.simulateContract(settleRequest(order, payer))).rejects.toThrow(
        'PayRouter: not relayer',
      )

      const relayerBefore = await tokenBalance(usdt, relayer)
      const escrowBefore = await tokenBalance(usdt, payRouter)
      const receipt = await confirm(anvil.walletClient.writeContract(settleRequest(order)))
      expect((await tokenBalance(usdt, relayer)) - relayerBefore).toBe(parseUnits('75', 6))
      expect(escrowBefore - (await tokenBalance(usdt, payRouter))).toBe(parseUnits('75', 6))
      expect(await depositState(orderKey)).toBe(stateSettled)
      expect(
        parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Settled' })[0]?.args,
      ).toEqual({ orderKey, intentId: order.intentId })
      await expect(anvil.publicClient.simulateContract(settleRequest(order))).rejects.toThrow(
        'PayRouter: not open',
      )

      await mineAt(fillDeadline + settlementWindow + 1n)
      await expect(anvil.publicClient.simulateContract(refundRequest(order, payer))).rejects.toThrow(
        'PayRouter: not open',
      )
    })

    it('keeps refunds closed from the fill deadline through the settlement window, then refunds the payer the escrow exactly once', async () => {
      const fillDeadline = (await latestTimestamp()) + 600n
      const { order, orderKey } = await deposit({
        tokenIn: usdt,
        amountIn: parseUnits('33.3', 6),
        fillDeadline,
      })
      const simulateRefund = () => anvil.publicClient.simulateContract(refundRequest(order))

      await expect(simulateRefund()).rejects.toThrow('PayRouter: settlement window open')
      await mineAt(fillDeadline)
      await expect(simulateRefund()).rejects.toThrow('PayRouter: settlement window open')
      await mineAt(fillDeadline + 1n)
      await expect(simulateRefund()).rejects.toThrow('PayRouter: settlement window open')
      await mineAt(fillDeadline + settlementWindow)
      await expect(simulateRefund()).rejects.toThrow('PayRouter: settlement window open')
      expect(await depositState(orderKey)).toBe(stateOpen)

      // The first second after the window: anyone may refund, and only the payer is paid.
      const payerBefore = await tokenBalance(usdt, payer)
      const strangerBefore = await tokenBalance(usdt, stranger)
      const escrowBefore = await tokenBalance(usdt, payRouter)
      await nextBlockAt(fillDeadline + settlementWindow + 1n)
      const receipt = await confirm(anvil.walletClient.writeContract(refundRequest(order)))
      expect(await blockTimestamp(receipt)).toBe(fillDeadline + settlementWindow + 1n)
      expect((await tokenBalance(usdt, payer)) - payerBefore).toBe(parseUnits('33.3', 6))
      expect(await tokenBalance(usdt, stranger)).toBe(strangerBefore)
      expect(escrowBefore - (await tokenBalance(usdt, payRouter))).toBe(parseUnits('33.3', 6))
      expect(await depositState(orderKey)).toBe(stateRefunded)
      expect(
        parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Refunded' })[0]?.args,
      ).toEqual({
        orderKey,
        intentId: order.intentId,
        payer,
        token: usdt,
        amount: parseUnits('33.3', 6),
      })

      await expect(simulateRefund()).rejects.toThrow('PayRouter: not open')
      await expect(anvil.publicClient.simulateContract(refundRequest(order, payer))).rejects.toThrow(
        'PayRouter: not open',
      )
      await expect(anvil.publicClient.simulateContract(settleRequest(order))).rejects.toThrow(
        'PayRouter: not open',
      )
      expect((await tokenBalance(usdt, payer)) - payerBefore).toBe(parseUnits('33.3', 6))
    })

    it('refunds native escrow to the payer, whoever asks', async () => {
      const fillDeadline = (await latestTimestamp()) + 600n
      const { order, orderKey } = await deposit({
        tokenIn: zeroAddress,
        amountIn: parseEther('3'),
        fillDeadline,
      })
      await mineAt(fillDeadline + settlementWindow + 1n)
      const payerBefore = await nativeBalance(payer)
      await confirm(anvil.walletClient.writeContract(refundRequest(order)))
      expect((await nativeBalance(payer)) - payerBefore).toBe(parseEther('3'))
      expect(await depositState(orderKey)).toBe(stateRefunded)
    })

    it('leaves the relayer who filled by the deadline the whole settlement window to settle, with no refund before it', async () => {
      // A fill on the destination happens at the latest in the second of the fill deadline; from
      // then until deadline + SETTLEMENT_WINDOW a refund reverts and the relayer's settle works.
      const fillDeadline = (await latestTimestamp()) + 600n
      const { order, orderKey } = await deposit({
        tokenIn: usdc,
        amountIn: parseUnits('20', 6),
        fillDeadline,
      })
      for (const time of [
        fillDeadline,
        fillDeadline + settlementWindow / 2n,
        fillDeadline + settlementWindow - 1n,
      ]) {
        await mineAt(time)
        await expect(
          anvil.publicClient.simulateContract(refundRequest(order)),
          `refund at ${time}`,
        ).rejects.toThrow('PayRouter: settlement window open')
        await expect(
          anvil.publicClient.simulateContract(refundRequest(order, payer)),
          `refund by the payer at ${time}`,
        ).rejects.toThrow('PayRouter: settlement window open')
        await expect(anvil.publicClient.simulateContract(settleRequest(order))).resolves.toBeDefined()
      }

      // The last second of the window: a refund still reverts there (see above), settle goes through.
      const relayerBefore = await tokenBalance(usdc, relayer)
      await nextBlockAt(fillDeadline + settlementWindow)
      const receipt = await confirm(anvil.walletClient.writeContract(settleRequest(order)))
      expect(await blockTimestamp(receipt)).toBe(fillDeadline + settlementWindow)
      expect((await tokenBalance(usdc, relayer)) - relayerBefore).toBe(parseUnits('20', 6))
      expect(await depositState(orderKey)).toBe(stateSettled)

      await mineAt(fillDeadline + settlementWindow + 60n)
      await expect(anvil.publicClient.simulateContract(refundRequest(order, payer))).rejects.toThrow(
        'PayRouter: not open',
      )
    })

    it('settles or refunds only the order deposited: never an unknown order, an altered one or one from another chain', async () => {
      const fillDeadline = (await latestTimestamp()) + 600n
      const { order, orderKey } = await deposit({
        tokenIn: usdt,
        amountIn: parseUnits('15', 6),
        minAmountOut: parseUnits('14.9', 6),
        fillDeadline,
      })
      // Make sure the contract holds more than this escrow, so an inflated amount could be paid out.
      await deposit({ tokenIn: usdt, amountIn: parseUnits('500', 6), fillDeadline })

      const altered: [field: string, order: Order][] = [
        ['intentId', { ...order, intentId: newIntentId() }],
        ['payer', { ...order, payer: stranger }],
        ['escrowToken', { ...order, escrowToken: usdc }],
        ['escrowAmount up', { ...order, escrowAmount: order.escrowAmount + 1n }],
        ['escrowAmount way up', { ...order, escrowAmount: parseUnits('515', 6) }],
        ['escrowAmount down', { ...order, escrowAmount: order.escrowAmount - 1n }],
        ['receiver', { ...order, receiver: relayer }],
        ['destinationChainId', { ...order, destinationChainId: 10n }],
        ['destinationToken', { ...order, destinationToken: usdt }],
        ['minAmountOut', { ...order, minAmountOut: order.minAmountOut - 1n }],
        ['fillDeadline later', { ...order, fillDeadline: order.fillDeadline + 1n }],
        // Backdated so that, were it accepted, refunds would already be open.
        ['fillDeadline earlier', { ...order, fillDeadline: order.fillDeadline - 7200n }],
        [
          'never deposited',
          await newFillOrder({ sourceChainId: thisChainId, destinationChainId: otherChainId }),
        ],
      ]
      const fromElsewhere: Order = { ...order, sourceChainId: otherChainId }
      const check = async () => {
        for (const [field, candidate] of altered) {
          expect(keyOf(candidate), field).not.toBe(orderKey)
          await expect(anvil.publicClient.simulateContract(settleRequest(candidate)), field).rejects.toThrow(
            'PayRouter: unknown order',
          )
          await expect(anvil.publicClient.simulateContract(refundRequest(candidate)), field).rejects.toThrow(
            'PayRouter: unknown order',
          )
        }
        await expect(anvil.publicClient.simulateContract(settleRequest(fromElsewhere))).rejects.toThrow(
          'PayRouter: wrong chain',
        )
        await expect(anvil.publicClient.simulateContract(refundRequest(fromElsewhere))).rejects.toThrow(
          'PayRouter: wrong chain',
        )
      }
      await check()
      // Again once the real order's refund window is open, when only the key stands in the way.
      await mineAt(fillDeadline + settlementWindow + 1n)
      await check()

      expect(await depositState(orderKey)).toBe(stateOpen)
      const payerBefore = await tokenBalance(usdt, payer)
      await confirm(anvil.walletClient.writeContract(refundRequest(order)))
      expect((await tokenBalance(usdt, payer)) - payerBefore).toBe(parseUnits('15', 6))
    })
  })

  describe('fill', () => {
    it('pays the receiver from the relayer inventory, once per order, and only for the relayer', async () => {
      const order = await newFillOrder()
      const orderKey = keyOf(order)
      const request = fillRequest(order, usdc, parseUnits('40', 6))
      await expect(anvil.publicClient.simulateContract({ ...request, account: payer })).rejects.toThrow(
        'PayRouter: not relayer',
      )
      const relayerBefore = await tokenBalance(usdc, relayer)
      const { result } = await anvil.publicClient.simulateContract(request)
      expect(result).toBe(parseUnits('40', 6))
      const receipt = await confirm(anvil.walletClient.writeContract(request))
      expect(await tokenBalance(usdc, order.receiver)).toBe(parseUnits('40', 6))
      expect(relayerBefore - (await tokenBalance(usdc, relayer))).toBe(parseUnits('40', 6))
      expect(await isFilled(orderKey)).toBe(true)
      // A fill is no escrow: the destination side keeps no deposit state for the order.
      expect(await depositState(orderKey)).toBe(stateNone)
      expect(parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Filled' })[0]?.args).toEqual(
        {
          orderKey,
          intentId: order.intentId,
          receiver: order.receiver,
          token: usdc,
          amount: parseUnits('40', 6),
          sourceChainId: foreignChainId,
          relayer,
        },
      )

      await expect(anvil.publicClient.simulateContract(request)).rejects.toThrow('PayRouter: already filled')
      // Nor through a swap (which on its own would meet the minimum).
      expect(await quote(parseUnits('45', 6), [usdt, usdc])).toBeGreaterThan(order.minAmountOut)
      await expect(
        anvil.publicClient.simulateContract(fillRequest(order, usdt, parseUnits('45', 6), [usdt, usdc])),
      ).rejects.toThrow('PayRouter: already filled')
      expect(await tokenBalance(usdc, order.receiver)).toBe(parseUnits('40', 6))
    })

    it('pays more than the minimum when the relayer sends more, and Filled says how much', async () => {
      const order = await newFillOrder({ minAmountOut: parseUnits('10', 6) })
      const receipt = await confirm(
        anvil.walletClient.writeContract(fillRequest(order, usdc, parseUnits('12', 6))),
      )
      const [event] = parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Filled' })
      expect(event?.args.amount).toBe(parseUnits('12', 6))
      expect(await tokenBalance(usdc, order.receiver)).toBe(parseUnits('12', 6))
    })

    it('fills in native currency from msg.value', async () => {
      const order = await newFillOrder({ destinationToken: zeroAddress, minAmountOut: parseEther('0.5') })
      const receipt = await confirm(
        anvil.walletClient.writeContract(fillRequest(order, zeroAddress, parseEther('0.5'))),
      )
      expect(await nativeBalance(order.receiver)).toBe(parseEther('0.5'))
      expect(
        parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Filled' })[0]?.args,
      ).toMatchObject({
        orderKey: keyOf(order),
        token: zeroAddress,
        amount: parseEther('0.5'),
      })
    })

    it('swaps the relayer inventory into the destination token, and Filled reports what the receiver got', async () => {
      const expected = await quote(parseUnits('250', 6), [usdt, usdc])
      const order = await newFillOrder({ minAmountOut: (expected * 99n) / 100n })
      const heldBefore = [await tokenBalance(usdc, payRouter), await tokenBalance(usdt, payRouter)]
      const receipt = await confirm(
        anvil.walletClient.writeContract(fillRequest(order, usdt, parseUnits('250', 6), [usdt, usdc])),
      )
      const [event] = parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Filled' })
      expect(event?.args).toEqual({
        orderKey: keyOf(order),
        intentId: order.intentId,
        receiver: order.receiver,
        token: usdc,
        amount: expected,
        sourceChainId: foreignChainId,
        relayer,
      })
      expect(await tokenBalance(usdc, order.receiver)).toBe(event?.args.amount)
      // The swap passes through PayRouter and leaves nothing there (escrows held for others stay as they were).
      expect([await tokenBalance(usdc, payRouter), await tokenBalance(usdt, payRouter)]).toEqual(heldBefore)

      const expectedNative = await quote(parseUnits('300', 6), [usdc, weth])
      const nativeOrder = await newFillOrder({ destinationToken: zeroAddress, minAmountOut: expectedNative })
      const nativeReceipt = await confirm(
        anvil.walletClient.writeContract(fillRequest(nativeOrder, usdc, parseUnits('300', 6), [usdc, weth])),
      )
      const [nativeEvent] = parseEventLogs({
        abi: payRouterAbi,
        logs: nativeReceipt.logs,
        eventName: 'Filled',
      })
      expect(nativeEvent?.args).toMatchObject({ token: zeroAddress, amount: expectedNative })
      expect(await nativeBalance(nativeOrder.receiver)).toBe(nativeEvent?.args.amount)
      expect(await tokenBalance(weth, nativeOrder.receiver)).toBe(0n)
    })

    it('reverts a fill below the order minimum, so the order stays fillable', async () => {
      const order = await newFillOrder({ minAmountOut: parseUnits('10.01', 6) })
      await expect(
        anvil.publicClient.simulateContract(fillRequest(order, usdc, parseUnits('10', 6))),
      ).rejects.toThrow('PayRouter: slippage')
      const expected = await quote(parseUnits('10', 6), [usdt, usdc])
      const swapOrder = await newFillOrder({ minAmountOut: expected + 1n })
      await expect(
        anvil.publicClient.simulateContract(fillRequest(swapOrder, usdt, parseUnits('10', 6), [usdt, usdc])),
      ).rejects.toThrow('UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT')
      expect(await isFilled(keyOf(order))).toBe(false)
      expect(await isFilled(keyOf(swapOrder))).toBe(false)
      await confirm(anvil.walletClient.writeContract(fillRequest(order, usdc, parseUnits('10.01', 6))))
      expect(await isFilled(keyOf(order))).toBe(true)
    })

    it('pays only in the destination token, with a value that matches', async () => {
      const order = await newFillOrder({ minAmountOut: parseUnits('1', 6) })
      const simulate = (tokenIn: Address, swapPath: Address[] = [], value?: bigint) =>
        anvil.publicClient.simulateContract({
          ...fillRequest(order, tokenIn, parseUnits('2', 6), swapPath),
          ...(value === undefined ? {} : { value }),
        })
      await expect(simulate(usdt)).rejects.toThrow('PayRouter: bad path')
      await expect(simulate(zeroAddress)).rejects.toThrow('PayRouter: bad path')
      await expect(simulate(usdt, [usdt, usdc, weth])).rejects.toThrow('PayRouter: bad path')
      await expect(simulate(usdc, [usdc, usdt])).rejects.toThrow('PayRouter: bad path')
      await expect(simulate(weth, [usdt, usdc])).rejects.toThrow('PayRouter: bad path')
      await expect(simulate(usdc, [], 1n)).rejects.toThrow('PayRouter: bad value')
      await expect(simulate(usdt, [usdt, usdc], 1n)).rejects.toThrow('PayRouter: bad value')
      const nativeOrder = await newFillOrder({ destinationToken: zeroAddress, minAmountOut: 1n })
      await expect(
        anvil.publicClient.simulateContract({ ...fillRequest(nativeOrder, zeroAddress, 2n), value: 1n }),
      ).rejects.toThrow('PayRouter: bad value')
      await expect(
        anvil.publicClient.simulateContract(
          fillRequest({ ...order, receiver: zeroAddress }, usdc, parseUnits('2', 6)),
        ),
      ).rejects.toThrow('PayRouter: zero receiver')
      await expect(anvil.publicClient.simulateContract(fillRequest(order, usdc, 0n))).rejects.toThrow(
        'PayRouter: zero amount',
      )
      expect(await isFilled(keyOf(order))).toBe(false)
    })

    it('refuses an order meant for another chain', async () => {
      const order = await newFillOrder({ destinationChainId: otherChainId })
      await expect(
        anvil.publicClient.simulateContract(fillRequest(order, usdc, parseUnits('40', 6))),
      ).rejects.toThrow('PayRouter: wrong chain')
    })

    it('fills in the block of the fill deadline and refuses the order one second later', async () => {
      const fillDeadline = (await latestTimestamp()) + 120n
      const atDeadline = await newFillOrder({ fillDeadline })
      const late = await newFillOrder({ fillDeadline })

      await nextBlockAt(fillDeadline)
      const receipt = await confirm(
        anvil.walletClient.writeContract(fillRequest(atDeadline, usdc, parseUnits('40', 6))),
      )
      expect(await blockTimestamp(receipt)).toBe(fillDeadline)
      expect(await tokenBalance(usdc, atDeadline.receiver)).toBe(parseUnits('40', 6))
      expect(await isFilled(keyOf(atDeadline))).toBe(true)
      // In that second the other order could still be filled too...
      await expect(
        anvil.publicClient.simulateContract(fillRequest(late, usdc, parseUnits('40', 6))),
      ).resolves.toBeDefined()

      // ...but not one second later, directly or through a swap, and nothing is paid.
      await mineAt(fillDeadline + 1n)
      await expect(
        anvil.publicClient.simulateContract(fillRequest(late, usdc, parseUnits('40', 6))),
      ).rejects.toThrow('PayRouter: fill deadline passed')
      await expect(
        anvil.publicClient.simulateContract(fillRequest(late, usdt, parseUnits('45', 6), [usdt, usdc])),
      ).rejects.toThrow('PayRouter: fill deadline passed')
      const relayerBefore = await tokenBalance(usdc, relayer)
      const lateReceipt = await anvil.publicClient.waitForTransactionReceipt({
        hash: await anvil.walletClient.writeContract(fillRequest(late, usdc, parseUnits('40', 6))),
      })
      expect(lateReceipt.status).toBe('reverted')
      expect(await tokenBalance(usdc, late.receiver)).toBe(0n)
      expect(await tokenBalance(usdc, relayer)).toBe(relayerBefore)
      expect(await isFilled(keyOf(late))).toBe(false)
    })

    it('keys fills by the whole order: a copied intent id with another payer, source chain, receiver or amount is another order', async () => {
      const original = await newFillOrder()
      const copies: [field: string, order: Order][] = [
        ['payer', { ...original, payer: newAddress() }],
        ['sourceChainId', { ...original, sourceChainId: 10n }],
        ['receiver', { ...original, receiver: newAddress() }],
        ['escrowAmount', { ...original, escrowAmount: original.escrowAmount + 1n }],
        ['minAmountOut', { ...original, minAmountOut: original.minAmountOut - 1n }],
        ['fillDeadline', { ...original, fillDeadline: original.fillDeadline - 1n }],
      ]
      const keys = [original, ...copies.map(([, order]) => order)].map(keyOf)
      expect(new Set(keys).size).toBe(keys.length)

      await confirm(anvil.walletClient.writeContract(fillRequest(original, usdc, parseUnits('40', 6))))
      expect(await isFilled(keyOf(original))).toBe(true)
      await expect(
        anvil.publicClient.simulateContract(fillRequest(original, usdc, parseUnits('40', 6))),
      ).rejects.toThrow('PayRouter: already filled')
      for (const [field, copy] of copies) {
        expect(await isFilled(keyOf(copy)), field).toBe(false)
      }

      // Filling the payer copy (the other deposit) pays again and marks only that copy filled.
      const [, payerCopy] = copies[0] ?? []
      if (!payerCopy) throw new Error('no copy')
      const receipt = await confirm(
        anvil.walletClient.writeContract(fillRequest(payerCopy, usdc, parseUnits('40', 6))),
      )
      expect(
        parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Filled' })[0]?.args,
      ).toMatchObject({
        orderKey: keyOf(payerCopy),
        intentId: original.intentId,
      })
      expect(await tokenBalance(usdc, original.receiver)).toBe(parseUnits('80', 6))
      for (const [field, copy] of copies.slice(1)) {
        expect(await isFilled(keyOf(copy)), field).toBe(false)
      }
    })

    it('rejects an order encoded with dirty high bits (the ABI decoder reverts) rather than reading it under another key', async () => {
      const order = await newFillOrder()
      const clean = encodeFunctionData({
        abi: payRouterAbi,
        functionName: 'fill',
        args: [order, usdc, parseUnits('40', 6), []],
      })
      const call = (data: Hex) =>
        anvil.publicClient.call({ account: relayer, to: payRouter, data, gas: swapGasLimit }).then(
          () => 'ok',
          (error: Error) => error.message,
        )
      expect(await call(clean)).toBe('ok')
      // Calldata: selector, then the order's ten words. Dirty the top byte of payer (word 2),
      // receiver (word 5), destinationToken (word 7) and fillDeadline (word 9, a uint64).
      for (const word of [2, 5, 7, 9]) {
        const offset = 2 + 8 + word * 64
        const dirty = `${clean.slice(0, offset)}ff${clean.slice(offset + 2)}` as Hex
        expect(await call(dirty), `word ${word}`).toMatch(/reverted for an unknown reason/)
      }
      expect(await isFilled(keyOf(order))).toBe(false)
    })
  })

  describe('across two chains', () => {
    /** A second anvil as the destination chain (8453), with its own PayRouter and USDC. */
    let destination: TestAnvil
    let destinationPayRouter: Address
    let destinationUsdc: Address

    beforeAll(async () => {
      destination = await startTestAnvil({ chainId: Number(otherChainId) })
      expect(destination.accounts[9]).toBe(relayer)
      const wallet = destination.walletClient
      const destinationWeth = await deploy(
        wallet.deployContract({ abi: weth9Abi, bytecode: weth9Bytecode }),
        destination,
      )
      const factory = await deploy(
        wallet.deployContract({
          abi: uniswapV2FactoryAbi,
          bytecode: uniswapV2FactoryBytecode,
          args: [deployer],
        }),
        destination,
      )
      const destinationRouter = await deploy(
        wallet.deployContract({
          abi: uniswapV2Router02Abi,
          bytecode: uniswapV2Router02Bytecode,
          args: [factory, destinationWeth],
        }),
        destination,
      )
      destinationPayRouter = await deploy(
        wallet.deployContract({
          abi: payRouterAbi,
          bytecode: payRouterBytecode,
          args: [destinationRouter, destinationWeth, relayer],
        }),
        destination,
      )
      destinationUsdc = await deploy(
        wallet.deployContract({
          abi: testTokenAbi,
          bytecode: testTokenBytecode,
          args: ['USD Coin', 'USDC', 6],
        }),
        destination,
      )
      await confirm(
        wallet.writeContract({
          address: destinationUsdc,
          abi: testTokenAbi,
          functionName: 'mint',
          args: [relayer, parseUnits('1000', 6)],
        }),
        destination,
      )
      await approve(destinationUsdc, relayer, destinationPayRouter, destination)
    })

    afterAll(async () => {
      await destination?.stop()
    })

    const fillOnDestination = (order: Order, amountIn: bigint) => ({
      account: relayer,
      address: destinationPayRouter,
      abi: payRouterAbi,
      functionName: 'fill' as const,
      args: [order, destinationUsdc, amountIn, []] as const,
      gas: swapGasLimit,
    })

    it('fills on the destination the order deposited on the source; the relayer settles it and the payer can never also refund', async () => {
      const receiver = newAddress()
      const fillDeadline = (await latestTimestamp()) + 600n
      const { order, orderKey } = await deposit({
        tokenIn: usdt,
        amountIn: parseUnits('30', 6),
        destinationChainId: otherChainId,
        destinationToken: destinationUsdc,
        minAmountOut: parseUnits('29.5', 6),
        receiver,
        fillDeadline,
      })
      // Each side only does its own half.
      await expect(
        anvil.publicClient.simulateContract(fillRequest(order, usdc, parseUnits('30', 6))),
      ).rejects.toThrow('PayRouter: wrong chain')
      for (const functionName of ['settle', 'refund'] as const) {
        await expect(
          destination.publicClient.simulateContract({
            account: relayer,
            address: destinationPayRouter,
            abi: payRouterAbi,
            functionName,
            args: [order],
          }),
        ).rejects.toThrow('PayRouter: wrong chain')
      }

      // The relayer fills from the order in Deposited; the destination derives the same key.
      const receipt = await confirm(
        destination.walletClient.writeContract(fillOnDestination(order, parseUnits('29.5', 6))),
        destination,
      )
      const [filled] = parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Filled' })
      expect(filled?.args).toEqual({
        orderKey,
        intentId: order.intentId,
        receiver,
        token: destinationUsdc,
        amount: parseUnits('29.5', 6),
        sourceChainId: thisChainId,
        relayer,
      })
      expect(await tokenBalance(destinationUsdc, receiver, destination)).toBe(filled?.args.amount)
      expect(await isFilled(orderKey, destination, destinationPayRouter)).toBe(true)
      await expect(
        destination.publicClient.simulateContract(fillOnDestination(order, parseUnits('29.5', 6))),
      ).rejects.toThrow('PayRouter: already filled')

      // Back on the source: no refund until the settlement window after the deadline has passed...
      await mineAt(fillDeadline + settlementWindow - 1n)
      await expect(anvil.publicClient.simulateContract(refundRequest(order, payer))).rejects.toThrow(
        'PayRouter: settlement window open',
      )
      // ...so the relayer settles, here in its last second, and is paid the escrow.
      const relayerBefore = await tokenBalance(usdt, relayer)
      await nextBlockAt(fillDeadline + settlementWindow)
      await confirm(anvil.walletClient.writeContract(settleRequest(order)))
      expect((await tokenBalance(usdt, relayer)) - relayerBefore).toBe(parseUnits('30', 6))
      expect(await depositState(orderKey)).toBe(stateSettled)

      await mineAt(fillDeadline + settlementWindow + 1n)
      const payerBefore = await tokenBalance(usdt, payer)
      await expect(anvil.publicClient.simulateContract(refundRequest(order, payer))).rejects.toThrow(
        'PayRouter: not open',
      )
      expect(await tokenBalance(usdt, payer)).toBe(payerBefore)
    })

    it('refunds on the source an order nobody filled, which the destination no longer fills past its deadline', async () => {
      const fillDeadline = (await latestTimestamp()) + 600n
      const { order, orderKey } = await deposit({
        tokenIn: usdc,
        amountIn: parseUnits('12', 6),
        destinationChainId: otherChainId,
        destinationToken: destinationUsdc,
        receiver: newAddress(),
        fillDeadline,
      })
      await mineAt(fillDeadline + 1n, destination)
      await expect(
        destination.publicClient.simulateContract(fillOnDestination(order, parseUnits('12', 6))),
      ).rejects.toThrow('PayRouter: fill deadline passed')

      const payerBefore = await tokenBalance(usdc, payer)
      await nextBlockAt(fillDeadline + settlementWindow + 1n)
      await confirm(anvil.walletClient.writeContract(refundRequest(order)))
      expect((await tokenBalance(usdc, payer)) - payerBefore).toBe(parseUnits('12', 6))
      expect(await depositState(orderKey)).toBe(stateRefunded)
      await expect(anvil.publicClient.simulateContract(settleRequest(order))).rejects.toThrow(
        'PayRouter: not open',
      )
      expect(await tokenBalance(destinationUsdc, order.receiver, destination)).toBe(0n)
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
      const receiver = newAddress()
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

    it('blocks a token that re-enters fill for the same order, which is then filled once', async () => {
      const order = await newFillOrder({ destinationToken: reentrantToken, minAmountOut: parseUnits('5', 6) })
      const fillData = encodeFunctionData({
        abi: payRouterAbi,
        functionName: 'fill',
        args: [order, reentrantToken, parseUnits('5', 6), []],
      })
      const attacksBefore = await arm(reentrantToken, reentrantTokenAbi, fillData)
      await confirm(anvil.walletClient.sendTransaction({ account: relayer, to: payRouter, data: fillData }))
      expect(await readAttack(reentrantToken, reentrantTokenAbi)).toEqual({
        count: attacksBefore + 1n,
        succeeded: false,
        error: 'ReentrancyGuardReentrantCall',
      })
      expect(await tokenBalance(reentrantToken, order.receiver)).toBe(parseUnits('5', 6))
      expect(await isFilled(keyOf(order))).toBe(true)
    })

    it('blocks a token that re-enters settle while the escrow is released, which is then settled once', async () => {
      const fillDeadline = (await latestTimestamp()) + 60n
      const { order, orderKey } = await deposit({
        tokenIn: reentrantToken,
        amountIn: parseUnits('20', 6),
        fillDeadline,
      })
      const settleData = encodeFunctionData({ abi: payRouterAbi, functionName: 'settle', args: [order] })
      const attacksBefore = await arm(reentrantToken, reentrantTokenAbi, settleData)
      const before = await tokenBalance(reentrantToken, relayer)
      await confirm(anvil.walletClient.sendTransaction({ account: relayer, to: payRouter, data: settleData }))
      expect(await readAttack(reentrantToken, reentrantTokenAbi)).toEqual({
        count: attacksBefore + 1n,
        succeeded: false,
        error: 'ReentrancyGuardReentrantCall',
      })
      expect((await tokenBalance(reentrantToken, relayer)) - before).toBe(parseUnits('20', 6))
      expect(await depositState(orderKey)).toBe(stateSettled)
    })

    it('blocks a token that re-enters refund while its escrow is paid back', async () => {
      const fillDeadline = (await latestTimestamp()) + 60n
      const { order, orderKey } = await deposit({
        tokenIn: reentrantToken,
        amountIn: parseUnits('20', 6),
        fillDeadline,
      })
      await mineAt(fillDeadline + settlementWindow + 1n)
      const refundData = encodeFunctionData({ abi: payRouterAbi, functionName: 'refund', args: [order] })
      const attacksBefore = await arm(reentrantToken, reentrantTokenAbi, refundData)
      const before = await tokenBalance(reentrantToken, payer)
      const escrowBefore = await tokenBalance(reentrantToken, payRouter)
      await confirm(
        anvil.walletClient.sendTransaction({ account: stranger, to: payRouter, data: refundData }),
      )
      expect(await readAttack(reentrantToken, reentrantTokenAbi)).toEqual({
        count: attacksBefore + 1n,
        succeeded: false,
        error: 'ReentrancyGuardReentrantCall',
      })
      expect((await tokenBalance(reentrantToken, payer)) - before).toBe(parseUnits('20', 6))
      expect(escrowBefore - (await tokenBalance(reentrantToken, payRouter))).toBe(parseUnits('20', 6))
      expect(await depositState(orderKey)).toBe(stateRefunded)
    })

    it('blocks a payer contract that re-enters refund when its native refund arrives', async () => {
      const attacker = await deploy(
        anvil.walletClient.deployContract({ abi: reentrantReceiverAbi, bytecode: reentrantReceiverBytecode }),
      )
      const fillDeadline = (await latestTimestamp()) + 60n
      const { order, orderKey } = readDeposited(
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
                  newIntentId(),
                  zeroAddress,
                  parseEther('1'),
                  [],
                  0n,
                  otherChainId,
                  usdc,
                  1n,
                  newAddress(),
                  fillDeadline,
                ],
              }),
            ],
            value: parseEther('1'),
          }),
        ),
      )
      expect(order).toMatchObject({
        payer: attacker,
        escrowToken: zeroAddress,
        escrowAmount: parseEther('1'),
      })
      expect(await depositState(orderKey)).toBe(stateOpen)
      await mineAt(fillDeadline + settlementWindow + 1n)
      const refundData = encodeFunctionData({ abi: payRouterAbi, functionName: 'refund', args: [order] })
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
      expect(await depositState(orderKey)).toBe(stateRefunded)
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
