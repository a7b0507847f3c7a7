import { randomBytes } from 'node:crypto'
import {
  type Address,
  bytesToHex,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  keccak256,
  parseEventLogs,
  parseSignature,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fiatTokenAbi, fiatTokenBytecode } from '../generated/fiat-token.ts'
import { payRouterAbi, payRouterBytecode } from '../generated/pay-router.ts'
import { testTokenAbi, testTokenBytecode } from '../generated/test-token.ts'
import { signAuthorization, signPermit, usdcDomain } from './fiat-token-signatures.ts'
import { startTestAnvil } from './start-test-anvil.ts'

// PayRouter's signature entries: permitAndCall (EIP-2612 instead of an approval, around pay,
// swapAndPay or deposit) and payWithAuthorization (EIP-3009 receiveWithAuthorization).

const mnemonic = 'test test test test test test test test test test test junk'
const payer = mnemonicToAccount(mnemonic, { addressIndex: 5 })
const relayer = mnemonicToAccount(mnemonic, { addressIndex: 6 }).address

let anvil: Awaited<ReturnType<typeof startTestAnvil>>
let usdc: Address
let plainToken: Address
let payRouter: Address

async function deploy(hash: Promise<Hex>): Promise<Address> {
  const { contractAddress } = await anvil.publicClient.waitForTransactionReceipt({ hash: await hash })
  if (!contractAddress) throw new Error('no contract deployed')
  return getAddress(contractAddress)
}

beforeAll(async () => {
  anvil = await startTestAnvil()
  usdc = await deploy(
    anvil.walletClient.deployContract({
      abi: fiatTokenAbi,
      bytecode: fiatTokenBytecode,
      args: ['USD Coin', 'USDC', 6, '2'],
    }),
  )
  plainToken = await deploy(
    anvil.walletClient.deployContract({
      abi: testTokenAbi,
      bytecode: testTokenBytecode,
      args: ['Tether USD', 'USDT', 6],
    }),
  )
  // pay and the signature entries never touch the Uniswap router or the wrapped native token.
  payRouter = await deploy(
    anvil.walletClient.deployContract({
      abi: payRouterAbi,
      bytecode: payRouterBytecode,
      args: [anvil.deployer, anvil.deployer, relayer],
    }),
  )
  for (const token of [usdc, plainToken]) {
    await anvil.publicClient.waitForTransactionReceipt({
      hash: await anvil.walletClient.writeContract({
        address: token,
        abi: testTokenAbi,
        functionName: 'mint',
        args: [payer.address, 1_000_000_000n],
      }),
    })
  }
})

afterAll(async () => {
  await anvil?.stop()
})

const freshReceiver = (): Address => getAddress(bytesToHex(randomBytes(20)))
const intentId = (): Hex => bytesToHex(randomBytes(32))
const now = async () => (await anvil.publicClient.getBlock()).timestamp
const balanceOf = (token: Address, owner: Address) =>
  anvil.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
const allowanceOf = (token: Address, owner: Address) =>
  anvil.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, payRouter],
  })

/** The payer's signed permit of `value` for PayRouter, as permitAndCall's first six arguments. */
async function permitFor(value: bigint, deadlineIn = 3600n) {
  const deadline = (await now()) + deadlineIn
  const nonce = await anvil.publicClient.readContract({
    address: usdc,
    abi: fiatTokenAbi,
    functionName: 'nonces',
    args: [payer.address],
  })
  const signature = parseSignature(
    await signPermit(payer, usdcDomain(usdc, 31337), { spender: payRouter, value, nonce, deadline }),
  )
  return [usdc, value, deadline, Number(signature.v), signature.r, signature.s] as const
}

function payCall(id: Hex, token: Address, amount: bigint, receiver: Address): Hex {
  return encodeFunctionData({ abi: payRouterAbi, functionName: 'pay', args: [id, token, amount, receiver] })
}

