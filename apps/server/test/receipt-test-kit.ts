import type { DevMail } from '@quicklinks/core/dev-outbox'
import { createLogger } from '@quicklinks/runtime/create-logger'
import { createDevOutbox, type DevOutbox } from '@quicklinks/runtime/delivery/create-dev-outbox'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { erc20Abi, parseUnits } from 'viem'
import { users } from '../src/db/schema.ts'
import { type MailCatcher, startMailCatcher } from '../src/services/delivery/start-mail-catcher.ts'
import {
  buildTestRoute,
  createTestLink,
  nativeToken,
  type PaymentDevnet,
  postJson,
  waitForFinalRecord,
} from './payment-test-kit.ts'

/** The devnet accounts of a receipt test: who pays and who is paid. */
export const receiptPayerIndex = 1
export const receiptReceiverIndex = 2

/** The development SMTP server the existing mail tests use, on a free port, with its outbox. */
export async function startTestMailCatcher(): Promise<{ catcher: MailCatcher; outbox: DevOutbox<DevMail> }> {
  const outbox = createDevOutbox<DevMail>()
  const catcher = await startMailCatcher({
    host: '127.0.0.1',
    port: 0,
    outbox,
    logger: createLogger('silent'),
  })
  return { catcher, outbox }
}

/**
 * A real devnet payment to a Base USDC (or ETH) link whose owner (the receiver) has `ownerEmail`: a route,
 * the approval and the transaction from the payer, the hash posted, and the record final. Resolves
 * the intent id and both hashes.
 */
export async function payTestLink(
  devnet: PaymentDevnet,
  app: FastifyInstance,
  options: { ownerEmail: string | null; amount?: bigint; symbol?: 'USDC' | 'ETH' },
): Promise<{ intentId: `0x${string}`; sourceTxHash: string; destTxHash: string; toAmountWei: string }> {
  const chainId = 8453
  const symbol = options.symbol ?? 'USDC'
  const token = symbol === 'ETH' ? nativeToken : devnet.token(chainId, 'USDC')
  const payer = devnet.account(receiptPayerIndex).address
  const receiver = devnet.account(receiptReceiverIndex).address
  const link = await createTestLink(app.db, {
    owner: receiver,
    receiver,
    chainId,
    token,
    symbol,
  })
  await app.db
    .update(users)
    .set({ email: options.ownerEmail })
    .where(eq(users.address, receiver.toLowerCase()))
  const amount = options.amount ?? (symbol === 'ETH' ? parseUnits('0.01', 18) : parseUnits('12.5', 6))
  const built = await buildTestRoute(app, {
    fromChain: chainId,
    toChain: String(chainId),
    fromToken: token,
    toToken: token,
    fromAmount: amount.toString(),
    fromAddress: payer,
    toAddress: receiver,
    slippage: 1,
    linkId: link.id,
  })
  const wallet = devnet.wallet(chainId, receiptPayerIndex)
  const client = devnet.publicClient(chainId)
  if (built.route.spender) {
    const approval = await wallet.writeContract({
      address: token,
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
  const posted = await postJson(app, `/api/route-intent/${built.intentId}/receipt`, { txHash: hash })
  if (posted.statusCode !== 202) throw new Error(`receipt answered ${posted.statusCode}: ${posted.body}`)
  const record = await waitForFinalRecord(app, payer, built.intentId)
  if (record.status !== 'success') throw new Error(`payment failed: ${JSON.stringify(record)}`)
  return {
    intentId: built.intentId,
    sourceTxHash: hash,
    destTxHash: record.dest_tx_hash ?? '',
    toAmountWei: record.to_amount_wei ?? '',
  }
}

/** Mails in the outbox to `address`. */
export function listMailTo(outbox: DevOutbox<DevMail>, address: string): DevMail[] {
  return outbox.list().filter((mail) => mail.to.toLowerCase() === address.toLowerCase())
}
