// Over 300 lines on purpose: every case shares one pair of anvils and one deployment (tokens, Uniswap,
// PayRouter, the factory on two chains); split, each file would start and deploy them again.
import { randomBytes } from 'node:crypto'
import {
  type Address,
  bytesToHex,
  concatHex,
  getAddress,
  type Hash,
  type Hex,
  parseEther,
  parseEventLogs,
  parseUnits,
  type TransactionReceipt,
  zeroAddress,
  zeroHash,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { depositFactoryAbi } from '../generated/deposit-factory.ts'
import { depositForwarderAbi } from '../generated/deposit-forwarder.ts'
import { payRouterAbi, payRouterBytecode } from '../generated/pay-router.ts'
import { testTokenAbi, testTokenBytecode } from '../generated/test-token.ts'
import { uniswapV2FactoryAbi, uniswapV2FactoryBytecode } from '../generated/uniswap-v2-factory.ts'
import { uniswapV2Router02Abi, uniswapV2Router02Bytecode } from '../generated/uniswap-v2-router02.ts'
import { weth9Abi, weth9Bytecode } from '../generated/weth9.ts'
import {
  type DepositTerms,
  deterministicDeployerAddress,
  getDepositAddress,
  getDepositFactoryAddress,
  getDepositFactoryInitCode,
} from '../src/deposit-address.ts'
import { startTestAnvil } from './start-test-anvil.ts'

type TestAnvil = Awaited<ReturnType<typeof startTestAnvil>>

let anvil: TestAnvil
let otherChain: TestAnvil
let deployer: Address
let operator: Address
let payer: Address
let stranger: Address
let usdc: Address
let payRouter: Address
let factory: Address

const otherChainId = 43114
const hour = 3600n

async function confirm(hash: Promise<Hash>, chain: TestAnvil = anvil): Promise<TransactionReceipt> {
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash: await hash })
  if (receipt.status !== 'success') throw new Error(`transaction ${receipt.transactionHash} reverted`)
  return receipt
}

async function deploy(hash: Promise<Hash>): Promise<Address> {
  const { contractAddress } = await confirm(hash)
  if (!contractAddress) throw new Error('no contract deployed')
  return getAddress(contractAddress)
}

/** Deploys the factory through the deterministic deployer, as the devnet does. */
async function deployFactory(chain: TestAnvil): Promise<Address> {
  await confirm(
    chain.walletClient.sendTransaction({
      to: deterministicDeployerAddress,
      data: concatHex([zeroHash, getDepositFactoryInitCode(operator)]),
    }),
    chain,
  )
  return getDepositFactoryAddress(operator)
}

/** The names of an ABI's functions that can change state, sorted. */
function listWritableFunctions(
  abi: readonly { type: string; name?: string; stateMutability?: string }[],
): string[] {
  return abi
    .filter(
      (item) =>
        item.type === 'function' && item.stateMutability !== 'view' && item.stateMutability !== 'pure',
    )
    .map((item) => item.name ?? '')
    .sort()
}

const newAddress = (): Address => getAddress(bytesToHex(randomBytes(20)))
const newId = (): Hex => bytesToHex(randomBytes(32))

async function now(): Promise<bigint> {
  return (await anvil.publicClient.getBlock()).timestamp
}

async function termsFor(overrides: Partial<DepositTerms> = {}): Promise<DepositTerms> {
  return {
    depositId: newId(),
    payRouter,
    receiver: newAddress(),
    destinationChainId: 31337n,
    destinationToken: usdc,
    refundAddress: newAddress(),
    expiresAt: (await now()) + hour,
    ...overrides,
  }
}

const usdcBalance = (owner: Address) =>
  anvil.publicClient.readContract({
    address: usdc,
    abi: testTokenAbi,
    functionName: 'balanceOf',
    args: [owner],
  })

async function sendUsdc(to: Address, amount: bigint, from: Address = payer): Promise<void> {
  await confirm(
    anvil.walletClient.writeContract({
      account: from,
      address: usdc,
      abi: testTokenAbi,
      functionName: 'transfer',
      args: [to, amount],
    }),
  )
}

