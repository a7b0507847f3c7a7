import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { links, routeIntents } from '../src/db/schema.ts'
import { avalancheUsdc, baseUsdc, baseUsdt } from './link-test-fixtures.ts'

/**
 * Payments written straight into route_intents, as the tracker leaves them, for the payment
 * history's tests and bench: deterministic from their index, so a test can tell what any row must
 * read back as without keeping the rows.
 */

const receiver = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
/** The first payment's created_at; payment i is i seconds later. */
export const firstPaymentAt = Date.parse('2026-01-01T00:00:00.000Z')

/** What payment `index` is made of (the route's ends, amounts, state). */
export function describeTestPayment(index: number) {
  const kind = (['transfer', 'swap', 'bridge'] as const)[index % 3] ?? 'transfer'
  const state = index % 10 === 9 ? 'failed' : index % 10 === 8 ? 'bridging' : 'success'
  const fromChainId = kind === 'bridge' ? 43114 : 8453
  const fromToken = (
    kind === 'transfer' ? baseUsdc : kind === 'swap' ? baseUsdt : avalancheUsdc
  ).toLowerCase()
  const fromSymbol = kind === 'swap' ? 'USDT' : 'USDC'
  return {
    id: `0x${index.toString(16).padStart(64, '0')}`,
    kind,
    state,
    fromChainId,
    fromToken,
    fromSymbol,
    toChainId: 8453,
    toToken: baseUsdc.toLowerCase(),
    /** 1.000000 USDC + index units. */
    fromAmount: String(1_000_000 + index),
    /** 0.990000 USDC + index units once delivered; null for an unfinished or failed one. */
    toAmountWei: state === 'success' ? String(990_000 + index) : null,
    payer: `0x${(index + 1).toString(16).padStart(40, 'a')}`,
    sourceTxHash: `0x${(index + 1).toString(16).padStart(64, 'b')}`,
    destTxHash: state === 'success' ? `0x${(index + 1).toString(16).padStart(64, 'c')}` : null,
    createdAt: new Date(firstPaymentAt + index * 1000),
  }
}

/** A link of `userId` (a Base USDC link) named `alias`; answers its id. */
export async function insertTestLink(
  db: Database,
  input: { userId: string; alias: string },
): Promise<string> {
  const [row] = await db
    .insert(links)
    .values({
      userId: input.userId,
      alias: input.alias,
      aliasSlug: `${input.alias.toLowerCase().replaceAll(/[^a-z0-9]+/g, '-')}-${crypto.randomUUID().slice(0, 8)}`,
      receiverAddress: receiver,
      tokenName: 'USDC',
      tokenAddress: baseUsdc.toLowerCase(),
    })
    .returning({ id: links.id })
  if (row === undefined) throw new Error('link not inserted')
  return row.id
}

/**
 * Writes payments `from` … `from + count - 1` (see `describeTestPayment`) into `linkId` (or the
 * link `linkIdOf(index)` names), 1,000 rows per statement.
 */
export async function insertTestPayments(
  db: Database,
  input: {
    from?: number
    count: number
    linkIdOf: (index: number) => string
    invoiceIdOf?: (index: number) => string | null
  },
): Promise<void> {
  const start = input.from ?? 0
  for (let offset = 0; offset < input.count; offset += 1000) {
    const rows = []
    for (let index = start + offset; index < start + Math.min(input.count, offset + 1000); index++) {
      const payment = describeTestPayment(index)
      const token = (address: string, symbol: string, chainId: number) => ({
        chainId,
        address,
        symbol,
        decimals: 6,
        logoURI: '',
      })
      const fromRef = token(payment.fromToken, payment.fromSymbol, payment.fromChainId)
      const toRef = token(payment.toToken, 'USDC', payment.toChainId)
      rows.push({
        id: payment.id,
        provider: 'local',
        linkId: input.linkIdOf(index),
        invoiceId: input.invoiceIdOf?.(index) ?? null,
        fromChainId: payment.fromChainId,
        toChainId: payment.toChainId,
        fromToken: payment.fromToken,
        toToken: payment.toToken,
        fromAmount: payment.fromAmount,
        toAmount: String(990_000 + index),
        toAmountMin: String(980_000 + index),
        fromAddress: payment.payer,
        toAddress: receiver,
        slippage: 1,
        transactionRequest: {},
        actions: [{ type: payment.kind, fromToken: fromRef, toToken: toRef }],
        sourceTxHash: payment.sourceTxHash,
        status: payment.state,
        statusRaw: payment.state,
        destTxHash: payment.destTxHash,
        toAmountWei: payment.toAmountWei,
        finalAt: payment.state === 'bridging' ? null : new Date(payment.createdAt.getTime() + 60_000),
        createdAt: payment.createdAt,
        updatedAt: payment.createdAt,
        completedAt: payment.state === 'bridging' ? null : new Date(payment.createdAt.getTime() + 30_000),
      })
    }
    await db.insert(routeIntents).values(rows)
  }
}