async function sendAsPayer(functionName: 'permitAndCall' | 'payWithAuthorization', args: readonly unknown[]) {
  const hash = await anvil.walletClient.writeContract({
    address: payRouter,
    abi: payRouterAbi,
    functionName,
    args,
    account: payer.address,
  } as Parameters<typeof anvil.walletClient.writeContract>[0])
  return anvil.publicClient.waitForTransactionReceipt({ hash })
}

function simulateAs(account: Address, functionName: string, args: readonly unknown[]) {
  return anvil.publicClient.simulateContract({
    address: payRouter,
    abi: payRouterAbi,
    functionName,
    args,
    account,
  } as Parameters<typeof anvil.publicClient.simulateContract>[0])
}

describe('PayRouter.permitAndCall', () => {
  it('pays with a permit and no approval transaction: Paid names the payer, the receiver gets the amount', async () => {
    expect(await allowanceOf(usdc, payer.address)).toBe(0n)
    const receiver = freshReceiver()
    const id = intentId()
    const receipt = await sendAsPayer('permitAndCall', [
      ...(await permitFor(2_500_000n)),
      payCall(id, usdc, 2_500_000n, receiver),
    ])
    expect(receipt.status).toBe('success')
    expect(await balanceOf(usdc, receiver)).toBe(2_500_000n)
    expect(await allowanceOf(usdc, payer.address)).toBe(0n)
    const [paid] = parseEventLogs({ abi: payRouterAbi, eventName: 'Paid', logs: receipt.logs })
    expect(paid?.args).toEqual({
      intentId: id,
      payer: payer.address,
      receiver,
      token: usdc,
      amount: 2_500_000n,
    })
  })

  it('tolerates a permit someone submitted first (front-running): the allowance it set is used', async () => {
    const permit = await permitFor(1_000_000n)
    const [, value, deadline, v, r, s] = permit
    // A stranger copies the signature from the mempool and submits it to the token directly.
    await anvil.publicClient.waitForTransactionReceipt({
      hash: await anvil.walletClient.writeContract({
        address: usdc,
        abi: fiatTokenAbi,
        functionName: 'permit',
        args: [payer.address, payRouter, value, deadline, v, r, s],
        account: anvil.other,
      }),
    })
    const receiver = freshReceiver()
    const receipt = await sendAsPayer('permitAndCall', [
      ...permit,
      payCall(intentId(), usdc, 1_000_000n, receiver),
    ])
    expect(receipt.status).toBe('success')
    expect(await balanceOf(usdc, receiver)).toBe(1_000_000n)
  })

  it('refuses a failed permit without allowance, an expired permit, and a token without permit', async () => {
    const receiver = freshReceiver()
    const [token, value, deadline, v, r, s] = await permitFor(1_000n)
    // Signed for 1,000 but asked for 2,000: the permit fails and no allowance covers it.
    await expect(
      simulateAs(payer.address, 'permitAndCall', [
        token,
        2_000n,
        deadline,
        v,
        r,
        s,
        payCall(intentId(), usdc, 2_000n, receiver),
      ]),
    ).rejects.toThrow(/PayRouter: permit failed/)
    const expired = await permitFor(1_000n, 0n)
    await anvil.testClient.mine({ blocks: 1, interval: 2 })
    await expect(
      simulateAs(payer.address, 'permitAndCall', [...expired, payCall(intentId(), usdc, 1_000n, receiver)]),
    ).rejects.toThrow(/PayRouter: permit failed/)
    await expect(
      simulateAs(payer.address, 'permitAndCall', [
        plainToken,
        value,
        deadline,
        v,
        r,
        s,
        payCall(intentId(), plainToken, 1_000n, receiver),
      ]),
    ).rejects.toThrow(/PayRouter: permit failed/)
    expect(await balanceOf(usdc, receiver)).toBe(0n)
  })

  it('another account cannot use the payer’s permit: the permit names the payer, the pull is the caller’s', async () => {
    const permit = await permitFor(1_000n)
    await expect(
      simulateAs(anvil.other, 'permitAndCall', [...permit, payCall(intentId(), usdc, 1_000n, anvil.other)]),
    ).rejects.toThrow(/PayRouter: permit failed/)
  })

  it('runs only pay, swapAndPay or deposit: any other call is refused', async () => {
    const permit = await permitFor(1_000n)
    const order = {
      intentId: intentId(),
      sourceChainId: 31337n,
      payer: payer.address,
      escrowToken: usdc,
      escrowAmount: 1n,
      receiver: payer.address,
      destinationChainId: 8453n,
      destinationToken: usdc,
      minAmountOut: 1n,
      fillDeadline: 0n,
    }
    const refund = encodeFunctionData({ abi: payRouterAbi, functionName: 'refund', args: [order] })
    const nested = encodeFunctionData({
      abi: payRouterAbi,
      functionName: 'permitAndCall',
      args: [...permit, payCall(intentId(), usdc, 1_000n, freshReceiver())],
    })
    for (const data of [refund, nested, '0x' as Hex]) {
      await expect(simulateAs(payer.address, 'permitAndCall', [...permit, data])).rejects.toThrow(
        /PayRouter: bad call/,
      )
    }
  })
})

