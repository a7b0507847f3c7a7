import { parse } from 'csv-parse/sync'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import {
  baseUsdc,
  signInTestUser,
  type TestCaller,
  writeTestDeployment,
} from '../../../test/link-test-fixtures.ts'
import {
  describeTestPayment,
  insertTestLink,
  insertTestPayments,
} from '../../../test/payment-history-fixtures.ts'
import { invoices, routeIntents } from '../../db/schema.ts'

type PaymentJson = Record<string, unknown> & { intentId: string; linkId: string; state: string }
type ListJson = {
  data: PaymentJson[]
  nextCursor: string | null
  totals: { amount: string; symbol: string }[]
}

const ownerCount = 30
const formulaName = "=cmd|' /C calc'!A0"

/** The sum of what the successful payments among `indexes` delivered, in USDC units, plus `extra`. */
function sumDelivered(indexes: number[], extra = 0n): string {
  const units = indexes
    .map(describeTestPayment)
    .filter((payment) => payment.state === 'success')
    .reduce((sum, payment) => sum + BigInt(payment.toAmountWei ?? 0), extra)
  const whole = units / 1_000_000n
  const fraction = (units % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '')
  return fraction === '' ? String(whole) : `${whole}.${fraction}`
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => from + index)

describe('/api/payments', () => {
  let testApp: TestApp
  let owner: TestCaller
  let stranger: TestCaller
  let shopLink: string
  let formulaLink: string
  let strangerLink: string
  const invoiceId = 'inv_AAAAAAAAAAAAAAAAAAAAAA'

  beforeAll(async () => {
    // Dev mode: the devnet's chains have no explorer, so links go to the dev explorer.
    testApp = await buildTestApp({ devMode: true })
    writeTestDeployment(testApp)
    owner = await signInTestUser(testApp)
    stranger = await signInTestUser(testApp)
    const db = testApp.database.db
    shopLink = await insertTestLink(db, { userId: owner.userId, alias: 'Shop' })
    formulaLink = await insertTestLink(db, { userId: owner.userId, alias: formulaName })
    strangerLink = await insertTestLink(db, { userId: stranger.userId, alias: 'Elsewhere' })
    await db.insert(invoices).values({
      id: invoiceId,
      linkId: shopLink,
      userId: owner.userId,
      chainId: 8453,
      tokenAddress: baseUsdc.toLowerCase(),
      tokenSymbol: 'USDC',
      tokenDecimals: 6,
      receiverAddress: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      amount: '5',
      amountUnits: '5000000',
      expiresAt: new Date('2026-02-01T00:00:00Z'),
      monitorUntil: new Date('2026-02-02T00:00:00Z'),
    })
    // Owner: 0-29 (even on Shop, odd on the formula link; 0-4 pay the invoice); stranger: 30-34.
    await insertTestPayments(db, {
      count: ownerCount,
      linkIdOf: (index) => (index % 2 === 0 ? shopLink : formulaLink),
      invoiceIdOf: (index) => (index < 5 ? invoiceId : null),
    })
    await insertTestPayments(db, { from: ownerCount, count: 5, linkIdOf: () => strangerLink })
    // A quoted route nobody paid (no source transaction): not a payment.
    const unpaid = describeTestPayment(99)
    await db.insert(routeIntents).values({
      id: unpaid.id,
      provider: 'local',
      linkId: shopLink,
      fromChainId: 8453,
      toChainId: 8453,
      fromToken: unpaid.fromToken,
      toToken: unpaid.toToken,
      fromAmount: '1',
      toAmount: '1',
      toAmountMin: '1',
      fromAddress: unpaid.payer,
      toAddress: unpaid.payer,
      slippage: 1,
      transactionRequest: {},
      actions: [],
    })
  })
  afterAll(async () => {
    await testApp.close()
  })

  async function list(caller: TestCaller, query = ''): Promise<ListJson> {
    const response = await caller.request({ method: 'GET', url: `/api/payments${query}` })
    expect(response.statusCode, response.body).toBe(200)
    return response.json() as ListJson
  }

  it('answers 401 when signed out', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/payments' })
    expect(response.statusCode).toBe(401)
  })

  it("lists only the caller's paid payments, newest first, each with its hashes, tokens and amounts", async () => {
    const body = await list(owner)
    expect(body.data.map((payment) => payment.intentId)).toEqual(
      range(0, ownerCount)
        .reverse()
        .map((index) => describeTestPayment(index).id),
    )
    expect(body.nextCursor).toBeNull()
    const bridge = describeTestPayment(29)
    expect(body.data[0]).toEqual({
      intentId: bridge.id,
      linkId: formulaLink,
      linkName: formulaName,
      invoiceId: null,
      state: 'failed',
      payer: bridge.payer,
      sourceChainId: 43114,
      sourceTxHash: bridge.sourceTxHash,
      sourceTxUrl: `http://localhost:3999/api/dev/chains/43114/tx/${bridge.sourceTxHash}`,
      fromToken: { address: bridge.fromToken, symbol: 'USDC', decimals: 6 },
      amountIn: '1.000029',
      destChainId: 8453,
      destTxHash: null,
      destTxUrl: null,
      toToken: { address: baseUsdc.toLowerCase(), symbol: 'USDC', decimals: 6 },
      amountReceived: null,
      routeKind: 'bridge',
      provider: 'local',
      createdAt: bridge.createdAt.toISOString(),
      completedAt: new Date(bridge.createdAt.getTime() + 30_000).toISOString(),
    })
    const transfer = body.data.find((payment) => payment.intentId === describeTestPayment(3).id)
    expect(transfer).toMatchObject({ routeKind: 'transfer', state: 'success', amountReceived: '0.990003' })
    expect(body.data.find((payment) => payment.intentId === describeTestPayment(25).id)).toMatchObject({
      routeKind: 'swap',
      fromToken: { symbol: 'USDT' },
    })
    expect(body.totals).toEqual([
      {
        chainId: 8453,
        token: baseUsdc.toLowerCase(),
        symbol: 'USDC',
        amount: sumDelivered(range(0, ownerCount)),
      },
    ])
    const strangers = await list(stranger)
    expect(strangers.data.map((payment) => payment.intentId)).toEqual(
      range(ownerCount, ownerCount + 5)
        .reverse()
        .map((index) => describeTestPayment(index).id),
    )
  })

  it('walks every payment exactly once through cursor pages', async () => {
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const body: ListJson = await list(owner, `?limit=7${cursor === null ? '' : `&cursor=${cursor}`}`)
      expect(body.data.length).toBeLessThanOrEqual(7)
      seen.push(...body.data.map((payment) => payment.intentId))
      cursor = body.nextCursor
      pages += 1
    } while (cursor !== null)
    expect(pages).toBe(5)
    expect(seen).toEqual(
      range(0, ownerCount)
        .reverse()
        .map((index) => describeTestPayment(index).id),
    )
  })

  it('filters by link, invoice, state, destination chain and token, and date range, with matching totals', async () => {
    const shop = await list(owner, `?linkId=${shopLink}`)
    const even = range(0, ownerCount).filter((index) => index % 2 === 0)
    expect(shop.data.map((payment) => payment.linkId)).toEqual(even.map(() => shopLink))
    expect(shop.totals[0]?.amount).toBe(sumDelivered(even))

    const invoiced = await list(owner, `?invoiceId=${invoiceId}`)
    expect(invoiced.data.map((payment) => payment.intentId).sort()).toEqual(
      range(0, 5).map((index) => describeTestPayment(index).id),
    )
    expect(invoiced.totals[0]?.amount).toBe(sumDelivered(range(0, 5)))

    const bridging = await list(owner, '?state=bridging')
    expect(bridging.data.map((payment) => payment.intentId)).toEqual(
      [28, 18, 8].map((index) => describeTestPayment(index).id),
    )
    expect(bridging.totals).toEqual([])

    expect((await list(owner, '?chainId=8453')).data).toHaveLength(ownerCount)
    expect((await list(owner, '?chainId=43114')).data).toEqual([])
    expect((await list(owner, `?token=${baseUsdc}`)).data).toHaveLength(ownerCount)
    expect((await list(owner, '?token=0x0000000000000000000000000000000000000001')).data).toEqual([])

    // Payment i is made i seconds after the first: [10 s, 20 s) holds 10 to 19.
    const from = describeTestPayment(10).createdAt.toISOString()
    const to = describeTestPayment(20).createdAt.toISOString()
    const window = await list(owner, `?from=${from}&to=${to}`)
    expect(window.data.map((payment) => payment.intentId)).toEqual(
      range(10, 20)
        .reverse()
        .map((index) => describeTestPayment(index).id),
    )
    expect(window.totals[0]?.amount).toBe(sumDelivered(range(10, 20)))
    // A date alone is a whole UTC day.
    expect((await list(owner, '?from=2026-01-01&to=2026-01-01')).data).toHaveLength(ownerCount)
    expect((await list(owner, '?from=2026-01-02')).data).toEqual([])
  })

  it('counts a payment once it becomes final, whole days from the daily totals and the cut days from the payments', async () => {
    const merchant = await signInTestUser(testApp)
    const db = testApp.database.db
    const link = await insertTestLink(db, { userId: merchant.userId, alias: 'Days' })
    const day = 24 * 60 * 60
    // Three payments at the start of 3 January, two at the start of 4 January, one bridging.
    const jan3 = range(2 * day, 2 * day + 3)
    const jan4 = range(3 * day, 3 * day + 2)
    const bridging = 3 * day + 8
    for (const indexes of [jan3, jan4, [bridging]]) {
      await insertTestPayments(db, { from: indexes[0], count: indexes.length, linkIdOf: () => link })
    }
    expect((await list(merchant)).totals[0]?.amount).toBe(sumDelivered([...jan3, ...jan4]))
    // 2 January 12:00 to 4 January 00:00:01: all of 3 January (a whole day) and 4 January's first second.
    const cut = await list(merchant, '?from=2026-01-02T12:00:00Z&to=2026-01-04T00:00:01Z')
    expect(cut.data).toHaveLength(4)
    expect(cut.totals[0]?.amount).toBe(sumDelivered([...jan3, 3 * day]))
    expect((await list(merchant, '?from=2026-01-04')).totals[0]?.amount).toBe(sumDelivered(jan4))

    // The bridging payment arrives and becomes final: the totals follow.
    await db
      .update(routeIntents)
      .set({ status: 'success', toAmountWei: '5000000', finalAt: new Date() })
      .where(eq(routeIntents.id, describeTestPayment(bridging).id))
    const after = await list(merchant, '?from=2026-01-04')
    expect(after.totals[0]?.amount).toBe(sumDelivered(jan4, 5_000_000n))
  })

  it("answers 404 for another user's link id and never shows their payments by invoice", async () => {
    const response = await owner.request({ method: 'GET', url: `/api/payments?linkId=${strangerLink}` })
    expect(response.statusCode).toBe(404)
    expect(response.json().error.code).toBe('NOT_FOUND')
    const exported = await owner.request({
      method: 'GET',
      url: `/api/payments/export.csv?linkId=${strangerLink}`,
    })
    expect(exported.statusCode).toBe(404)
    expect((await list(stranger, `?invoiceId=${invoiceId}`)).data).toEqual([])
  })

  it('refuses a cursor it did not hand out and a limit above 200', async () => {
    const badCursor = await owner.request({ method: 'GET', url: '/api/payments?cursor=bm90LWEtY3Vyc29y' })
    expect(badCursor.statusCode).toBe(422)
    expect(badCursor.json().error.field).toBe('cursor')
    const tooMany = await owner.request({ method: 'GET', url: '/api/payments?limit=201' })
    expect(tooMany.statusCode).toBeGreaterThanOrEqual(400)
    expect(tooMany.statusCode).toBeLessThan(500)
  })

  it('exports the filtered payments as an attachment whose formula-like cells are escaped', async () => {
    const response = await owner.request({
      method: 'GET',
      url: `/api/payments/export.csv?linkId=${formulaLink}`,
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename=payments-\d{4}-\d{2}-\d{2}\.csv$/,
    )
    const records = parse(response.body, { columns: true }) as Record<string, string>[]
    const odd = range(0, ownerCount).filter((index) => index % 2 === 1)
    expect(records.map((record) => record.intent_id)).toEqual(
      odd.reverse().map((index) => describeTestPayment(index).id),
    )
    expect(new Set(records.map((record) => record.link_name))).toEqual(new Set([`'${formulaName}`]))
    expect(records[0]).toMatchObject({
      state: 'failed',
      amount_in: '1.000029',
      amount_received: '',
      route_kind: 'bridge',
    })
  })
})
