import { type Payment, paymentCsvColumns } from '@quicklinks/core/api/payments'
import type { RoutingToken } from '@quicklinks/core/api/routing'
import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../../../../test/build-test-app.ts'
import { baseUsdc } from '../../../../test/link-test-fixtures.ts'
import { insertTestLink } from '../../../../test/payment-history-fixtures.ts'
import { routeIntents } from '../../../db/schema.ts'
import { getOrCreateUser } from '../../users/get-or-create-user.ts'
import { listPaymentPage, type PaymentReadContext } from './list-payments.ts'
import type { PaymentFilters } from './payment-filters.ts'
import { createPaymentTokenResolver } from './resolve-payment-tokens.ts'
import { streamPaymentsCsv, toCsvCell } from './stream-payments-csv.ts'

// The export makes its lines straight from raw rows (no Payment objects: 100,000 of them took
// seconds). This holds it to the bytes the payment history's own `Payment` gives for the same
// rows, on the rows a fast path gets wrong: microseconds, odd amounts, tokens named three ways,
// text a spreadsheet would run or split.

/** A line as the export wrote it before: the `Payment` of GET /api/payments, cell by cell. */
function toReferenceLine(payment: Payment): string {
  const cells = {
    created_at: payment.createdAt,
    completed_at: payment.completedAt,
    state: payment.state,
    link_id: payment.linkId,
    link_name: payment.linkName,
    invoice_id: payment.invoiceId,
    payer: payment.payer,
    route_kind: payment.routeKind,
    provider: payment.provider,
    source_chain_id: payment.sourceChainId,
    source_tx_hash: payment.sourceTxHash,
    from_token: payment.fromToken.address,
    from_symbol: payment.fromToken.symbol,
    amount_in: payment.amountIn,
    dest_chain_id: payment.destChainId,
    dest_tx_hash: payment.destTxHash,
    to_token: payment.toToken.address,
    to_symbol: payment.toToken.symbol,
    amount_received: payment.amountReceived,
    intent_id: payment.intentId,
  } satisfies Record<(typeof paymentCsvColumns)[number], string | number | null>
  return `${paymentCsvColumns.map((column) => toCsvCell(cells[column])).join(',')}\r\n`
}

const catalogueToken = '0x00000000000000000000000000000000000000c1'
const storedOnlyToken = '0x00000000000000000000000000000000000000d1'
const unknownToken = '0x00000000000000000000000000000000000000e1'

function createContext(database: DatabaseClient): PaymentReadContext {
  const catalogue: RoutingToken[] = [
    {
      chainId: 10,
      address: '0x00000000000000000000000000000000000000C1',
      symbol: '=CAT',
      name: 'Catalogue',
      decimals: 18,
      type: 'evm',
      logoURI: '',
      active: true,
      visible: true,
      usdPrice: null,
    },
  ]
  return {
    tokens: createPaymentTokenResolver({ tokens: async () => catalogue }, database.db),
    buildTxUrl: (chainId, hash) => `https://explorer.test/${chainId}/tx/${hash}`,
  }
}

