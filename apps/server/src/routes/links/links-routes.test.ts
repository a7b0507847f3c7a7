import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import {
  avalancheUsdc,
  baseUsdc,
  buildLinkBody,
  nativeAddress,
  signInTestUser,
  type TestCaller,
  writeTestDeployment,
} from '../../../test/link-test-fixtures.ts'

type LinkJson = Record<string, unknown> & { id: string; alias_slug: string }

let slugCounter = 0
/** A slug no other test uses, so tests can share one app. */
function uniqueAlias(prefix = 'Link'): string {
  slugCounter += 1
  return `${prefix} ${Date.now().toString(36)} ${slugCounter}`
}

describe('/api/links', () => {
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

  async function createLink(caller: TestCaller, overrides: Record<string, unknown> = {}): Promise<LinkJson> {
    const response = await caller.request({
      method: 'POST',
      url: '/api/links',
      payload: buildLinkBody({ alias: uniqueAlias(), ...overrides }),
    })
    expect(response.statusCode, response.body).toBe(201)
    return response.json().data as LinkJson
  }

  it('creates a link with the defaults, a derived slug and a checksummed receiver', async () => {
    const response = await owner.request({
      method: 'POST',
      url: '/api/links',
      payload: {
        alias: '  My   Personal Page  ',
        receiver_address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
        token_address: baseUsdc,
      },
    })
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json().data).toEqual({
      id: expect.any(String),
      link_type: 'Payment Link',
      alias: 'My   Personal Page',
      alias_slug: 'my-personal-page',
      receiver_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      chain: 'base',
      chain_id: 8453,
      token_name: 'USDC',
      token_address: baseUsdc.toLowerCase(),
      message: '',
      amount: null,
      account_type: 'personal',
      enabled: true,
      favorite: false,
      notify_payments: true,
      settings: '{}',
      idempotency_key: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    })
  })

  it('accepts the native token (all-e or zero address) and a chain given by name or as a numeric string', async () => {
    const native = await createLink(owner, {
      chain: 'avalanche',
      chain_id: '43114',
      token_name: 'AVAX',
      token_address: nativeAddress,
    })
    expect(native).toMatchObject({ chain: 'avalanche', chain_id: 43114, token_name: 'AVAX' })
    const zero = await createLink(owner, {
      chain: 'avalanche',
      chain_id: undefined,
      token_name: undefined,
      token_address: '0x0000000000000000000000000000000000000000',
    })
    expect(zero).toMatchObject({ chain_id: 43114, token_name: 'AVAX' })
  })

  it('lists only the caller’s links, newest first', async () => {
    const first = await createLink(owner)
    const second = await createLink(owner)
    const foreign = await createLink(stranger)
    const response = await owner.request({ method: 'GET', url: '/api/links' })
    expect(response.statusCode).toBe(200)
    const ids = (response.json().data as LinkJson[]).map((link) => link.id)
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id))
    expect(ids).toContain(first.id)
    expect(ids).not.toContain(foreign.id)
    const theirs = await stranger.request({ method: 'GET', url: '/api/links' })
    expect((theirs.json().data as LinkJson[]).map((link) => link.id)).toEqual([foreign.id])
  })

  it('another user cannot read, update or delete a link: 404, and the link is untouched', async () => {
    const link = await createLink(owner)
    const notFound = { error: { code: 'NOT_FOUND', message: 'Link not found.' } }
    const read = await stranger.request({ method: 'GET', url: `/api/links/${link.id}` })
    expect(read.statusCode).toBe(404)
    expect(read.json()).toEqual(notFound)
    const update = await stranger.request({
      method: 'PUT',
      url: `/api/links/${link.id}`,
      payload: { alias: 'Hijacked', enabled: false },
    })
    expect(update.statusCode).toBe(404)
    expect(update.json()).toEqual(notFound)
    const removal = await stranger.request({ method: 'DELETE', url: `/api/links/${link.id}` })
    expect(removal.statusCode).toBe(404)
    expect(removal.json()).toEqual(notFound)

    const mine = await owner.request({ method: 'GET', url: `/api/links/${link.id}` })
    expect(mine.statusCode).toBe(200)
    expect(mine.json().data).toEqual(link)
  })

  it('an unknown or malformed id is 404', async () => {
    for (const id of ['5b0e5a2e-7d2f-4d36-9f54-6b4f0e4c1c11', 'not-a-uuid']) {
      const response = await owner.request({ method: 'GET', url: `/api/links/${id}` })
      expect(response.statusCode).toBe(404)
      expect(response.json().error.message).toBe('Link not found.')
    }
  })

  it('the same idempotency_key posted twice creates one link (201 then 200 with it)', async () => {
    const body = buildLinkBody({ alias: uniqueAlias(), idempotency_key: 'retry-1' })
    const first = await owner.request({ method: 'POST', url: '/api/links', payload: body })
    const second = await owner.request({ method: 'POST', url: '/api/links', payload: body })
    expect(first.statusCode).toBe(201)
    expect(second.statusCode).toBe(200)
    expect(second.json().data).toEqual(first.json().data)
    expect(first.json().data.idempotency_key).toBe('retry-1')
    const list = await owner.request({ method: 'GET', url: '/api/links' })
    expect(
      (list.json().data as LinkJson[]).filter((link) => link.idempotency_key === 'retry-1'),
    ).toHaveLength(1)
  })

  it('the same idempotency_key posted concurrently creates one link', async () => {
    const body = buildLinkBody({ alias: uniqueAlias(), idempotency_key: 'burst-1' })
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => owner.request({ method: 'POST', url: '/api/links', payload: body })),
    )
    const statuses = responses.map((response) => response.statusCode)
    expect(statuses.filter((status) => status === 201)).toHaveLength(1)
    expect(statuses.filter((status) => status === 200)).toHaveLength(4)
    expect(new Set(responses.map((response) => response.json().data.id)).size).toBe(1)
    const list = await owner.request({ method: 'GET', url: '/api/links' })
    expect(
      (list.json().data as LinkJson[]).filter((link) => link.idempotency_key === 'burst-1'),
    ).toHaveLength(1)
  })

  it('an idempotency key is per user: another user with the same key gets their own link', async () => {
    const mine = await createLink(owner, { idempotency_key: 'shared-key' })
    const theirs = await createLink(stranger, { idempotency_key: 'shared-key' })
    expect(theirs.id).not.toBe(mine.id)
  })

  it('a slug clash (any case) is 409 with a suggestion that is itself free', async () => {
    const alias = uniqueAlias('Tips')
    const taken = await createLink(owner, { alias })
    await createLink(stranger, { alias: `${alias}-x`, alias_slug: `${taken.alias_slug}-2` })

    const clash = await stranger.request({
      method: 'POST',
      url: '/api/links',
      payload: buildLinkBody({ alias: alias.toUpperCase() }),
    })
    expect(clash.statusCode).toBe(409)
    const suggestion = `${taken.alias_slug}-3`
    expect(clash.json()).toEqual({
      error: {
        code: 'CONFLICT',
        field: 'alias_slug',
        message: `The link name "${taken.alias_slug}" is taken. Try "${suggestion}".`,
        details: { suggestion },
      },
    })
    const retry = await stranger.request({
      method: 'POST',
      url: '/api/links',
      payload: buildLinkBody({ alias, alias_slug: suggestion }),
    })
    expect(retry.statusCode, retry.body).toBe(201)
    expect(retry.json().data.alias_slug).toBe(suggestion)
  })

  it('refuses reserved app names as slugs with 422', async () => {
    for (const payload of [
      buildLinkBody({ alias: 'Dashboard' }),
      buildLinkBody({ alias_slug: 'settings' }),
    ]) {
      const response = await owner.request({ method: 'POST', url: '/api/links', payload })
      expect(response.statusCode).toBe(422)
      expect(response.json().error.message).toMatch(/reserved/)
    }
  })

  it('gives a look-alike alias a slug of plain letters, or an error naming the character it cannot use', async () => {
    const suffix = uniqueAlias('').trim().replaceAll(' ', '-')
    // Full-width letters, an accent, a zero-width space and a right-to-left override.
    const plain = await createLink(owner, { alias: `Ｃａｆé\u200b Shop\u202e ${suffix}` })
    expect(plain.alias).toBe(`Café Shop ${suffix}`)
    expect(plain.alias_slug).toBe(`cafe-shop-${suffix}`)

    // "аlice" with a Cyrillic а would pass for "alice" in the address bar.
    const response = await owner.request({
      method: 'POST',
      url: '/api/links',
      payload: buildLinkBody({ alias: `\u0430lice ${suffix}` }),
    })
    expect(response.statusCode).toBe(422)
    expect(response.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'alias',
      message: 'alias: The link name cannot contain "а" (U+0430). Use letters a to z, digits and hyphens.',
    })
  })

  const badFields: [string, Record<string, unknown>][] = [
    ['alias', { alias: '  ab  ' }],
    ['alias', { alias: 'x'.repeat(65) }],
    ['alias', { alias: undefined }],
    ['alias_slug', { alias_slug: 'p\u0430y-me' }],
    ['alias_slug', { alias_slug: 'ab' }],
    ['receiver_address', { receiver_address: '0x1234' }],
    ['receiver_address', { receiver_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79c9' }],
    ['receiver_address', { receiver_address: undefined }],
    ['chain_id', { chain_id: 1 }],
    ['chain_id', { chain_id: 'abc' }],
    ['chain', { chain: 'avalanche' }],
    ['token_address', { token_address: 'usdc' }],
    ['token_address', { token_address: avalancheUsdc }],
    ['token_name', { token_name: 'USDT' }],
    ['message', { message: 'm'.repeat(281) }],
    ['message', { message: 'nul \u0000 byte' }],
    ['settings', { settings: '{not json' }],
    ['settings', { settings: '[1,2]' }],
    ['settings', { settings: JSON.stringify({ note: 'x'.repeat(2100) }) }],
    ['enabled', { enabled: 'yes' }],
    ['account_type', { account_type: 'Personal Account!' }],
    ['idempotency_key', { idempotency_key: 'k'.repeat(129) }],
  ]

  it.each(badFields)('bad %s is a 4xx naming the field (%j)', async (field, overrides) => {
    const response = await owner.request({
      method: 'POST',
      url: '/api/links',
      payload: buildLinkBody({ alias: uniqueAlias(), ...overrides }),
    })
    expect(response.statusCode).toBe(422)
    expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', field })
    expect(response.json().error.message).toMatch(new RegExp(`^${field}: `))
  })

  it('a 280-character message and 2 KB of settings are accepted and returned as sent', async () => {
    const message = '<b>hi</b> '.repeat(28)
    const settings = JSON.stringify({ theme: 'x'.repeat(2000) })
    const link = await createLink(owner, { message, settings })
    expect(link.message).toBe(message.trim())
    expect(link.settings).toBe(settings)
  })

  it('PUT updates the editable fields and keeps the rest', async () => {
    const link = await createLink(owner)
    const response = await owner.request({
      method: 'PUT',
      url: `/api/links/${link.id}`,
      payload: {
        ...link,
        alias: 'Renamed Page',
        message: 'New message',
        enabled: false,
        favorite: true,
        notify_payments: false,
        settings: '{"a":1}',
      },
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().data).toEqual({
      ...link,
      alias: 'Renamed Page',
      message: 'New message',
      enabled: false,
      favorite: true,
      notify_payments: false,
      settings: '{"a":1}',
      updated_at: expect.any(String),
    })
    const slugChange = await owner.request({
      method: 'PUT',
      url: `/api/links/${link.id}`,
      payload: { alias_slug: `${link.alias_slug}-new` },
    })
    expect(slugChange.json().data.alias_slug).toBe(`${link.alias_slug}-new`)
  })

  it('notify_payments (docs/api.md#notices) is set on create, switched by PUT, and must be a boolean', async () => {
    const silent = await createLink(owner, { notify_payments: false })
    expect(silent.notify_payments).toBe(false)
    const listed = await owner.request({ method: 'GET', url: '/api/links' })
    expect(listed.json().data.find((each: LinkJson) => each.id === silent.id)?.notify_payments).toBe(false)
    const on = await owner.request({
      method: 'PUT',
      url: `/api/links/${silent.id}`,
      payload: { notify_payments: true },
    })
    expect(on.statusCode, on.body).toBe(200)
    expect(on.json().data).toMatchObject({ notify_payments: true, alias: silent.alias })
    for (const request of [
      {
        method: 'POST' as const,
        url: '/api/links',
        payload: buildLinkBody({ alias: uniqueAlias(), notify_payments: 'no' }),
      },
      { method: 'PUT' as const, url: `/api/links/${silent.id}`, payload: { notify_payments: 1 } },
    ]) {
      const refused = await owner.request(request)
      expect(refused.statusCode, request.method).toBe(422)
      expect(refused.json().error.field).toBe('notify_payments')
    }
    const stored = await owner.request({ method: 'GET', url: `/api/links/${silent.id}` })
    expect(stored.json().data.notify_payments).toBe(true)
  })

  it('PUT cannot change receiver, chain or token (422 naming the field), nor take another link’s slug (409)', async () => {
    const link = await createLink(owner)
    const other = await createLink(stranger)
    const changes: [string, Record<string, unknown>][] = [
      ['receiver_address', { receiver_address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' }],
      ['chain', { chain: 'avalanche' }],
      ['chain_id', { chain_id: 43114 }],
      ['token_name', { token_name: 'USDT' }],
      ['token_address', { token_address: nativeAddress }],
      ['alias', { alias: 'no' }],
      ['message', { message: 'm'.repeat(281) }],
      ['id', { id: other.id }],
    ]
    for (const [field, payload] of changes) {
      const response = await owner.request({ method: 'PUT', url: `/api/links/${link.id}`, payload })
      expect(response.statusCode, field).toBe(422)
      expect(response.json().error.field).toBe(field)
    }
    const clash = await owner.request({
      method: 'PUT',
      url: `/api/links/${link.id}`,
      payload: { alias_slug: other.alias_slug.toUpperCase() },
    })
    expect(clash.statusCode).toBe(409)
    expect(clash.json().error.details.suggestion).toBe(`${other.alias_slug}-2`)
    const unchanged = await owner.request({ method: 'GET', url: `/api/links/${link.id}` })
    expect(unchanged.json().data).toEqual(link)
  })

  it('DELETE removes the link; a second delete is 404', async () => {
    const link = await createLink(owner)
    const response = await owner.request({ method: 'DELETE', url: `/api/links/${link.id}` })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ data: { id: link.id } })
    expect((await owner.request({ method: 'GET', url: `/api/links/${link.id}` })).statusCode).toBe(404)
    expect((await owner.request({ method: 'DELETE', url: `/api/links/${link.id}` })).statusCode).toBe(404)
  })

  it('signed-out requests are 401', async () => {
    const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'
    const id = '5b0e5a2e-7d2f-4d36-9f54-6b4f0e4c1c11'
    const requests = [
      { method: 'GET', url: '/api/links' },
      { method: 'POST', url: '/api/links', payload: buildLinkBody() },
      { method: 'GET', url: `/api/links/${id}` },
      { method: 'PUT', url: `/api/links/${id}`, payload: { alias: 'Whatever' } },
      { method: 'DELETE', url: `/api/links/${id}` },
    ] as const
    for (const request of requests) {
      const response = await testApp.app.inject({
        ...request,
        cookies: { csrf_token: csrf },
        headers: { 'x-csrf-token': csrf },
      })
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(401)
      expect(response.json().error.code).toBe('UNAUTHORIZED')
    }
  })

  it('CSRF applies: a signed-in POST without the header is 403 and creates nothing', async () => {
    const alias = uniqueAlias()
    const response = await owner.request({
      method: 'POST',
      url: '/api/links',
      payload: buildLinkBody({ alias }),
      headers: { 'x-csrf-token': '' },
    })
    expect(response.statusCode).toBe(403)
    expect(response.json().error.code).toBe('CSRF_INVALID')
    const list = await owner.request({ method: 'GET', url: '/api/links' })
    expect((list.json().data as LinkJson[]).some((link) => link.alias === alias)).toBe(false)
  })
})

describe('/api/links without a chain catalogue', () => {
  it('creating a link is 503 "No chains configured" when dev mode is off and no deployment exists', async () => {
    const testApp = await buildTestApp({ devMode: false })
    try {
      const owner = await signInTestUser(testApp)
      const response = await owner.request({ method: 'POST', url: '/api/links', payload: buildLinkBody() })
      expect(response.statusCode).toBe(503)
      expect(response.json().error.message).toMatch(/^No chains configured: /)
    } finally {
      await testApp.close()
    }
  })
})
