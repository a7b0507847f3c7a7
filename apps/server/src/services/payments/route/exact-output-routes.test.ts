import { erc20Abi, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../../../../test/build-test-app.ts'
import {
  buildTestRoute,
  createTestLink,
  nativeToken,
  type PaymentDevnet,
  postJson,
  startPaymentApp,
  startPaymentDevnet,
  type TestRoute,
  waitForFinalRecord,
} from '../../../../test/payment-test-kit.ts'

// Exact output (docs/api.md#route-request's toAmount): an invoice or a link with an amount asks for
// what the receiver must get; the server computes the input. Each case pays it on the devnet and
// reads the receiver's balance: it grew by at least the amount asked for.

let devnet: PaymentDevnet
let testApp: TestApp
const payerIndex = 1
const receiverIndex = 3

beforeAll(async () => {
  devnet = await startPaymentDevnet()
  testApp = await startPaymentApp(devnet)
})

afterAll(async () => {
  await testApp?.close()
  await devnet?.stop()
})

/** Approves the spender when there is one, sends the route's transaction, posts its receipt. */
async function pay(fromChain: number, fromToken: `0x${string}`, built: TestRoute): Promise<void> {
  const wallet = devnet.wallet(fromChain, payerIndex)
  const client = devnet.publicClient(fromChain)
  if (built.route.spender) {
    const approval = await wallet.writeContract({
      address: fromToken,
      abi: erc20Abi,
      functionName: 'approve',
      args: [built.route.spender, BigInt(built.route.estimate.fromAmount)],
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
  const receipt = await postJson(testApp.app, `/api/route-intent/${built.intentId}/receipt`, { txHash: hash })
  expect(receipt.statusCode, receipt.body).toBe(202)
}

describe('exact-output routes on the devnet: the receiver gets at least toAmount', {
  timeout: 90_000,
}, () => {
  const cases = [
    {
      name: 'a transfer (Base USDC to a Base USDC link)',
      fromChain: 8453,
      fromSymbol: 'USDC',
      toChain: 8453,
      toSymbol: 'USDC',
      amount: parseUnits('12.5', 6),
      actions: ['transfer'],
    },
    {
      name: 'a swap (Base ETH to a Base USDC link)',
      fromChain: 8453,
      fromSymbol: 'ETH',
      toChain: 8453,
      toSymbol: 'USDC',
      amount: parseUnits('7.25', 6),
      actions: ['swap', 'transfer'],
    },
    {
      name: 'a cross-chain route (Avalanche AVAX to a Base USDC link)',
      fromChain: 43114,
      fromSymbol: 'AVAX',
      toChain: 8453,
      toSymbol: 'USDC',
      amount: parseUnits('9', 6),
      actions: ['swap', 'bridge', 'transfer'],
    },
    {
      name: 'a cross-chain route with swaps on both sides (Arbitrum USDT to a Base WETH link)',
      fromChain: 42161,
      fromSymbol: 'USDT',
      toChain: 8453,
      toSymbol: 'WETH',
      amount: parseUnits('0.002', 18),
      actions: ['swap', 'bridge', 'swap', 'transfer'],
    },
  ] as const

  for (const payment of cases) {
    it(`pays ${payment.name}`, async () => {
      const payer = devnet.account(payerIndex).address
      const receiver = devnet.account(receiverIndex).address
      const toToken = devnet.token(payment.toChain, payment.toSymbol)
      const fromToken =
        payment.fromSymbol === 'ETH' || payment.fromSymbol === 'AVAX'
          ? nativeToken
          : devnet.token(payment.fromChain, payment.fromSymbol)
      const link = await createTestLink(testApp.database.db, {
        owner: receiver,
        receiver,
        chainId: payment.toChain,
        token: toToken,
        symbol: payment.toSymbol,
      })
      const before = await devnet.balanceOf(payment.toChain, toToken, receiver)

      const built = await buildTestRoute(testApp.app, {
        linkId: link.id,
        fromChain: payment.fromChain,
        toChain: payment.toChain,
        fromToken,
        toToken,
        toAmount: payment.amount.toString(),
        fromAddress: payer,
        toAddress: receiver,
        slippage: 1,
      })
      const estimate = built.route.estimate as TestRoute['route']['estimate'] & {
        requestedToAmount?: string
        expectedExcess?: string
      }
      expect(estimate.actions.map((action) => action.type)).toEqual(payment.actions)
      expect(estimate.requestedToAmount).toBe(payment.amount.toString())
      expect(BigInt(estimate.toAmountMin)).toBeGreaterThanOrEqual(payment.amount)
      // Quoted by getAmountsIn (exact output), not by probing: the minimum is the amount within 0.1 %.
      expect(BigInt(estimate.toAmountMin)).toBeLessThanOrEqual((payment.amount * 10_010n) / 10_000n)
      expect(BigInt(estimate.expectedExcess ?? '-1')).toBe(BigInt(estimate.toAmount) - payment.amount)
      if (payment.actions.length === 1) expect(estimate.fromAmount).toBe(payment.amount.toString())

      await pay(payment.fromChain, fromToken, built)
      const record = await waitForFinalRecord(testApp.app, payer, built.intentId)
      expect(record.status).toBe('success')
      const after = await devnet.balanceOf(payment.toChain, toToken, receiver)
      expect(after - before).toBeGreaterThanOrEqual(payment.amount)
    })
  }

  it('refuses a body with both fromAmount and toAmount, naming toAmount', async () => {
    const usdc = devnet.token(8453, 'USDC')
    const receiver = devnet.account(receiverIndex).address
    const link = await createTestLink(testApp.database.db, {
      owner: receiver,
      receiver,
      chainId: 8453,
      token: usdc,
      symbol: 'USDC',
    })
    const response = await postJson(testApp.app, '/api/local/route', {
      linkId: link.id,
      fromChain: 8453,
      toChain: 8453,
      fromToken: usdc,
      toToken: usdc,
      fromAmount: '5',
      toAmount: '5',
      fromAddress: devnet.account(payerIndex).address,
      toAddress: receiver,
    })
    expect(response.statusCode).toBe(422)
    expect(response.json().error.message).toMatch(/either fromAmount .* or toAmount/)
  })
})
