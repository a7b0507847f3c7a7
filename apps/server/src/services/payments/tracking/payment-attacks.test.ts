import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import { and, eq } from 'drizzle-orm'
import { erc20Abi, type Hash, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { usePaymentScene } from '../../../../test/payment-scene.ts'
import {
  buildTestRoute,
  createTestLink,
  postJson,
  type TestRoute,
  waitForFinalRecord,
} from '../../../../test/payment-test-kit.ts'
import { routeIntentReceipts } from '../../../db/schema.ts'
import { getPayRouterAddressOrThrow } from '../providers/local/payrouter/get-pay-router-address-or-throw.ts'

// Payers who lie and bystanders who race: a record is `success` only when the chain shows the
// link's receiver got the link's token, and nobody but the payer's own transaction decides it.

const scene = usePaymentScene()

const payerIndex = 6
const ownerIndex = 2
const attackerIndex = 7
const bystanderIp = '203.0.113.9'

/** A fresh receiver (holds nothing), so its balance afterwards is exactly what it was paid. */
function freshAddress(): `0x${string}` {
  const bytes = crypto.getRandomValues(new Uint8Array(20))
  return `0x${Buffer.from(bytes).toString('hex')}`
}

/** The route's calldata with its intent id replaced by another intent's: the splice a lying payer makes. */
function splice(route: TestRoute, intentId: `0x${string}`): `0x${string}` {
  const data = route.route.transactionRequest.data.toLowerCase()
  const own = route.intentId.slice(2).toLowerCase()
  expect(data).toContain(own)
  return data.replace(own, intentId.slice(2).toLowerCase()) as `0x${string}`
}

async function approve(chainId: number, token: `0x${string}`, spender: `0x${string}`, amount: bigint) {
  const hash = await scene.devnet
    .wallet(chainId, payerIndex)
    .writeContract({ address: token, abi: erc20Abi, functionName: 'approve', args: [spender, amount] })
  await scene.devnet.publicClient(chainId).waitForTransactionReceipt({ hash })
  return hash
}

async function send(
  chainId: number,
  route: TestRoute,
  data = route.route.transactionRequest.data,
): Promise<Hash> {
  const request = route.route.transactionRequest
  const hash = await scene.devnet.wallet(chainId, payerIndex).sendTransaction({
    to: request.to,
    data,
    value: BigInt(request.value),
    gas: BigInt(request.gasLimit),
  })
  await scene.devnet.publicClient(chainId).waitForTransactionReceipt({ hash })
  return hash
}

const postReceipt = (intentId: string, txHash: string, remoteAddress?: string) =>
  postJson(scene.testApp.app, `/api/route-intent/${intentId}/receipt`, { txHash }, remoteAddress)

async function usdcLink(chainId: number, receiver: `0x${string}`) {
  return createTestLink(scene.testApp.database.db, {
    owner: scene.devnet.account(ownerIndex).address,
    receiver,
    chainId,
    token: scene.devnet.token(chainId, 'USDC'),
    symbol: 'USDC',
  })
}

async function countFills(chainId: number, intentId: Hash): Promise<number> {
  const logs = await scene.devnet.publicClient(chainId).getContractEvents({
    address: getPayRouterAddressOrThrow(scene.devnet.chain(chainId)),
    abi: payRouterAbi,
    eventName: 'Filled',
    args: { intentId },
    fromBlock: 0n,
  })
  return logs.length
}

describe('a payer who lies', { timeout: 60_000 }, () => {
  it('same chain: another route’s transaction under the link’s intent id, paying someone else or less, is never a success', async () => {
    const { devnet, testApp } = scene
    const payer = devnet.account(payerIndex).address
    const receiver = freshAddress()
    const usdc = devnet.token(8453, 'USDC')
    const link = await usdcLink(8453, receiver)
    const amount = parseUnits('2', 6)
    const honest = await buildTestRoute(testApp.app, {
      fromChain: 8453,
      toChain: 8453,
      fromToken: usdc,
      toToken: usdc,
      fromAmount: amount.toString(),
      fromAddress: payer,
      toAddress: receiver,
      linkId: link.id,
    })
    const toAttacker = await buildTestRoute(testApp.app, {
      fromChain: 8453,
      toChain: 8453,
      fromToken: usdc,
      toToken: usdc,
      fromAmount: amount.toString(),
      fromAddress: payer,
      toAddress: devnet.account(attackerIndex).address,
    })
    const tooLittle = await buildTestRoute(testApp.app, {
      fromChain: 8453,
      toChain: 8453,
      fromToken: usdc,
      toToken: usdc,
      fromAmount: '1',
      fromAddress: payer,
      toAddress: receiver,
    })
    // Enough for both lies and the honest payment.
    await approve(8453, usdc, honest.route.transactionRequest.to, amount * 3n)

    for (const lie of [toAttacker, tooLittle]) {
      const hash = await send(8453, lie, splice(lie, honest.intentId))
      const response = await postReceipt(honest.intentId, hash)
      expect(response.statusCode, response.body).toBe(202)
      expect(response.json().data.status).toBe('failed')
      const record = await waitForFinalRecord(testApp.app, payer, honest.intentId)
      expect(record.status).toBe('failed')
      expect(record.source_tx_hash).toBe(hash)
      expect(record.error_message).toBe(
        "Transaction does not match the route: its calldata is not the route's (receiver, token or amount differ).",
      )
    }
    // The one unit of the second lie did reach the receiver, but not as this link's payment.
    expect(await devnet.balanceOf(8453, usdc, receiver)).toBe(1n)

    // The payer may still pay honestly: that transaction, and only it, makes the record a success.
    const hash = await send(8453, honest)
    const response = await postReceipt(honest.intentId, hash)
    expect(response.json().data).toEqual({ intentId: honest.intentId, txHash: hash, status: 'success' })
    const record = await waitForFinalRecord(testApp.app, payer, honest.intentId)
    expect(record).toMatchObject({
      status: 'success',
      source_tx_hash: hash,
      to_amount_wei: amount.toString(),
    })
    expect(await devnet.balanceOf(8453, usdc, receiver)).toBe(amount + 1n)
  })

  it('cross chain: a deposit under the link’s intent id that names another receiver is never filled nor a success', async () => {
    const { devnet, testApp } = scene
    const payer = devnet.account(payerIndex).address
    const receiver = freshAddress()
    const attacker = freshAddress()
    const usdc = devnet.token(8453, 'USDC')
    const destinationUsdc = devnet.token(43114, 'USDC')
    const link = await usdcLink(43114, receiver)
    const amount = parseUnits('3', 6)
    const body = {
      fromChain: 8453,
      toChain: 43114,
      fromToken: usdc,
      toToken: destinationUsdc,
      fromAmount: amount.toString(),
      fromAddress: payer,
    }
    const honest = await buildTestRoute(testApp.app, { ...body, toAddress: receiver, linkId: link.id })
    const lie = await buildTestRoute(testApp.app, { ...body, toAddress: attacker })
    await approve(8453, usdc, honest.route.transactionRequest.to, amount * 2n)

    const lieHash = await send(8453, lie, splice(lie, honest.intentId))
    expect((await postReceipt(honest.intentId, lieHash)).json().data.status).toBe('failed')
    const lied = await waitForFinalRecord(testApp.app, payer, honest.intentId)
    expect(lied.status).toBe('failed')
    expect(lied.error_message).toMatch(/^Transaction does not match the route/)

    const hash = await send(8453, honest)
    await postReceipt(honest.intentId, hash)
    const record = await waitForFinalRecord(testApp.app, payer, honest.intentId)
    expect(record.status).toBe('success')
    expect(record.source_tx_hash).toBe(hash)
    expect(BigInt(record.to_amount_wei ?? '0')).toBe(await devnet.balanceOf(43114, destinationUsdc, receiver))
    expect(BigInt(record.to_amount_wei ?? '0')).toBeGreaterThanOrEqual(
      BigInt(honest.route.estimate.toAmountMin),
    )
    // The relayer paid the link's receiver once, and the attacker nothing.
    expect(await countFills(43114, honest.intentId)).toBe(1)
    expect(await devnet.balanceOf(43114, destinationUsdc, attacker)).toBe(0n)
  })
})

describe('bystanders who race the payer', { timeout: 60_000 }, () => {
  it('a random hash, an unrelated mined hash, the payer’s approval and the payer’s hash posted against another intent, all first, never stop the payment', async () => {
    const { devnet, testApp } = scene
    const payer = devnet.account(payerIndex).address
    const receiver = freshAddress()
    const usdc = devnet.token(8453, 'USDC')
    const link = await usdcLink(8453, receiver)
    const amount = parseUnits('5', 6)
    const body = {
      fromChain: 8453,
      toChain: 8453,
      fromToken: usdc,
      toToken: usdc,
      fromAmount: amount.toString(),
      fromAddress: payer,
      toAddress: receiver,
      linkId: link.id,
    }
    const route = await buildTestRoute(testApp.app, body)
    // The modal rebuilds the route every minute: an older intent of the same payer and link.
    const older = await buildTestRoute(testApp.app, body)

    const random = await postReceipt(route.intentId, `0x${'5a'.repeat(32)}`, bystanderIp)
    expect(random.statusCode).toBe(202)
    expect(random.json().data.status).toBe('submitted')

    const unrelated = await devnet
      .wallet(8453, attackerIndex)
      .sendTransaction({ to: devnet.account(3).address, value: 1n })
    await devnet.publicClient(8453).waitForTransactionReceipt({ hash: unrelated })
    const unrelatedResponse = await postReceipt(route.intentId, unrelated, bystanderIp)
    expect(unrelatedResponse.statusCode).toBe(422)
    expect(unrelatedResponse.json().error.message).toBe(
      'Transaction does not match the route: it was sent by another wallet than the payer.',
    )

    const approval = await approve(8453, usdc, route.route.transactionRequest.to, amount)
    expect((await postReceipt(route.intentId, approval, bystanderIp)).statusCode).toBe(202)

    const hash = await send(8453, route)
    // Posted against the older intent first: it pays another route, so it is refused there, quietly.
    const misplaced = await postReceipt(older.intentId, hash, bystanderIp)
    expect(misplaced.statusCode).toBe(422)
    expect(misplaced.json().error.message).toMatch(/^Transaction does not match the route/)

    const response = await postReceipt(route.intentId, hash)
    expect(response.statusCode).toBe(202)
    expect(response.json().data).toEqual({ intentId: route.intentId, txHash: hash, status: 'success' })
    const record = await waitForFinalRecord(testApp.app, payer, route.intentId)
    expect(record).toMatchObject({
      status: 'success',
      source_tx_hash: hash,
      to_amount_wei: amount.toString(),
    })
    const records = (
      await testApp.app.inject({ method: 'GET', url: `/api/data/transactions/${payer}` })
    ).json().data as { intent_id: string; status: string }[]
    expect(records.find((entry) => entry.intent_id === older.intentId)?.status).not.toBe('success')
    // Once paid, another hash for the same payment is a conflict.
    const late = await postReceipt(route.intentId, `0x${'6b'.repeat(32)}`, bystanderIp)
    expect(late.statusCode).toBe(409)
  })

  it('an intent waits on at most 16 unseen hashes, and a flood of them does not push out a mined payment', async () => {
    const { devnet, testApp } = scene
    const payer = devnet.account(payerIndex).address
    const receiver = freshAddress()
    const usdc = devnet.token(8453, 'USDC')
    const amount = parseUnits('1', 6)
    const route = await buildTestRoute(testApp.app, {
      fromChain: 8453,
      toChain: 8453,
      fromToken: usdc,
      toToken: usdc,
      fromAmount: amount.toString(),
      fromAddress: payer,
      toAddress: receiver,
    })
    for (let index = 0; index < 20; index++) {
      const hash = `0x${index.toString(16).padStart(2, '0').repeat(32)}`
      expect((await postReceipt(route.intentId, hash, bystanderIp)).statusCode).toBe(202)
    }
    const pending = await testApp.database.db
      .select()
      .from(routeIntentReceipts)
      .where(and(eq(routeIntentReceipts.intentId, route.intentId), eq(routeIntentReceipts.state, 'pending')))
    expect(pending).toHaveLength(16)
    await approve(8453, usdc, route.route.transactionRequest.to, amount)
    const hash = await send(8453, route)
    expect((await postReceipt(route.intentId, hash)).json().data.status).toBe('success')
  })
})