const route = (overrides: Partial<{ path: Address[]; minAmountOut: bigint; deadline: bigint }> = {}) => ({
  intentId: newId(),
  path: overrides.path ?? [],
  minAmountOut: overrides.minAmountOut ?? 0n,
  minEscrowAmount: 0n,
  deadline: overrides.deadline ?? 0n,
})

/** Whether a call by `account` reverts (simulated; nothing is sent). */
async function reverts(
  request: Parameters<TestAnvil['publicClient']['simulateContract']>[0],
): Promise<boolean> {
  try {
    await anvil.publicClient.simulateContract(request)
    return false
  } catch {
    return true
  }
}

beforeAll(async () => {
  ;[anvil, otherChain] = await Promise.all([startTestAnvil(), startTestAnvil({ chainId: otherChainId })])
  const accounts = anvil.accounts
  deployer = anvil.deployer
  operator = accounts[7] as Address
  payer = accounts[1] as Address
  stranger = accounts[2] as Address
  usdc = await deploy(
    anvil.walletClient.deployContract({
      abi: testTokenAbi,
      bytecode: testTokenBytecode,
      args: ['USD Coin', 'USDC', 6],
    }),
  )
  const weth = await deploy(anvil.walletClient.deployContract({ abi: weth9Abi, bytecode: weth9Bytecode }))
  const uniswap = await deploy(
    anvil.walletClient.deployContract({
      abi: uniswapV2FactoryAbi,
      bytecode: uniswapV2FactoryBytecode,
      args: [deployer],
    }),
  )
  const router = await deploy(
    anvil.walletClient.deployContract({
      abi: uniswapV2Router02Abi,
      bytecode: uniswapV2Router02Bytecode,
      args: [uniswap, weth],
    }),
  )
  payRouter = await deploy(
    anvil.walletClient.deployContract({
      abi: payRouterAbi,
      bytecode: payRouterBytecode,
      args: [router, weth, accounts[9] as Address],
    }),
  )
  await confirm(
    anvil.walletClient.writeContract({
      address: usdc,
      abi: testTokenAbi,
      functionName: 'mint',
      args: [payer, parseUnits('1000000', 6)],
    }),
  )
  factory = await deployFactory(anvil)
})

afterAll(async () => {
  await Promise.all([anvil?.stop(), otherChain?.stop()])
})

describe('DepositFactory', () => {
  it('sits at one address on every chain, and gives a deposit one address on each', async () => {
    const otherFactory = await deployFactory(otherChain)
    expect(otherFactory).toBe(factory)
    expect(await anvil.publicClient.getCode({ address: factory })).toBe(
      await otherChain.publicClient.getCode({ address: factory }),
    )
    const terms = await termsFor()
    const predicted = getDepositAddress(operator, terms)
    const onThisChain = await anvil.publicClient.readContract({
      address: factory,
      abi: depositFactoryAbi,
      functionName: 'addressOf',
      args: [terms],
    })
    const onOtherChain = await otherChain.publicClient.readContract({
      address: factory,
      abi: depositFactoryAbi,
      functionName: 'addressOf',
      args: [terms],
    })
    expect(onThisChain).toBe(predicted)
    expect(onOtherChain).toBe(predicted)
  })

  it('gives other terms (receiver, refund address, expiry, token, chain) another address', async () => {
    const terms = await termsFor()
    const address = getDepositAddress(operator, terms)
    for (const change of [
      { receiver: newAddress() },
      { refundAddress: newAddress() },
      { expiresAt: terms.expiresAt + 1n },
      { destinationToken: zeroAddress },
      { destinationChainId: 8453n },
      { depositId: newId() },
    ] satisfies Partial<DepositTerms>[]) {
      expect(getDepositAddress(operator, { ...terms, ...change })).not.toBe(address)
    }
  })
})

