import type { PayStatus } from '@quicklinks/core/api/pay-status'
import { eq } from 'drizzle-orm'
import { erc20Abi, type Hash, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import {
  buildTestRoute,
  createTestLink,
  getDevnetRelayerPrivateKey,
  type PaymentDevnet,
  postJson,
  startPaymentDevnet,
  type TestRoute,
  waitForFinalRecord,
} from '../../../test/payment-test-kit.ts'
import {
  createTestRelayer,
  getTestChainControl,
  getTestEscrowState,
  payTestRoute,
  runTestRelayer,
} from '../../../test/relayer-test-kit.ts'
import { links } from '../../db/schema.ts'
import { getPayRouterAddressOrThrow } from '../../services/payments/providers/local/payrouter/get-pay-router-address-or-throw.ts'

let devnet: PaymentDevnet
let testApp: TestApp

const payerIndex = 1
const receiverIndex = 5

beforeAll(async () => {
  devnet = await startPaymentDevnet()
  // No background workers: each test makes the tracker look (trackNow) and runs the relayer by
  // hand, so a deposit is filled only when a test says so and the relayer never refunds it first.
  testApp = await buildTestApp({
    devMode: true,
    devnetDeploymentFile: devnet.deploymentFile,
    relayerPrivateKey: getDevnetRelayerPrivateKey(),
  })
})

afterAll(async () => {
  await testApp?.close()
  await devnet?.stop()
})

async function readStatus(intentId: string): Promise<PayStatus> {
  const response = await testApp.app.inject({ method: 'GET', url: `/api/pay/status/${intentId}` })
  expect(response.statusCode, response.body).toBe(200)
  return (response.json() as { data: PayStatus }).data
}

/** A USDC link of the receiver on `chainId`, and a route of `amount` Base USDC paying it. */
async function buildUsdcRoute(
  toChain: number,
  amount: bigint,
): Promise<{ built: TestRoute; linkName: string }> {
  const receiver = devnet.account(receiverIndex).address
  const link = await createTestLink(testApp.app.db, {
    owner: receiver,
    receiver,
    chainId: toChain,
    token: devnet.token(toChain, 'USDC'),
    symbol: 'USDC',
  })
  const [stored] = await testApp.app.db.select().from(links).where(eq(links.id, link.id))
  const built = await buildTestRoute(testApp.app, {
    linkId: link.id,
    fromChain: 8453,
    toChain,
    fromToken: devnet.token(8453, 'USDC'),
    toToken: devnet.token(toChain, 'USDC'),
    fromAmount: amount.toString(),
    fromAddress: devnet.account(payerIndex).address,
    toAddress: receiver,
  })
  return { built, linkName: stored?.alias ?? '' }
}

/** Sends the route's transaction (approving its spender first) and posts its receipt. */
async function payAndReport(built: TestRoute, amount: bigint, approve = true): Promise<Hash> {
  const wallet = devnet.wallet(8453, payerIndex)
  const client = devnet.publicClient(8453)
  if (approve && built.route.spender) {
    const approval = await wallet.writeContract({
      address: devnet.token(8453, 'USDC'),
      abi: erc20Abi,
      functionName: 'approve',
      args: [built.route.spender, amount],
    })
    await client.waitForTransactionReceipt({ hash: approval })
  }
  const request = built.route.transactionRequest
  const hash = await wallet.sendTransaction({
    to: request.to,
    data: request.data,
    value: BigInt(request.value),
    gas: BigInt(request.gasLimit),
  })
  await client.waitForTransactionReceipt({ hash })
  await postReceipt(built.intentId, hash)
  return hash
}

async function postReceipt(intentId: string, txHash: Hash): Promise<void> {
  const response = await postJson(testApp.app, `/api/route-intent/${intentId}/receipt`, { txHash })
  expect(response.statusCode, response.body).toBe(202)
}

/** Makes the tracker look, then reads the status until `isDone` holds. */
async function waitForStatus(intentId: string, isDone: (status: PayStatus) => boolean): Promise<PayStatus> {
  return vi.waitFor(
    async () => {
      await testApp.app.paymentTracker.trackNow(intentId)
      const status = await readStatus(intentId)
      if (!isDone(status)) throw new Error(`status not there yet: ${JSON.stringify(status)}`)
      return status
    },
    { timeout: 30_000, interval: 200 },
  )
}

// Chain round trips on a CI runner shared by every test project: more room than the default 30 s.
describe('GET /api/pay/status/{intentId} on the devnet', { timeout: 90_000 }, () => {
  it('answers 404 for an unknown id and for a route no receipt was posted for, 422 for a malformed id', async () => {
    const unknown = await testApp.app.inject({ method: 'GET', url: `/api/pay/status/0x${'ab'.repeat(32)}` })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().error.message).toBe('No payment is known under this id.')
    const { built } = await buildUsdcRoute(8453, parseUnits('1', 6))
    const unpaid = await testApp.app.inject({ method: 'GET', url: `/api/pay/status/${built.intentId}` })
    expect(unpaid.statusCode).toBe(404)
    const malformed = await testApp.app.inject({ method: 'GET', url: '/api/pay/status/0x1234' })
    expect(malformed.statusCode).toBe(422)
  })

  it('is rate-limited per client like the other public reads: the 121st read in a minute is 429', async () => {
    const read = () =>
      testApp.app.inject({
        method: 'GET',
        url: `/api/pay/status/0x${'ef'.repeat(32)}`,
        remoteAddress: '203.0.113.31',
      })
    for (let index = 0; index < 120; index++) expect((await read()).statusCode).toBe(404)
    expect((await read()).statusCode).toBe(429)
  })

  it('is in flight while the posted hash is not on chain yet, with no hash of its own', async () => {
    const { built } = await buildUsdcRoute(8453, parseUnits('2', 6))
    await postReceipt(built.intentId, `0x${'cd'.repeat(32)}`)
    const status = await readStatus(built.intentId)
    expect(status.state).toBe('in_flight')
    expect(status.sourceTxHash).toBeNull()
    expect(status.refund).toBeNull()
  })

  it('says delivered for a same-chain payment, with what the receiver got, the link’s name and both hashes', async () => {
    const amount = parseUnits('3.5', 6)
    const { built, linkName } = await buildUsdcRoute(8453, amount)
    const hash = await payAndReport(built, amount)
    const status = await waitForStatus(built.intentId, (each) => each.state === 'delivered')
    expect(status).toMatchObject({
      intentId: built.intentId.toLowerCase(),
      linkName,
      fromChainId: 8453,
      toChainId: 8453,
      fromAmount: amount.toString(),
      toAmountReceived: amount.toString(),
      payer: devnet.account(payerIndex).address.toLowerCase(),
      sourceTxHash: hash,
      destTxHash: hash,
      refund: null,
    })
    expect(status.toToken).toMatchObject({ symbol: 'USDC', decimals: 6, chainId: 8453 })
    expect(status.sourceTxUrl).toContain(`/api/dev/chains/8453/tx/${hash}`)
    expect(status.completedAt).not.toBeNull()
  })

  it('says failed for a reverted payment without passing on the revert reason', async () => {
    const amount = parseUnits('1000000', 6)
    const { built } = await buildUsdcRoute(8453, amount)
    // Sent without its approval: it reverts with ERC20InsufficientAllowance.
    await payAndReport(built, amount, false)
    const payer = devnet.account(payerIndex).address
    expect((await waitForFinalRecord(testApp.app, payer, built.intentId)).error_message).toMatch(
      /ERC20InsufficientAllowance/,
    )
    const response = await testApp.app.inject({ method: 'GET', url: `/api/pay/status/${built.intentId}` })
    expect(response.json().data.state).toBe('failed')
    expect(response.body).not.toMatch(/ERC20InsufficientAllowance|revert/i)
  })

  it('says bridging, then delivered once the relayer fills a cross-chain deposit', async () => {
    const amount = parseUnits('6', 6)
    const { built } = await buildUsdcRoute(43114, amount)
    await payAndReport(built, amount)
    const bridging = await readStatus(built.intentId)
    expect(bridging.state).toBe('bridging')
    expect(bridging.refund?.available).toBe(false)

    const relayer = createTestRelayer(devnet, testApp.database, testApp.app.log)
    try {
      await runTestRelayer(relayer, [8453, 43114], 3)
    } finally {
      await relayer.close()
    }
    const delivered = await waitForStatus(built.intentId, (each) => each.state === 'delivered')
    expect(delivered.destTxHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(delivered.destTxHash).not.toBe(delivered.sourceTxHash)
    expect(BigInt(delivered.toAmountReceived ?? '0')).toBeGreaterThanOrEqual(
      BigInt(built.route.estimate.toAmountMin),
    )
    expect(delivered.refund).toBeNull()
  })

  it('offers the refund of a deposit nobody fills: refundable after the deadline, available after the settlement window, refunded once the payer sends it', async () => {
    const amount = parseUnits('9', 6)
    const usdc = devnet.token(8453, 'USDC')
    const payer = devnet.account(payerIndex).address
    const { built } = await buildUsdcRoute(43114, amount)
    const balanceBefore = await devnet.balanceOf(8453, usdc, payer)
    // The deposit as the pay modal sends it; no relayer runs, so no fill comes.
    const deposit = await payTestRoute(devnet, 8453, payerIndex, built.route, usdc, amount)
    await postReceipt(built.intentId, deposit.txHash)

    const bridging = await waitForStatus(built.intentId, (each) => each.state === 'bridging')
    const refund = bridging.refund
    if (refund === null) throw new Error('no refund offer while bridging')
    const payRouter = getPayRouterAddressOrThrow(devnet.chain(8453)).toLowerCase()
    expect(refund).toMatchObject({
      available: false,
      contract: payRouter,
      chainId: 8453,
      functionName: 'refund',
      depositor: payer.toLowerCase(),
    })
    expect(refund.args.escrowAmount).toBe(amount.toString())
    // The fill window (at most an hour) and the settlement window (an hour) are still ahead.
    expect(refund.secondsUntilAvailable).toBeGreaterThan(3600)
    const opensAt = Number(refund.args.fillDeadline) + 3601
    expect(refund.availableAt).toBe(new Date(opensAt * 1000).toISOString())

    // The destination's clock passes the fill deadline: nobody can fill it any more.
    const destination = getTestChainControl(devnet, 43114)
    await destination.increaseTime(Number(refund.args.fillDeadline) - (await destination.getTime()) + 1)
    const refundable = await readStatus(built.intentId)
    expect(refundable.state).toBe('refundable')
    expect(refundable.refund?.available).toBe(false)
    // The contract refuses the refund until the settlement window has passed.
    const wallet = devnet.wallet(8453, payerIndex)
    await expect(
      devnet
        .publicClient(8453)
        .call({ account: payer, to: refund.contract as `0x${string}`, data: refund.data as `0x${string}` }),
    ).rejects.toThrow(/settlement window open/)

    const source = getTestChainControl(devnet, 8453)
    await source.increaseTime(opensAt - (await source.getTime()) + 1)
    const available = await readStatus(built.intentId)
    expect(available.state).toBe('refundable')
    expect(available.refund).toMatchObject({ available: true, secondsUntilAvailable: 0 })

    // The payer's wallet sends exactly what the answer says.
    const refundHash = await wallet.sendTransaction({
      to: refund.contract as `0x${string}`,
      data: refund.data as `0x${string}`,
    })
    expect((await devnet.publicClient(8453).waitForTransactionReceipt({ hash: refundHash })).status).toBe(
      'success',
    )
    expect(await getTestEscrowState(devnet, 8453, deposit.orderKey)).toBe(3)
    expect(await devnet.balanceOf(8453, usdc, payer)).toBe(balanceBefore)

    // Read from the chain at once, before the tracker looks again.
    const refunded = await readStatus(built.intentId)
    expect(refunded).toMatchObject({ state: 'refunded', refundTxHash: refundHash, refund: null })
    expect(refunded.refundTxUrl).toContain(`/api/dev/chains/8453/tx/${refundHash}`)
    // The tracker's record says refunded too once it looks.
    await testApp.app.paymentTracker.trackNow(built.intentId)
    const record = await waitForFinalRecord(testApp.app, payer, built.intentId)
    expect(record).toMatchObject({ status: 'failed', is_refunded: true, status_raw: 'refunded' })
    expect((await readStatus(built.intentId)).state).toBe('refunded')
  })
})
