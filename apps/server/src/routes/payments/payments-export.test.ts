import { Readable } from 'node:stream'
import { paymentCsvColumns } from '@quicklinks/core/api/payments'
import { parse } from 'csv-parse'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { signInTestUser, type TestCaller, writeTestDeployment } from '../../../test/link-test-fixtures.ts'
import {
  describeTestPayment,
  insertTestLink,
  insertTestPayments,
} from '../../../test/payment-history-fixtures.ts'
import { paymentCsvPageSize } from '../../services/payments/history/stream-payments-csv.ts'

const paymentCount = 10_000
const formulaName = "=cmd|' /C calc'!A0"
/**
 * The most rows one query may hand the server: a tenth of the export. A server that read the
 * whole history at once (or in pages of thousands) fails this.
 */
const rowsPerQueryCeiling = 1_001

function formatUsdc(units: string): string {
  const value = BigInt(units)
  const fraction = (value % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '')
  return fraction === '' ? String(value / 1_000_000n) : `${value / 1_000_000n}.${fraction}`
}

describe('GET /api/payments/export.csv with 10,000 payments', () => {
  let testApp: TestApp
  let owner: TestCaller
  let origin: string
  let linkId: string
  /** Rows each query on route_intents answered, in order. */
  const rowsPerQuery: number[] = []

  beforeAll(async () => {
    testApp = await buildTestApp()
    writeTestDeployment(testApp)
    owner = await signInTestUser(testApp)
    linkId = await insertTestLink(testApp.database.db, { userId: owner.userId, alias: formulaName })
    await insertTestPayments(testApp.database.db, { count: paymentCount, linkIdOf: () => linkId })
    if (testApp.database.kind !== 'pglite') throw new Error('expected PGlite')
    // Counts what the database hands the server per history query: the server holds no more.
    const pglite = testApp.database.pglite
    const query = pglite.query.bind(pglite)
    pglite.query = (async (...args: Parameters<typeof query>) => {
      const result = await query(...args)
      if (/from "route_intents" inner join "links"/.test(String(args[0])))
        rowsPerQuery.push(result.rows.length)
      return result
    }) as typeof pglite.query
    origin = await testApp.app.listen({ port: 0, host: '127.0.0.1' })
  }, 120_000)
  afterAll(async () => {
    await testApp.close()
  })

  it('streams every payment a page at a time, sending before it has read them all, and parses back to the same rows', async () => {
    const response = await fetch(`${origin}/api/payments/export.csv`, {
      headers: { cookie: `ql_session=${owner.sessionToken}` },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename=payments-\d{4}-\d{2}-\d{2}\.csv$/,
    )
    if (response.body === null) throw new Error('no body')
    // Streamed: the first bytes reach the client before the server has read every payment (a
    // buffered export would read all 10,000 before sending any). How far the server then reads
    // ahead of a client that holds back depends on the kernel's socket buffers (on loopback they
    // hold the whole 4 MB export), so that is not asserted; each read holding one page is.
    const reader = response.body.getReader()
    const first = await reader.read()
    const rowsReadAtFirstChunk = rowsPerQuery.reduce((sum, rows) => sum + rows, 0)
    async function* remainingChunks() {
      if (first.value !== undefined) yield first.value
      for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value
    }
    const parser = Readable.from(remainingChunks()).pipe(parse({ columns: true }))
    let count = 0
    let header: string[] | undefined
    for await (const record of parser as AsyncIterable<Record<string, string>>) {
      header ??= Object.keys(record)
      // Newest first: the n-th row is payment 9,999 − n, checked as it arrives (nothing kept).
      const payment = describeTestPayment(paymentCount - 1 - count)
      expect(record).toEqual({
        created_at: payment.createdAt.toISOString(),
        completed_at:
          payment.state === 'bridging' ? '' : new Date(payment.createdAt.getTime() + 30_000).toISOString(),
        state: payment.state,
        link_id: linkId,
        link_name: `'${formulaName}`,
        invoice_id: '',
        payer: payment.payer,
        route_kind: payment.kind,
        provider: 'local',
        source_chain_id: String(payment.fromChainId),
        source_tx_hash: payment.sourceTxHash,
        from_token: payment.fromToken,
        from_symbol: payment.fromSymbol,
        amount_in: formatUsdc(payment.fromAmount),
        dest_chain_id: String(payment.toChainId),
        dest_tx_hash: payment.destTxHash ?? '',
        to_token: payment.toToken,
        to_symbol: 'USDC',
        amount_received: payment.toAmountWei === null ? '' : formatUsdc(payment.toAmountWei),
        intent_id: payment.id,
      })
      count += 1
    }
    expect(header).toEqual([...paymentCsvColumns])
    expect(count).toBe(paymentCount)
    // Constant memory: the server held one page of rows at a time (a page and the one row that
    // tells whether another follows), and read ahead of the client by a few pages at most.
    expect(rowsPerQuery.reduce((sum, rows) => sum + rows, 0)).toBeGreaterThanOrEqual(paymentCount)
    expect(Math.max(...rowsPerQuery)).toBeLessThanOrEqual(
      Math.min(paymentCsvPageSize + 1, rowsPerQueryCeiling),
    )
    expect(rowsReadAtFirstChunk).toBeLessThan(paymentCount)
  }, 120_000)
})
