import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import {
  baseUsdc,
  buildLinkBody,
  signInTestUser,
  type TestCaller,
  writeTestDeployment,
} from '../../../test/link-test-fixtures.ts'
import { invoices, routeIntents } from '../../db/schema.ts'

let counter = 0
const uniqueAlias = () => `Invoices ${Date.now().toString(36)} ${++counter}`
const receiver = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

describe('/api/links/{id}/invoices, /api/invoices, /api/pay/invoices', () => {
  let testApp: TestApp
  let owner: TestCaller
  let stranger: TestCaller

  beforeAll(async () => {
    testApp = await buildTestApp()
    writeTestDeployment(testApp)
    owner = await signInTestUser(testApp)
    stranger = await signInTestUser(testApp)
  })
  afterAll(async () => {
    await testApp.close()
  })

  async function createLink(caller: TestCaller): Promise<{ id: string; alias_slug: string }> {
    const response = await caller.request({
      method: 'POST',
      url: '/api/links',
      payload: buildLinkBody({ alias: uniqueAlias() }),
    })
    expect(response.statusCode, response.body).toBe(201)
    return response.json().data
  }

  const createInvoice = (caller: TestCaller, linkId: string, payload: Record<string, unknown>) =>
    caller.request({ method: 'POST', url: `/api/links/${linkId}/invoices`, payload })

  it('creates an invoice in the link’s token: 201 with an unguessable id, its page URL and the defaults', async () => {
    const link = await createLink(owner)
    const before = Date.now()
    const response = await createInvoice(owner, link.id, {
      amount: '25.50',
      reference: ' order-17 ',
      memo: 'Two coffees',
    })
    expect(response.statusCode, response.body).toBe(201)
    const invoice = response.json().data
    expect(invoice).toEqual({
      id: expect.stringMatching(/^inv_[A-Za-z0-9_-]{22}$/),
      linkId: link.id,
      state: 'open',
      amount: '25.5',
      amountPaid: '0',
      toleranceBps: 0,
      token: { chainId: 8453, address: baseUsdc.toLowerCase(), symbol: 'USDC', decimals: 6 },
      receiverAddress: receiver,
      reference: 'order-17',
      memo: 'Two coffees',
      expiresAt: expect.any(String),
      monitorUntil: expect.any(String),
      paidAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      url: `http://localhost:3999/pay/${link.alias_slug}/${invoice.id}`,
    })
    const expiresAt = Date.parse(invoice.expiresAt)
    expect(expiresAt - before).toBeGreaterThanOrEqual(3_600_000 - 1000)
    expect(expiresAt - before).toBeLessThanOrEqual(3_600_000 + 5000)
    expect(Date.parse(invoice.monitorUntil) - expiresAt).toBe(24 * 3_600_000)
    const [row] = await testApp.database.db.select().from(invoices).where(eq(invoices.id, invoice.id))
    expect(row?.amountUnits).toBe('25500000')
  })

  it('refuses bad input with a sentence naming the field', async () => {
    const link = await createLink(owner)
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { amount: '1.0000001' },
        'amount',
        'amount: 1.0000001 has more decimals than USDC allows (6); round it to 6 decimal places',
      ],
      [{}, 'amount', 'amount: must be a decimal string such as "12.50"'],
      [{ amount: '0' }, 'amount', 'amount: must be more than zero'],
      [
        { amount: '1', expiresInSeconds: 30 },
        'expiresInSeconds',
        'expiresInSeconds: must be at least 60 seconds',
      ],
      [
        { amount: '1', expiresInSeconds: 31 * 86_400 },
        'expiresInSeconds',
        'expiresInSeconds: must be at most 2592000 seconds (30 days)',
      ],
      [{ amount: '1', toleranceBps: 10_001 }, 'toleranceBps', 'toleranceBps: must be at most 10000 (100%)'],
      [
        { amount: '1', toleranceBps: 1.5 },
        'toleranceBps',
        'toleranceBps: must be a whole number of basis points',
      ],
      [{ amount: '1', reference: 'x'.repeat(101) }, 'reference', 'reference: must be at most 100 characters'],
    ]
    for (const [payload, field, message] of cases) {
      const response = await createInvoice(owner, link.id, payload)
      expect(response.statusCode, JSON.stringify(payload)).toBe(422)
      expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', field, message })
    }
  })

  it('another user’s link or invoice is a 404, signed out is 401, and a write without CSRF is 403', async () => {
    const link = await createLink(owner)
    const foreign = await createInvoice(stranger, link.id, { amount: '1' })
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json().error.message).toBe('Link not found.')
    const invoice = (await createInvoice(owner, link.id, { amount: '1' })).json().data
    const read = await stranger.request({ method: 'GET', url: `/api/invoices/${invoice.id}` })
    expect(read.statusCode).toBe(404)
    expect(read.json().error.message).toBe('Invoice not found.')
    expect((await stranger.request({ method: 'GET', url: '/api/invoices' })).json().data).toEqual([])
    expect((await owner.request({ method: 'GET', url: '/api/invoices/inv_nope' })).statusCode).toBe(404)
    const signedOut = await testApp.app.inject({ method: 'GET', url: `/api/invoices/${invoice.id}` })
    expect(signedOut.statusCode).toBe(401)
    const noCsrf = await owner.request({
      method: 'POST',
      url: `/api/links/${link.id}/invoices`,
      payload: { amount: '1' },
      headers: { 'x-csrf-token': '' },
    })
    expect(noCsrf.statusCode).toBe(403)
    const mine = await owner.request({ method: 'GET', url: `/api/invoices/${invoice.id}` })
    expect(mine.json().data).toEqual(invoice)
  })

  it('lists the owner’s invoices newest first, by link and state, a page at a time', async () => {
    const caller = await signInTestUser(testApp)
    const first = await createLink(caller)
    const second = await createLink(caller)
    const made: string[] = []
    for (const [linkId, amount] of [
      [first.id, '1'],
      [second.id, '2'],
      [first.id, '3'],
      [first.id, '4'],
    ] as const) {
      made.push((await createInvoice(caller, linkId, { amount })).json().data.id)
    }
    await testApp.database.db
      .update(invoices)
      .set({ state: 'expired' })
      .where(eq(invoices.id, made[0] ?? ''))
    const all = await caller.request({ method: 'GET', url: '/api/invoices' })
    expect(all.json().data.map((invoice: { id: string }) => invoice.id)).toEqual([...made].reverse())
    expect(all.json().nextCursor).toBeNull()

    const ofFirst = await caller.request({ method: 'GET', url: `/api/invoices?linkId=${first.id}&limit=2` })
    expect(ofFirst.json().data.map((invoice: { id: string }) => invoice.id)).toEqual([made[3], made[2]])
    const cursor = ofFirst.json().nextCursor
    expect(cursor).toEqual(expect.any(String))
    const next = await caller.request({
      method: 'GET',
      url: `/api/invoices?linkId=${first.id}&limit=2&cursor=${cursor}`,
    })
    expect(next.json()).toMatchObject({ data: [{ id: made[0], state: 'expired' }], nextCursor: null })

    const expired = await caller.request({ method: 'GET', url: '/api/invoices?state=expired' })
    expect(expired.json().data.map((invoice: { id: string }) => invoice.id)).toEqual([made[0]])
    const badState = await caller.request({ method: 'GET', url: '/api/invoices?state=lost' })
    expect(badState.statusCode).toBe(422)
    expect(badState.json().error.field).toBe('state')
    const badCursor = await caller.request({ method: 'GET', url: '/api/invoices?cursor=nope' })
    expect(badCursor.json().error.message).toBe(
      'cursor: is not a cursor this list gave out; start again without it',
    )
    const badLimit = await caller.request({ method: 'GET', url: '/api/invoices?limit=500' })
    expect(badLimit.json().error.message).toBe('limit: must be a whole number from 1 to 100')
  })

  it('the payer’s read is public, hides the reference and says what is due; unknown ids and disabled links are 404', async () => {
    const link = await createLink(owner)
    const invoice = (
      await createInvoice(owner, link.id, { amount: '10', reference: 'secret-ref', memo: 'Table 4' })
    ).json().data
    const response = await testApp.app.inject({ method: 'GET', url: `/api/pay/invoices/${invoice.id}` })
    expect(response.statusCode).toBe(200)
    expect(response.json().data).toEqual({
      id: invoice.id,
      linkId: link.id,
      linkSlug: link.alias_slug,
      linkAlias: expect.any(String),
      state: 'open',
      amount: '10',
      amountPaid: '0',
      amountDue: '10',
      token: invoice.token,
      receiverAddress: receiver,
      memo: 'Table 4',
      expiresAt: invoice.expiresAt,
      url: invoice.url,
    })
    expect(response.body).not.toContain('secret-ref')
    const unknown = await testApp.app.inject({
      method: 'GET',
      url: '/api/pay/invoices/inv_AAAAAAAAAAAAAAAAAAAAAA',
    })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().error.message).toBe('This invoice is unavailable.')
    await owner.request({ method: 'PUT', url: `/api/links/${link.id}`, payload: { enabled: false } })
    const off = await testApp.app.inject({ method: 'GET', url: `/api/pay/invoices/${invoice.id}` })
    expect(off.statusCode).toBe(404)
  })

  it('a route naming an invoice must name its link, and the invoice must still take payments', async () => {
    const link = await createLink(owner)
    const other = await createLink(owner)
    const invoice = (await createInvoice(owner, link.id, { amount: '10' })).json().data
    const route = {
      fromChain: 8453,
      toChain: 8453,
      fromToken: baseUsdc,
      toToken: baseUsdc,
      fromAmount: '1000000',
      fromAddress: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
      toAddress: receiver,
      linkId: link.id,
      invoiceId: invoice.id,
    }
    const post = (body: Record<string, unknown>) =>
      owner.request({ method: 'POST', url: '/api/local/route', payload: body })
    // Without its link the route is refused as every route is (the link check comes first).
    const withoutLink = await post({ ...route, linkId: null })
    expect(withoutLink.json().error).toMatchObject({ field: 'linkId', code: 'VALIDATION_FAILED' })
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...route, invoiceId: 'inv_AAAAAAAAAAAAAAAAAAAAAA' }, 404, 'This invoice does not exist.'],
      [{ ...route, linkId: other.id }, 422, 'This invoice belongs to another link.'],
      [
        { ...route, invoiceId: 'inv_x' },
        422,
        'invoiceId must be an invoice id (inv_ followed by 22 characters).',
      ],
    ]
    for (const [body, status, message] of cases) {
      const response = await post(body)
      expect(response.statusCode, JSON.stringify(body)).toBe(status)
      expect(response.json().error).toMatchObject({ field: 'invoiceId', message })
    }
    const { db } = testApp.database
    for (const [state, message] of [
      ['paid', 'This invoice is already paid: it takes no more payments.'],
      ['paid_over', 'This invoice is already paid: it takes no more payments.'],
      ['paid_late', 'This invoice is already paid: it takes no more payments.'],
      ['refunded', 'This invoice was refunded: it takes no more payments.'],
    ] as const) {
      await db.update(invoices).set({ state }).where(eq(invoices.id, invoice.id))
      expect((await post(route)).json().error.message).toBe(message)
    }
    await db
      .update(invoices)
      .set({ state: 'expired', monitorUntil: new Date(Date.now() - 1000) })
      .where(eq(invoices.id, invoice.id))
    expect((await post(route)).json().error.message).toBe(
      'This invoice has expired: it takes no more payments.',
    )
    expect(await db.select().from(routeIntents).where(eq(routeIntents.invoiceId, invoice.id))).toEqual([])
  })
})
