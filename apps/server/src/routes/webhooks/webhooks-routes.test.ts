import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ApiKeyScope } from '@quicklinks/core/api/api-keys'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import {
  buildLinkBody,
  signInTestUser,
  type TestCaller,
  writeTestDeployment,
} from '../../../test/link-test-fixtures.ts'

type Received = { headers: IncomingHttpHeaders; body: string }

/**
 * /api/webhooks as a merchant and an attacker use it: endpoints made with a secret shown once,
 * deliveries of link events signed per Standard Webhooks, the log, test events and redeliveries,
 * API-key scopes, other users' endpoints, and addresses webhooks may not reach.
 */
describe('/api/webhooks', () => {
  let devApp: TestApp
  let prodApp: TestApp
  let owner: TestCaller
  let stranger: TestCaller
  let prodOwner: TestCaller
  let receiver: Server
  let receiverUrl: string
  const received: Received[] = []
  let status = 200

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString() })
        response.writeHead(status)
        response.end(status === 200 ? 'thanks' : 'nope')
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
    // Dev mode lets the receiver on loopback be reached; production mode is the attacker's view.
    devApp = await buildTestApp({ devMode: true, workerIntervalMs: 100 }, { startWorkers: true })
    writeTestDeployment(devApp)
    prodApp = await buildTestApp({ devMode: false })
    owner = await signInTestUser(devApp)
    stranger = await signInTestUser(devApp)
    prodOwner = await signInTestUser(prodApp)
  }, 60_000)
  afterAll(async () => {
    await Promise.all([devApp?.close(), prodApp?.close()])
    receiver.closeAllConnections()
    await new Promise<void>((resolve) => receiver.close(() => resolve()))
  })

  async function makeKey(caller: TestCaller, scopes: ApiKeyScope[]): Promise<string> {
    const response = await caller.request({
      method: 'POST',
      url: '/api/api-keys',
      payload: { name: 'Shop', scopes },
    })
    expect(response.statusCode, response.body).toBe(201)
    return (response.json().data as { key: string }).key
  }

  const withKey = (key: string, method: string, url: string, payload?: Record<string, unknown>) =>
    devApp.app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${key}` },
      ...(payload === undefined ? {} : { payload }),
    })

  it('makes an endpoint with a whsec_ secret shown once, and delivers link events signed with it', async () => {
    const created = await owner.request({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: receiverUrl, events: ['link.created', 'link.deleted'], description: 'Shop' },
    })
    expect(created.statusCode, created.body).toBe(201)
    const endpoint = created.json().data as { id: string; secret: string; enabled: boolean; events: string[] }
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(endpoint).toMatchObject({ enabled: true, events: ['link.created', 'link.deleted'] })
    const list = await owner.request({ method: 'GET', url: '/api/webhooks' })
    expect(list.body).not.toContain(endpoint.secret)
    const one = await owner.request({ method: 'GET', url: `/api/webhooks/${endpoint.id}` })
    expect(one.statusCode).toBe(200)
    expect(one.body).not.toContain(endpoint.secret)

    const link = await owner.request({
      method: 'POST',
      url: '/api/links',
      payload: buildLinkBody({ alias: 'Hooked link' }),
    })
    expect(link.statusCode, link.body).toBe(201)
    const linkId = (link.json().data as { id: string }).id
    await expect.poll(() => received.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1)
    const delivery = received.at(-1) as Received
    const payload = new Webhook(endpoint.secret).verify(
      delivery.body,
      delivery.headers as Record<string, string>,
    )
    expect(payload).toMatchObject({ type: 'link.created', data: { id: linkId, alias: 'Hooked link' } })
    expect(delivery.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{22}$/)

    // Not subscribed to link.updated: nothing is sent for it.
    const count = received.length
    await owner.request({ method: 'PUT', url: `/api/links/${linkId}`, payload: { alias: 'Renamed' } })
    await owner.request({ method: 'DELETE', url: `/api/links/${linkId}` })
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(count + 1)
    expect(JSON.parse(received.at(-1)?.body ?? '{}')).toMatchObject({
      type: 'link.deleted',
      data: { id: linkId },
    })
  })

  it('sends a test event, logs it, and redelivers it with the same webhook-id', async () => {
    const endpoint = (
      await owner.request({
        method: 'POST',
        url: '/api/webhooks',
        payload: { url: receiverUrl, events: ['invoice.paid'] },
      })
    ).json().data as { id: string; secret: string }
    status = 500
    const test = await owner.request({ method: 'POST', url: `/api/webhooks/${endpoint.id}/test` })
    expect(test.statusCode, test.body).toBe(202)
    const queued = test.json().data as { id: string; eventId: string; eventType: string; state: string }
    expect(queued).toMatchObject({ eventType: 'webhook.test', state: 'pending' })
    const logUrl = `/api/webhooks/${endpoint.id}/deliveries`
    await expect
      .poll(
        async () => (await owner.request({ method: 'GET', url: logUrl })).json().data[0]?.attemptLog.length,
        {
          timeout: 10_000,
        },
      )
      .toBe(1)
    status = 200
    const again = await owner.request({
      method: 'POST',
      url: `/api/webhooks/${endpoint.id}/deliveries/${queued.id}/redeliver`,
    })
    expect(again.statusCode, again.body).toBe(202)
    await expect
      .poll(async () => (await owner.request({ method: 'GET', url: logUrl })).json().data[0]?.state, {
        timeout: 10_000,
      })
      .toBe('succeeded')
    const log = (await owner.request({ method: 'GET', url: logUrl })).json().data[0] as {
      attemptLog: { attempt: number; statusCode: number; responseExcerpt: string }[]
    }
    expect(log.attemptLog.map((each) => [each.attempt, each.statusCode, each.responseExcerpt])).toEqual([
      [2, 200, 'thanks'],
      [1, 500, 'nope'],
    ])
    const tries = received.filter((each) => each.headers['webhook-id'] === queued.eventId)
    expect(tries).toHaveLength(2)
    for (const each of tries) {
      expect(
        new Webhook(endpoint.secret).verify(each.body, each.headers as Record<string, string>),
      ).toMatchObject({
        type: 'webhook.test',
      })
    }
  })

  it('exports the queue depth, the lag and the outcomes of tries to Prometheus', async () => {
    const text = (await devApp.app.inject({ method: 'GET', url: '/metrics' })).body
    const sample = (name: string) =>
      Number(
        text
          .split('\n')
          .find((line) => line.startsWith(`${name} `))
          ?.split(' ')[1],
      )
    expect(sample('ql_webhook_deliveries{state="succeeded"}')).toBeGreaterThanOrEqual(2)
    expect(sample('ql_webhook_deliveries{state="pending"}')).toBe(0)
    expect(sample('ql_webhook_attempts_last_hour{outcome="2xx"}')).toBeGreaterThanOrEqual(2)
    expect(sample('ql_webhook_attempts_last_hour{outcome="5xx"}')).toBeGreaterThanOrEqual(1)
    expect(sample('ql_worker_lag_seconds{worker="webhooks"}')).toBe(0)
  })

  it("rotates the secret (shown once), and refuses another user's endpoint with 404", async () => {
    const endpoint = (
      await owner.request({
        method: 'POST',
        url: '/api/webhooks',
        payload: { url: receiverUrl, events: ['link.created'] },
      })
    ).json().data as { id: string; secret: string }
    const rotated = await owner.request({ method: 'POST', url: `/api/webhooks/${endpoint.id}/rotate-secret` })
    expect(rotated.statusCode).toBe(200)
    expect((rotated.json().data as { secret: string }).secret).not.toBe(endpoint.secret)
    for (const [method, url] of [
      ['GET', `/api/webhooks/${endpoint.id}`],
      ['PUT', `/api/webhooks/${endpoint.id}`],
      ['DELETE', `/api/webhooks/${endpoint.id}`],
      ['POST', `/api/webhooks/${endpoint.id}/test`],
      ['POST', `/api/webhooks/${endpoint.id}/rotate-secret`],
      ['GET', `/api/webhooks/${endpoint.id}/deliveries`],
    ] as const) {
      const answer = await stranger.request({
        method,
        url,
        ...(method === 'PUT' ? { payload: { enabled: false } } : {}),
      })
      expect(answer.statusCode, `${method} ${url}`).toBe(404)
    }
    const still = await owner.request({ method: 'GET', url: `/api/webhooks/${endpoint.id}` })
    expect(still.json().data).toMatchObject({ enabled: true })
    const paused = await owner.request({
      method: 'PUT',
      url: `/api/webhooks/${endpoint.id}`,
      payload: { enabled: false },
    })
    expect(paused.json().data).toMatchObject({ enabled: false })
    const refused = await owner.request({ method: 'POST', url: `/api/webhooks/${endpoint.id}/test` })
    expect(refused.statusCode).toBe(409)
    expect(refused.json().error.message).toBe('This endpoint is paused: resume it first.')
  })

  it('answers API keys by scope: payments:read reads payments but cannot write links or webhooks', async () => {
    const reader = await makeKey(owner, ['payments:read'])
    expect((await withKey(reader, 'GET', '/api/payments')).statusCode).toBe(200)
    expect((await withKey(reader, 'POST', '/api/links', buildLinkBody({ alias: 'Nope' }))).statusCode).toBe(
      403,
    )
    expect((await withKey(reader, 'GET', '/api/webhooks')).statusCode).toBe(403)
    expect(
      (await withKey(reader, 'POST', '/api/webhooks', { url: receiverUrl, events: ['link.created'] }))
        .statusCode,
    ).toBe(403)
    const hooks = await makeKey(owner, ['webhooks:write'])
    const made = await withKey(hooks, 'POST', '/api/webhooks', {
      url: receiverUrl,
      events: ['payment.succeeded'],
    })
    expect(made.statusCode, made.body).toBe(201)
    expect((await withKey(hooks, 'GET', '/api/webhooks')).statusCode).toBe(200)
  })

  it('refuses loopback, private, metadata and http endpoints, and names resolving to loopback, outside dev mode', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://localhost/hook',
      'http://93.184.216.34/hook',
    ]) {
      const answer = await prodOwner.request({
        method: 'POST',
        url: '/api/webhooks',
        payload: { url, events: ['payment.succeeded'] },
      })
      expect(answer.statusCode, url).toBe(422)
      expect(answer.json().error.message, url).toMatch(/https|private or local/)
    }
    const fine = await prodOwner.request({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: 'https://93.184.216.34/hook', events: ['payment.succeeded'] },
    })
    expect(fine.statusCode, fine.body).toBe(201)
    const id = (fine.json().data as { id: string }).id
    const moved = await prodOwner.request({
      method: 'PUT',
      url: `/api/webhooks/${id}`,
      payload: { url: 'https://192.168.1.1/' },
    })
    expect(moved.statusCode).toBe(422)
    for (const payload of [
      { url: 'ftp://example.com/', events: ['link.created'] },
      { url: 'https://example.com/', events: [] },
      { url: 'https://example.com/', events: ['payment.stolen'] },
    ]) {
      const bad = await prodOwner.request({ method: 'POST', url: '/api/webhooks', payload })
      expect(bad.statusCode, JSON.stringify(payload)).toBe(422)
    }
  })
})
