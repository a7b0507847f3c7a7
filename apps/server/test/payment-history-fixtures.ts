import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { sql } from 'drizzle-orm'
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

/**
 * The same payments as `insertTestPayments` (`describeTestPayment` in SQL), for the bench: one
 * INSERT … SELECT over generate_series per 10,000 rows (each within a pool's statement time-out).
 * `linkIds[i % n]` holds payment i.
 */
export async function insertTestPaymentsBySql(
  db: Database,
  input: { from?: number; count: number; linkIds: string[] },
): Promise<void> {
  const start = input.from ?? 0
  for (let offset = 0; offset < input.count; offset += 10_000) {
    const count = Math.min(10_000, input.count - offset)
    await insertPaymentRange(db, { start: start + offset, count, linkIds: input.linkIds })
  }
}

async function insertPaymentRange(
  db: Database,
  input: { start: number; count: number; linkIds: string[] },
): Promise<void> {
  const start = input.start
  const links = sql`array[${sql.join(
    input.linkIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  )}]`
  const usdc = baseUsdc.toLowerCase()
  const usdt = baseUsdt.toLowerCase()
  const avalanche = avalancheUsdc.toLowerCase()
  await db.execute(sql`
    insert into route_intents (
      id, provider, link_id, from_chain_id, to_chain_id, from_token, to_token, from_amount, to_amount,
      to_amount_min, from_address, to_address, slippage, transaction_request, actions, source_tx_hash,
      status, status_raw, dest_tx_hash, to_amount_wei, final_at, created_at, updated_at, completed_at
    )
    select
      '0x' || lpad(to_hex(i), 64, '0'), 'local', (${links})[i % ${input.linkIds.length} + 1],
      p.from_chain, 8453, p.from_token, ${usdc}::text, (1000000 + i)::text, (990000 + i)::text,
      (980000 + i)::text, '0x' || lpad(to_hex(i + 1), 40, 'a'), ${receiver}::text, 1, '{}'::jsonb,
      jsonb_build_array(jsonb_build_object(
        'type', p.kind,
        'fromToken', jsonb_build_object('chainId', p.from_chain, 'address', p.from_token, 'symbol', p.from_symbol, 'decimals', 6, 'logoURI', ''),
        'toToken', jsonb_build_object('chainId', 8453, 'address', ${usdc}::text, 'symbol', 'USDC', 'decimals', 6, 'logoURI', '')
      )),
      '0x' || lpad(to_hex(i + 1), 64, 'b'), p.state, p.state,
      case when p.state = 'success' then '0x' || lpad(to_hex(i + 1), 64, 'c') end,
      case when p.state = 'success' then (990000 + i)::text end,
      case when p.state <> 'bridging' then p.created_at + interval '60 seconds' end,
      p.created_at, p.created_at,
      case when p.state <> 'bridging' then p.created_at + interval '30 seconds' end
    from generate_series(${start}::int, ${start + input.count - 1}::int) as i
    cross join lateral (
      select
        (array['transfer', 'swap', 'bridge'])[i % 3 + 1] as kind,
        case when i % 10 = 9 then 'failed' when i % 10 = 8 then 'bridging' else 'success' end as state,
        case when i % 3 = 2 then 43114 else 8453 end as from_chain,
        (array[${usdc}::text, ${usdt}::text, ${avalanche}::text])[i % 3 + 1] as from_token,
        case when i % 3 = 1 then 'USDT' else 'USDC' end as from_symbol,
        ${new Date(firstPaymentAt).toISOString()}::timestamptz + i * interval '1 second' as created_at
    ) as p
  `)
}