describe('PayRouter.payWithAuthorization', () => {
  /** The payer's ReceiveWithAuthorization for PayRouter, bound to (intent, receiver) by its nonce. */
  async function authorize(id: Hex, receiver: Address, value: bigint, validBefore?: bigint) {
    const authorization = {
      to: payRouter,
      value,
      validAfter: 0n,
      validBefore: validBefore ?? (await now()) + 3600n,
      nonce: keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'address' }], [id, receiver])),
    }
    const signature = parseSignature(
      await signAuthorization(payer, usdcDomain(usdc, 31337), 'ReceiveWithAuthorization', authorization),
    )
    return (otherReceiver: Address = receiver) =>
      [
        id,
        usdc,
        value,
        otherReceiver,
        payer.address,
        authorization.validAfter,
        authorization.validBefore,
        Number(signature.v),
        signature.r,
        signature.s,
      ] as const
  }

  it('anyone submits the payer’s authorization; the receiver is paid and Paid names the payer', async () => {
    const id = intentId()
    const receiver = freshReceiver()
    expect(
      await anvil.publicClient.readContract({
        address: payRouter,
        abi: payRouterAbi,
        functionName: 'authorizationNonce',
        args: [id, receiver],
      }),
    ).toBe(keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'address' }], [id, receiver])))
    const args = (await authorize(id, receiver, 700_000n))()
    const hash = await anvil.walletClient.writeContract({
      address: payRouter,
      abi: payRouterAbi,
      functionName: 'payWithAuthorization',
      args,
      account: anvil.other,
    })
    const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(await balanceOf(usdc, receiver)).toBe(700_000n)
    const [paid] = parseEventLogs({ abi: payRouterAbi, eventName: 'Paid', logs: receipt.logs })
    expect(paid?.args).toEqual({
      intentId: id,
      payer: payer.address,
      receiver,
      token: usdc,
      amount: 700_000n,
    })
    // Replayed: the token refuses the used nonce.
    await expect(simulateAs(anvil.other, 'payWithAuthorization', args)).rejects.toThrow(
      /FiatTokenV2: authorization is used or canceled/,
    )
  })

  it('a copied authorization cannot pay another receiver or intent, nor after validBefore', async () => {
    const id = intentId()
    const receiver = freshReceiver()
    const build = await authorize(id, receiver, 1_000n)
    await expect(simulateAs(anvil.other, 'payWithAuthorization', build(anvil.other))).rejects.toThrow(
      /FiatTokenV2: invalid signature/,
    )
    const otherIntent = [intentId(), ...build().slice(1)]
    await expect(simulateAs(anvil.other, 'payWithAuthorization', otherIntent)).rejects.toThrow(
      /FiatTokenV2: invalid signature/,
    )
    const late = await authorize(intentId(), receiver, 1_000n, (await now()) - 1n)
    await expect(simulateAs(anvil.other, 'payWithAuthorization', late())).rejects.toThrow(
      /FiatTokenV2: authorization is expired/,
    )
    expect(await balanceOf(usdc, receiver)).toBe(0n)
  })
})
