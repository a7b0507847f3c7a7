import { eq } from 'drizzle-orm'
import { erc20Abi, parseEther, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  createReceiverLink,
  sendRouteTransaction as sendTestRouteTransaction,
  usePaymentScene,
} from '../../../../test/payment-scene.ts'
import {
  buildTestRoute,
  nativeToken,
  postJson,
  type TestRoute,
  waitForFinalRecord,
} from '../../../../test/payment-test-kit.ts'
import { routeIntentReceipts, routeIntents } from '../../../db/schema.ts'

// Local payments on the devnet, from the route to a successful transaction record (the refused
// and failed ones are in local-payment-refusals.test.ts; the set-up is the payment scene's).

const scene = usePaymentScene()

const payerIndex = 1
const receiverIndex = 2

/** A payment link of account 2 for `symbol` on `chainId`, stored as the owner would create it. */
const createLink = (chainId: number, symbol: string) =>
  createReceiverLink(scene, receiverIndex, chainId, symbol)

type BuiltRoute = TestRoute

const buildRoute = (body: Record<string, unknown>): Promise<BuiltRoute> =>
  buildTestRoute(scene.testApp.app, body)

/** Sends exactly the route's transaction from the payer and waits until it is mined. */
const sendRouteTransaction = (fromChain: number, built: BuiltRoute) =>
  sendTestRouteTransaction(scene.devnet, payerIndex, fromChain, built)

/** The pay modal's part: approve when there is a spender, send the transaction, post its hash. */
async function sendPayment(
  fromChain: number,
  fromToken: `0x${string}`,
  built: BuiltRoute,
): Promise<`0x${string}`> {
  const wallet = scene.devnet.wallet(fromChain, payerIndex)
  const client = scene.devnet.publicClient(fromChain)
  if (built.route.spender) {
    const approval = await wallet.writeContract({
      address: fromToken,
      abi: erc20Abi,
      functionName: 'approve',
      args: [built.route.spender, BigInt(built.route.estimate.fromAmount)],
    })
    await client.waitForTransactionReceipt({ hash: approval })
  }
  const { hash } = await sendRouteTransaction(fromChain, built)
  const receipt = await postJson(scene.testApp.app, `/api/route-intent/${built.intentId}/receipt`, {
    txHash: hash,
  })
  expect(receipt.statusCode, receipt.body).toBe(202)
  return hash
}

