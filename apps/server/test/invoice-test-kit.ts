import { eq } from 'drizzle-orm'
import { erc20Abi, type Hash } from 'viem'
import { expect, vi } from 'vitest'
import { type Invoice, invoicePayments, invoices, invoiceTransitions } from '../src/db/schema.ts'
import { createInvoice } from '../src/services/invoices/create-invoice.ts'
import { getOrCreateUser } from '../src/services/users/get-or-create-user.ts'
import type { TestApp } from './build-test-app.ts'
import {
  buildTestRoute,
  createTestLink,
  type PaymentDevnet,
  postJson,
  type TestRoute,
  waitForFinalRecord,
} from './payment-test-kit.ts'

/** An invoice on a fresh USDC link of `receiver` on `chainId`, made through the service as the route does. */
export async function createTestInvoice(
  testApp: TestApp,
  devnet: PaymentDevnet,
  options: {
    chainId: number
    receiver: `0x${string}`
    amount: string
    toleranceBps?: number
    expiresInSeconds?: number
    /** The creation time: a past one makes an invoice that is already (nearly) expired. */
    createdAtMs?: number
  },
): Promise<{ invoice: Invoice; linkId: string; token: `0x${string}` }> {
  const { db } = testApp.database
  const owner = options.receiver
  const token = devnet.token(options.chainId, 'USDC')
  const link = await createTestLink(db, {
    owner,
    receiver: options.receiver,
    chainId: options.chainId,
    token,
    symbol: 'USDC',
  })
  const user = await getOrCreateUser(db, { address: owner })
  const { invoice } = await createInvoice(db, testApp.app.routingProvider, {
    userId: user.id,
    linkId: link.id,
    request: {
      amount: options.amount,
      ...(options.toleranceBps === undefined ? {} : { toleranceBps: options.toleranceBps }),
      ...(options.expiresInSeconds === undefined ? {} : { expiresInSeconds: options.expiresInSeconds }),
    },
    ...(options.createdAtMs === undefined ? {} : { nowMs: options.createdAtMs }),
  })
  return { invoice, linkId: link.id, token }
}

/** The route's transaction sent from the payer (approving its spender first); answers its hash once mined. */
export async function sendTestRoute(
  devnet: PaymentDevnet,
  chainId: number,
  payerIndex: number,
  route: TestRoute,
  fromToken: `0x${string}`,
  data = route.route.transactionRequest.data,
): Promise<Hash> {
  const wallet = devnet.wallet(chainId, payerIndex)
  const client = devnet.publicClient(chainId)
  if (route.route.spender) {
    const approval = await wallet.writeContract({
      address: fromToken,
      abi: erc20Abi,
      functionName: 'approve',
      args: [route.route.spender, BigInt(route.route.estimate.fromAmount)],
    })
    await client.waitForTransactionReceipt({ hash: approval })
  }
  const request = route.route.transactionRequest
  const hash = await wallet.sendTransaction({
    to: request.to,
    data,
    value: BigInt(request.value),
    gas: BigInt(request.gasLimit),
  })
  await client.waitForTransactionReceipt({ hash })
  return hash
}

/**
 * Pays part or all of an invoice as the pay modal does: a route naming the invoice and its link,
 * the transaction, the receipt; resolves once the payment's record is final (success or failed).
 */
export async function payTestInvoice(
  testApp: TestApp,
  devnet: PaymentDevnet,
  options: {
    invoice: Invoice
    linkId: string
    payerIndex: number
    fromChain: number
    fromToken: `0x${string}`
    fromAmount: bigint
  },
): Promise<{ route: TestRoute; toAmountWei: bigint }> {
  const payer = devnet.account(options.payerIndex).address
  const route = await buildTestRoute(testApp.app, {
    fromChain: options.fromChain,
    toChain: options.invoice.chainId,
    fromToken: options.fromToken,
    toToken: options.invoice.tokenAddress,
    fromAmount: options.fromAmount.toString(),
    fromAddress: payer,
    toAddress: options.invoice.receiverAddress,
    linkId: options.linkId,
    invoiceId: options.invoice.id,
  })
  const hash = await sendTestRoute(devnet, options.fromChain, options.payerIndex, route, options.fromToken)
  const posted = await postJson(testApp.app, `/api/route-intent/${route.intentId}/receipt`, { txHash: hash })
  expect(posted.statusCode, posted.body).toBe(202)
  const record = await waitForFinalRecord(testApp.app, payer, route.intentId)
  expect(record.status).toBe('success')
  return { route, toAmountWei: BigInt(record.to_amount_wei ?? '0') }
}

/** Reads the invoice until `isDone` holds for it (the invoice worker runs every 100 ms); answers it. */
export async function waitForInvoice(
  testApp: TestApp,
  id: string,
  isDone: (invoice: Invoice) => boolean,
  timeoutMs = 20_000,
): Promise<Invoice> {
  return vi.waitFor(
    async () => {
      const [invoice] = await testApp.database.db.select().from(invoices).where(eq(invoices.id, id))
      if (!invoice || !isDone(invoice)) throw new Error(`invoice ${id} is ${JSON.stringify(invoice)}`)
      return invoice
    },
    { timeout: timeoutMs, interval: 100 },
  )
}

/** An invoice's stored transitions, oldest first, as [from, to, intentId]. */
export async function readTestTransitions(
  testApp: TestApp,
  id: string,
): Promise<[string, string, string | null][]> {
  const rows = await testApp.database.db
    .select()
    .from(invoiceTransitions)
    .where(eq(invoiceTransitions.invoiceId, id))
    .orderBy(invoiceTransitions.createdAt)
  return rows.map((row) => [row.fromState, row.toState, row.intentId])
}

/** An invoice's credited payments as [intentId, amountUnits]. */
export async function readTestCredits(testApp: TestApp, id: string): Promise<[string, string][]> {
  const rows = await testApp.database.db
    .select()
    .from(invoicePayments)
    .where(eq(invoicePayments.invoiceId, id))
  return rows.map((row) => [row.intentId, row.amountUnits])
}
