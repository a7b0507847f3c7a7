import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import {
  buildLinkBody,
  signInTestUser,
  type TestCaller,
  writeTestDeployment,
} from '../../../test/link-test-fixtures.ts'

describe('GET /api/pay/links/{slug}', () => {
  let testApp: TestApp
  let owner: TestCaller

  beforeAll(async () => {
    testApp = await buildTestApp()
    writeTestDeployment(testApp)
    owner = await signInTestUser(testApp)
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('returns only the public fields of an enabled link, signed out, ignoring the slug’s case', async () => {
    const created = await owner.request({
      method: 'POST',
      url: '/api/links',
      payload: buildLinkBody({
        alias: 'Band Merch',
        favorite: true,
        settings: '{"secret":1}',
        idempotency_key: 'k1',
      }),
    })
    const link = created.json().data
    const response = await testApp.app.inject({ method: 'GET', url: '/api/pay/links/BAND-merch' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      data: {
        id: link.id,
        link_type: 'Payment Link',
        alias: 'Band Merch',
        alias_slug: 'band-merch',
        receiver_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        chain: 'base',
        chain_id: 8453,
        token_name: 'USDC',
        token_address: link.token_address,
        message: 'Thanks for supporting!',
        // A link without a fixed amount lets the payer choose (docs/api.md#link-object).
        amount: null,
      },
    })
  })

  it('a disabled link is 404 "This link is unavailable.", like an unknown slug; enabling it again serves it', async () => {
    const created = await owner.request({
      method: 'POST',
      url: '/api/links',
      payload: buildLinkBody({ alias: 'Closed Shop', enabled: false }),
    })
    expect(created.statusCode).toBe(201)
    const unavailable = { error: { code: 'NOT_FOUND', message: 'This link is unavailable.' } }
    const disabled = await testApp.app.inject({ method: 'GET', url: '/api/pay/links/closed-shop' })
    expect(disabled.statusCode).toBe(404)
    expect(disabled.json()).toEqual(unavailable)
    const unknown = await testApp.app.inject({ method: 'GET', url: '/api/pay/links/no-such-link' })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toEqual(unavailable)

    await owner.request({
      method: 'PUT',
      url: `/api/links/${created.json().data.id}`,
      payload: { enabled: true },
    })
    const enabled = await testApp.app.inject({ method: 'GET', url: '/api/pay/links/closed-shop' })
    expect(enabled.statusCode).toBe(200)
  })

  it('a link disabled, edited or deleted after being read (and so cached) is answered anew by the very next read', async () => {
    const created = await owner.request({
      method: 'POST',
      url: '/api/links',
      payload: buildLinkBody({ alias: 'Hot Read' }),
    })
    const id = created.json().data.id
    const read = () => testApp.app.inject({ method: 'GET', url: '/api/pay/links/hot-read' })
    const unavailable = { error: { code: 'NOT_FOUND', message: 'This link is unavailable.' } }
    // Read twice: the second answer comes from the cache.
    expect((await read()).statusCode).toBe(200)
    expect((await read()).json().data.message).toBe('Thanks for supporting!')

    await owner.request({ method: 'PUT', url: `/api/links/${id}`, payload: { message: 'New words' } })
    expect((await read()).json().data.message).toBe('New words')

    await owner.request({ method: 'PUT', url: `/api/links/${id}`, payload: { enabled: false } })
    const disabled = await read()
    expect(disabled.statusCode).toBe(404)
    expect(disabled.json()).toEqual(unavailable)

    await owner.request({ method: 'PUT', url: `/api/links/${id}`, payload: { enabled: true } })
    expect((await read()).statusCode).toBe(200)
    expect((await read()).statusCode).toBe(200)
    const deleted = await owner.request({ method: 'DELETE', url: `/api/links/${id}` })
    expect(deleted.statusCode).toBe(200)
    const afterDelete = await read()
    expect(afterDelete.statusCode).toBe(404)
    expect(afterDelete.json()).toEqual(unavailable)
  })
})
