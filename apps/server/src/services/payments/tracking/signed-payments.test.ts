import { fiatTokenAbi } from '@quicklinks/contracts/generated/fiat-token'
import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import { encodeFunctionData, erc20Abi, type Hex, parseAbi, parseSignature, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { createReceiverLink, usePaymentScene } from '../../../../test/payment-scene.ts'
import {
  buildTestRoute,
  postJson,
  type TestRoute,
  waitForFinalRecord,
} from '../../../../test/payment-test-kit.ts'

// A token payment without a separate approval (docs/decisions/0029): the route's call wrapped in
// PayRouter's permitAndCall behind an EIP-2612 permit, or sent with its approval as one ERC-5792
// batch (an EIP-7702 account executing both). Both are the route's transaction to the matcher;
// the record is verified from the chain like any other.

const scene = usePaymentScene()
const payerIndex = 3
const receiverIndex = 4
const simple7702Abi = parseAbi([
  'struct Call { address target; uint256 value; bytes data; }',
  'function executeBatch(Call[] calls)',
])

async function buildUsdcRoute(amount: bigint): Promise<TestRoute> {
  const link = await createReceiverLink(scene, receiverIndex, 8453, 'USDC')
  return buildTestRoute(scene.testApp.app, {
    fromChain: 8453,
    toChain: 8453,
    fromToken: link.tokenAddress,
    toToken: link.tokenAddress,
    fromAmount: amount.toString(),
    fromAddress: scene.devnet.account(payerIndex).address,
    toAddress: scene.devnet.account(receiverIndex).address,
    linkId: link.id,
  })
}

async function postReceipt(built: TestRoute, hash: Hex) {
  const answer = await postJson(scene.testApp.app, `/api/route-intent/${built.intentId}/receipt`, {
    txHash: hash,
  })
  expect(answer.statusCode, answer.body).toBe(202)
}

/** The payer's EIP-2612 permit for the route's spender, signed locally as a wallet would. */
async function signPermit(built: TestRoute, value: bigint) {
  const { devnet } = scene
  const usdc = devnet.token(8453, 'USDC')
  const owner = devnet.account(payerIndex)
  const spender = built.route.spender
  if (spender === null) throw new Error('a token route has a spender')
  const nonce = await devnet.publicClient(8453).readContract({
    address: usdc,
    abi: fiatTokenAbi,
    functionName: 'nonces',
    args: [owner.address],
  })
  const deadline = BigInt(Math.floor(Date.now() / 1000) + 600)
  const signature = await owner.signTypedData({
    domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: usdc },
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
    message: { owner: owner.address, spender, value, nonce, deadline },
  })
  const { v, r, s } = parseSignature(signature)
  return [usdc, value, deadline, Number(v), r, s] as const
}

/** Sends `calls` as one EIP-7702 transaction of the payer to itself, delegated to Simple7702Account. */
async function sendBatch(calls: { target: `0x${string}`; value: bigint; data: Hex }[]) {
  const { devnet } = scene
  const wallet = devnet.wallet(8453, payerIndex)
  const authorization = await wallet.signAuthorization({
    contractAddress: devnet.chain(8453).contracts.simple7702Account,
    executor: 'self',
  })
  const hash = await wallet.sendTransaction({
    to: wallet.account.address,
    data: encodeFunctionData({ abi: simple7702Abi, functionName: 'executeBatch', args: [calls] }),
    authorizationList: [authorization],
    gas: 400_000n,
  })
  await devnet.publicClient(8453).waitForTransactionReceipt({ hash })
  return hash
}

describe('token payments without a separate approval', { timeout: 60_000 }, () => {
  it('a permit payment: permitAndCall around the route is its source, and nothing was approved before', async () => {
    const { devnet, testApp } = scene
    const amount = parseUnits('3', 6)
    const built = await buildUsdcRoute(amount)
    expect(built.route).toMatchObject({ acceptsPermit: true })
    const payer = devnet.account(payerIndex).address
    const receiver = devnet.account(receiverIndex).address
    const usdc = devnet.token(8453, 'USDC')
    const spender = built.route.spender as `0x${string}`
    const allowance = () =>
      devnet.publicClient(8453).readContract({
        address: usdc,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [payer, spender],
      })
    expect(await allowance()).toBe(0n)
    const before = await devnet.balanceOf(8453, usdc, receiver)

    const hash = await devnet.wallet(8453, payerIndex).writeContract({
      address: built.route.transactionRequest.to,
      abi: payRouterAbi,
      functionName: 'permitAndCall',
      args: [...(await signPermit(built, amount)), built.route.transactionRequest.data],
      gas: 300_000n,
    })
    await devnet.publicClient(8453).waitForTransactionReceipt({ hash })
    await postReceipt(built, hash)
    const record = await waitForFinalRecord(testApp.app, payer, built.intentId)
    expect(record.status).toBe('success')
    expect(record.source_tx_hash).toBe(hash)
    expect(BigInt(record.to_amount_wei ?? '0')).toBe(amount)
    expect(await devnet.balanceOf(8453, usdc, receiver)).toBe(before + amount)
    expect(await allowance()).toBe(0n)
  })

  it('an ERC-5792 batch: approve and the route call in one transaction of the payer’s 7702 account', async () => {
    const { devnet, testApp } = scene
    const amount = parseUnits('4', 6)
    const built = await buildUsdcRoute(amount)
    const usdc = devnet.token(8453, 'USDC')
    const request = built.route.transactionRequest
    const hash = await sendBatch([
      {
        target: usdc,
        value: 0n,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'approve',
          args: [built.route.spender as `0x${string}`, amount],
        }),
      },
      { target: request.to, value: 0n, data: request.data },
    ])
    await postReceipt(built, hash)
    const record = await waitForFinalRecord(testApp.app, devnet.account(payerIndex).address, built.intentId)
    expect(record.status).toBe('success')
    expect(record.source_tx_hash).toBe(hash)
    expect(BigInt(record.to_amount_wei ?? '0')).toBe(amount)
  })

  it('a batch that pays another receiver is not the route’s: the record fails and names the calldata', async () => {
    const { devnet, testApp } = scene
    const amount = parseUnits('1', 6)
    const built = await buildUsdcRoute(amount)
    const usdc = devnet.token(8453, 'USDC')
    const hash = await sendBatch([
      {
        target: usdc,
        value: 0n,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'approve',
          args: [built.route.spender as `0x${string}`, amount],
        }),
      },
      // The route's intent and amount, paid to account 5 instead of the link's receiver.
      {
        target: built.route.transactionRequest.to,
        value: 0n,
        data: encodeFunctionData({
          abi: payRouterAbi,
          functionName: 'pay',
          args: [built.intentId, usdc, amount, devnet.account(5).address],
        }),
      },
    ])
    await postReceipt(built, hash)
    const record = await waitForFinalRecord(testApp.app, devnet.account(payerIndex).address, built.intentId)
    expect(record.status).toBe('failed')
    expect(record.error_message).toMatch(/calldata is not the route's/)
  })
})