describe('streamPaymentsCsv', () => {
  let database: DatabaseClient
  let filters: PaymentFilters

  beforeAll(async () => {
    database = await createTestDatabase()
    const db = database.db
    const user = await getOrCreateUser(db, { address: '0x00000000000000000000000000000000000c5c01' })
    filters = { userId: user.id }
    const plain = await insertTestLink(db, { userId: user.id, alias: 'Plain shop' })
    const awkward = await insertTestLink(db, { userId: user.id, alias: '@Shop, "the" best\nline' })
    const usdc = baseUsdc.toLowerCase()
    const ref = (symbol: unknown, decimals: unknown) => ({ chainId: 8453, address: usdc, symbol, decimals })
    const rows: Array<Partial<typeof routeIntents.$inferInsert>> = [
      // Microseconds (written below) that round up in a careless formatter, completed ones too.
      {},
      { linkId: awkward, provider: '+provider' },
      { completedAt: null, status: 'bridging', toAmountWei: null },
      // Amounts with leading zeros, zero, malformed; a token of 0 decimals.
      {
        fromAmount: '000123',
        toAmountWei: '0',
        actions: [{ fromToken: ref('ZERO', 0), toToken: ref('USDC', 6) }],
      },
      { fromAmount: '-5', toAmountWei: '1e3' },
      // Tokens named by the catalogue (no stored reference), by another route only, by nobody.
      { fromChainId: 10, fromToken: catalogueToken, actions: [] },
      { toToken: storedOnlyToken, actions: [{ fromToken: ref('USDC', 6), toToken: null }] },
      { fromToken: unknownToken, actions: [{ fromToken: ref(1, 'six'), toToken: ref('USDC', 6) }] },
      { invoiceId: null, sourceTxHash: '=0xabc', destTxHash: 'a,"b"', fromAddress: '-0x1' },
    ]
    // A stored route that names storedOnlyToken (the resolver's last resort).
    await db.insert(routeIntents).values(
      buildIntent(9999, {
        linkId: plain,
        toToken: storedOnlyToken,
        sourceTxHash: null,
        status: null,
        actions: [{ fromToken: ref('USDC', 6), toToken: { ...ref('STORED', 8), address: storedOnlyToken } }],
      }),
    )
    for (let copy = 0; copy < 3; copy++) {
      await db
        .insert(routeIntents)
        .values(rows.map((row, index) => buildIntent(copy * 100 + index, { linkId: plain, ...row })))
      const idOf = (index: number) => buildIntent(copy * 100 + index, {}).id
      await db.execute(sql`
        update route_intents set created_at = '2026-03-04 05:06:07.999999+00',
          completed_at = '2026-03-04 05:06:08.000500+00' where id = ${idOf(0)}`)
      await db.execute(sql`
        update route_intents set created_at = '2026-03-04 05:06:07.999999+00' where id = ${idOf(1)}`)
      await db.execute(sql`
        update route_intents set created_at = '2026-03-04 05:06:07.0005+00' where id = ${idOf(2)}`)
    }
  }, 120_000)
  afterAll(async () => {
    await database?.close()
  })

  it('writes, page after page, exactly the lines the payment history’s payments give', async () => {
    const context = createContext(database)
    let expected = `${paymentCsvColumns.join(',')}\r\n`
    let cursor: string | undefined
    do {
      const page = await listPaymentPage(database.db, filters, { cursor, limit: 4 }, context)
      expected += page.payments.map(toReferenceLine).join('')
      cursor = page.nextCursor ?? undefined
    } while (cursor !== undefined)
    for (const pageSize of [1, 4, 1000]) {
      let written = ''
      for await (const chunk of streamPaymentsCsv(database.db, filters, createContext(database), {
        pageSize,
      })) {
        written += chunk
      }
      expect(written, `pages of ${pageSize}`).toBe(expected)
    }
    // The rows above are all there, and the awkward ones came out escaped.
    expect(expected.split('\r\n').length).toBe(1 + 27 + 1)
    expect(expected).toContain(',"\'@Shop, ""the"" best\nline",')
    expect(expected).toContain('2026-03-04T05:06:07.999Z,2026-03-04T05:06:08.000Z,')
    expect(expected).toContain(`,${catalogueToken},'=CAT,0.000000000000000001,`)
  })
})

/** A payment row (route_intents) numbered `index`, success on Base USDC unless `patch` says otherwise. */
function buildIntent(
  index: number,
  patch: Partial<typeof routeIntents.$inferInsert>,
): typeof routeIntents.$inferInsert {
  const usdc = baseUsdc.toLowerCase()
  const usdcRef = { chainId: 8453, address: usdc, symbol: 'USDC', decimals: 6 }
  const createdAt = new Date(Date.UTC(2026, 2, 1) + index * 60_000)
  return {
    id: `0x${index.toString(16).padStart(64, '0')}`,
    provider: 'local',
    linkId: null,
    invoiceId: null,
    fromChainId: 8453,
    toChainId: 8453,
    fromToken: usdc,
    toToken: usdc,
    fromAmount: '1',
    toAmount: '1',
    toAmountMin: '1',
    fromAddress: `0x${(index + 1).toString(16).padStart(40, 'a')}`,
    toAddress: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    slippage: 1,
    transactionRequest: {},
    actions: [{ fromToken: usdcRef, toToken: usdcRef }],
    sourceTxHash: `0x${(index + 1).toString(16).padStart(64, 'b')}`,
    status: 'success',
    statusRaw: 'success',
    destTxHash: `0x${(index + 1).toString(16).padStart(64, 'c')}`,
    toAmountWei: '1000001',
    createdAt,
    completedAt: new Date(createdAt.getTime() + 30_000),
    updatedAt: createdAt,
    ...patch,
  }
}