// Chain round trips on a CI runner shared by every test project: more room than the default 30 s.
describe('local payments on the devnet, from route to a successful transaction record', {
  timeout: 60_000,
}, () => {
  const payments = [
    {
      name: 'Base USDC to a Base USDC link',
      fromChain: 8453,
      fromSymbol: 'USDC',
      amount: parseUnits('25', 6),
      toChain: 8453,
      toSymbol: 'USDC',
      actions: ['transfer'],
    },
    {
      name: 'Base ETH to a Base USDC link',
      fromChain: 8453,
      fromSymbol: 'ETH',
      amount: parseEther('0.01'),
      toChain: 8453,
      toSymbol: 'USDC',
      actions: ['swap', 'transfer'],
    },
    {
      name: 'Avalanche AVAX to a Base USDC link',
      fromChain: 43114,
      fromSymbol: 'AVAX',
      amount: parseEther('2'),
      toChain: 8453,
      toSymbol: 'USDC',
      actions: ['swap', 'bridge', 'transfer'],
    },
    {
      name: 'Arbitrum USDT to an Avalanche USDC link',
      fromChain: 42161,
      fromSymbol: 'USDT',
      amount: parseUnits('40', 6),
      toChain: 43114,
      toSymbol: 'USDC',
      actions: ['swap', 'bridge', 'transfer'],
    },
  ] as const

  for (const payment of payments) {
    it(`pays ${payment.name}: the receiver gets at least the quoted minimum`, async () => {
      const { devnet, testApp } = scene
      const link = await createLink(payment.toChain, payment.toSymbol)
      const payer = devnet.account(payerIndex).address
      const receiver = devnet.account(receiverIndex).address
      const fromToken =
        payment.fromSymbol === 'ETH' || payment.fromSymbol === 'AVAX'
          ? nativeToken
          : devnet.token(payment.fromChain, payment.fromSymbol)
      const before = await devnet.balanceOf(payment.toChain, link.tokenAddress, receiver)

      const built = await buildRoute({
        fromChain: payment.fromChain,
        toChain: String(payment.toChain),
        fromToken,
        toToken: link.tokenAddress,
        fromAmount: payment.amount.toString(),
        fromAddress: payer,
        toAddress: receiver,
        slippage: 1,
        linkId: link.id,
      })
      expect(built.intentId).toMatch(/^0x[0-9a-f]{64}$/)
      expect(built.route.estimate.actions.map((action) => action.type)).toEqual(payment.actions)
      expect(BigInt(built.route.transactionRequest.gasLimit)).toBeGreaterThan(0n)
      expect(built.route.spender).toBe(fromToken === nativeToken ? null : built.route.transactionRequest.to)
      const toAmountMin = BigInt(built.route.estimate.toAmountMin)
      expect(toAmountMin).toBeGreaterThan(0n)

      const hash = await sendPayment(payment.fromChain, fromToken, built)
      const record = await waitForFinalRecord(testApp.app, payer, built.intentId)

      expect(record.status).toBe('success')
      expect(record.status_raw).toBe('success')
      expect(record.source_tx_hash).toBe(hash)
      expect(record.dest_tx_hash).toMatch(/^0x[0-9a-f]{64}$/)
      expect(record.route_status.map((step) => step.status)).toEqual(payment.actions.map(() => 'success'))
      expect(record.from_chain_tx_url).toBe(
        `http://localhost:3999/api/dev/chains/${payment.fromChain}/tx/${hash}`,
      )
      expect(BigInt(record.to_amount_wei ?? '0')).toBeGreaterThanOrEqual(toAmountMin)
      // The dev-mode explorer behind the record's link shows the mined transaction.
      const explorer = await testApp.app.inject({
        method: 'GET',
        url: new URL(record.from_chain_tx_url ?? '').pathname,
      })
      expect(explorer.statusCode).toBe(200)
      expect(explorer.json().data.transaction.hash).toBe(hash)
      expect(explorer.json().data.receipt.status).toBe('success')
      const after = await devnet.balanceOf(payment.toChain, link.tokenAddress, receiver)
      expect(after - before).toBeGreaterThanOrEqual(toAmountMin)
    })
  }

  it('tracks a payment whose receipt an instance matched just before it died, leaving the intent without its source', async () => {
    const { devnet, testApp } = scene
    const payer = devnet.account(payerIndex).address
    const receiver = devnet.account(receiverIndex).address
    const built = await buildRoute({
      fromChain: 8453,
      toChain: 8453,
      fromToken: nativeToken,
      toToken: nativeToken,
      fromAmount: '1000',
      fromAddress: payer,
      toAddress: receiver,
    })
    const { hash } = await sendRouteTransaction(8453, built)
    // What a SIGKILL between the receipt's verdict and the intent's write left behind before the two
    // shared a transaction: a matched receipt, an intent still waiting for its source.
    const { db } = testApp.database
    await db.insert(routeIntentReceipts).values({ intentId: built.intentId, txHash: hash, state: 'matched' })
    await db
      .update(routeIntents)
      .set({ status: 'submitted', statusRaw: 'submitted', submittedAt: new Date(), nextCheckAt: new Date() })
      .where(eq(routeIntents.id, built.intentId))

    const record = await waitForFinalRecord(testApp.app, payer, built.intentId)
    expect(record.status).toBe('success')
    expect(record.source_tx_hash).toBe(hash)
  })
})