describe('DepositForwarder', () => {
  it('forwards a plain ERC-20 transfer to a counterfactual address into the route, deploying it on the way', async () => {
    const terms = await termsFor()
    const address = getDepositAddress(operator, terms)
    const amount = parseUnits('12.5', 6)
    await sendUsdc(address, amount)
    expect(await anvil.publicClient.getCode({ address })).toBeUndefined()

    const forward = route()
    const receipt = await confirm(
      anvil.walletClient.writeContract({
        account: operator,
        address: factory,
        abi: depositFactoryAbi,
        functionName: 'deployAndForward',
        args: [terms, usdc, amount, forward],
      }),
    )
    expect(await usdcBalance(terms.receiver)).toBe(amount)
    expect(await usdcBalance(address)).toBe(0n)
    const [paid] = parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Paid' })
    expect(paid?.args).toMatchObject({ intentId: forward.intentId, payer: address, receiver: terms.receiver })
  })

  it('forwards native currency sent before deployment', async () => {
    const terms = await termsFor({ destinationToken: zeroAddress })
    const address = getDepositAddress(operator, terms)
    await confirm(anvil.walletClient.sendTransaction({ account: payer, to: address, value: parseEther('2') }))
    await confirm(
      anvil.walletClient.writeContract({
        account: operator,
        address: factory,
        abi: depositFactoryAbi,
        functionName: 'deployAndForward',
        args: [terms, zeroAddress, parseEther('2'), route()],
      }),
    )
    expect(await anvil.publicClient.getBalance({ address: terms.receiver })).toBe(parseEther('2'))
  })

  it('escrows for the relayer with the bound receiver, chain and token when the link is on another chain', async () => {
    const terms = await termsFor({ destinationChainId: 8453n, destinationToken: newAddress() })
    const address = getDepositAddress(operator, terms)
    await sendUsdc(address, 5_000_000n)
    const forward = {
      ...route({ deadline: (await now()) + 600n, minAmountOut: 4_900_000n }),
      minEscrowAmount: 5_000_000n,
    }
    const receipt = await confirm(
      anvil.walletClient.writeContract({
        account: operator,
        address: factory,
        abi: depositFactoryAbi,
        functionName: 'deployAndForward',
        args: [terms, usdc, 5_000_000n, forward],
      }),
    )
    const [deposited] = parseEventLogs({ abi: payRouterAbi, logs: receipt.logs, eventName: 'Deposited' })
    expect(deposited?.args.order).toMatchObject({
      payer: address,
      receiver: terms.receiver,
      destinationChainId: 8453n,
      destinationToken: terms.destinationToken,
      minAmountOut: 4_900_000n,
    })
  })

  it('refunds to the bound refund address: at any time by the operator, after expiry by anyone', async () => {
    const terms = await termsFor()
    const address = getDepositAddress(operator, terms)
    await sendUsdc(address, 3_000_000n)
    await confirm(
      anvil.walletClient.writeContract({
        account: stranger,
        address: factory,
        abi: depositFactoryAbi,
        functionName: 'deploy',
        args: [terms],
      }),
    )
    expect(
      await reverts({
        account: stranger,
        address,
        abi: depositForwarderAbi,
        functionName: 'refund',
        args: [usdc],
      }),
    ).toBe(true)
    await confirm(
      anvil.walletClient.writeContract({
        account: operator,
        address,
        abi: depositForwarderAbi,
        functionName: 'refund',
        args: [usdc],
      }),
    )
    expect(await usdcBalance(terms.refundAddress)).toBe(3_000_000n)

    await sendUsdc(address, 1_000_000n)
    await anvil.testClient.setNextBlockTimestamp({ timestamp: terms.expiresAt })
    await anvil.testClient.mine({ blocks: 1 })
    await confirm(
      anvil.walletClient.writeContract({
        account: stranger,
        address,
        abi: depositForwarderAbi,
        functionName: 'refund',
        args: [usdc],
      }),
    )
    expect(await usdcBalance(terms.refundAddress)).toBe(4_000_000n)
  })

  it('without a refund address, sends a transfer back to its sender only after expiry', async () => {
    const terms = await termsFor({ refundAddress: zeroAddress })
    const address = getDepositAddress(operator, terms)
    await sendUsdc(address, 2_000_000n)
    const refund = {
      account: operator,
      address: factory,
      abi: depositFactoryAbi,
      functionName: 'deployAndRefundToSender',
      args: [terms, usdc, 2_000_000n, payer],
    } as const
    expect(await reverts(refund)).toBe(true)
    await anvil.testClient.setNextBlockTimestamp({ timestamp: terms.expiresAt })
    await anvil.testClient.mine({ blocks: 1 })
    const before = await usdcBalance(payer)
    await confirm(anvil.walletClient.writeContract(refund))
    expect((await usdcBalance(payer)) - before).toBe(2_000_000n)
  })

  it('no call by the operator moves a deposit anywhere but its route or its refund', async () => {
    const terms = await termsFor()
    const address = getDepositAddress(operator, terms)
    await sendUsdc(address, 10_000_000n)
    await confirm(
      anvil.walletClient.writeContract({
        account: operator,
        address: factory,
        abi: depositFactoryAbi,
        functionName: 'deploy',
        args: [terms],
      }),
    )
    const operatorCall = (functionName: string, args: readonly unknown[]) =>
      reverts({ account: operator, address, abi: depositForwarderAbi, functionName, args } as Parameters<
        typeof reverts
      >[0])
    // The contract's whole writable surface: forward, refund, refundToSender (and plain receive).
    expect(listWritableFunctions(depositForwarderAbi)).toEqual(['forward', 'refund', 'refundToSender'])
    const factoryWritable = listWritableFunctions(depositFactoryAbi)
    expect(factoryWritable).toEqual([
      'deploy',
      'deployAndForward',
      'deployAndRefund',
      'deployAndRefundToSender',
    ])

    // A sender refund is not open when the terms name a refund address, whoever the operator names.
    expect(await operatorCall('refundToSender', [usdc, 10_000_000n, operator])).toBe(true)
    // A same-token route takes no swap path (which could end elsewhere).
    expect(await operatorCall('forward', [usdc, 10_000_000n, route({ path: [usdc, newAddress()] })])).toBe(
      true,
    )
    // More than the deposit holds cannot be taken from anyone else's approval.
    expect(await operatorCall('forward', [usdc, 10_000_001n, route()])).toBe(true)
    // Other terms for this address do not exist: deploying another receiver lands elsewhere.
    const stolen = { ...terms, receiver: operator }
    expect(getDepositAddress(operator, stolen)).not.toBe(address)

    // Every forward the operator can make pays the bound receiver; every refund the bound address.
    const receipt = await confirm(
      anvil.walletClient.writeContract({
        account: operator,
        address,
        abi: depositForwarderAbi,
        functionName: 'forward',
        args: [usdc, 4_000_000n, route()],
      }),
    )
    const moved = parseEventLogs({ abi: testTokenAbi, logs: receipt.logs, eventName: 'Transfer' })
    expect(moved.map((log) => log.args.to)).toEqual([terms.receiver])
    await confirm(
      anvil.walletClient.writeContract({
        account: operator,
        address,
        abi: depositForwarderAbi,
        functionName: 'refund',
        args: [usdc],
      }),
    )
    expect(await usdcBalance(terms.refundAddress)).toBe(6_000_000n)
    expect(await usdcBalance(terms.receiver)).toBe(4_000_000n)
    expect(await usdcBalance(operator)).toBe(0n)

    // After expiry nothing forwards any more; a stranger cannot forward at all.
    const later = await termsFor({ expiresAt: (await now()) + 10n })
    const laterAddress = getDepositAddress(operator, later)
    await sendUsdc(laterAddress, 1_000_000n)
    expect(
      await reverts({
        account: stranger,
        address: factory,
        abi: depositFactoryAbi,
        functionName: 'deployAndForward',
        args: [later, usdc, 1_000_000n, route()],
      }),
    ).toBe(true)
    await anvil.testClient.setNextBlockTimestamp({ timestamp: later.expiresAt })
    await anvil.testClient.mine({ blocks: 1 })
    expect(
      await reverts({
        account: operator,
        address: factory,
        abi: depositFactoryAbi,
        functionName: 'deployAndForward',
        args: [later, usdc, 1_000_000n, route()],
      }),
    ).toBe(true)
  })
})
