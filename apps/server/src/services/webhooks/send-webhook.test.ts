import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendWebhook } from './send-webhook.ts'
import { signWebhook } from './sign-webhook.ts'

const secret = `whsec_${Buffer.from('a'.repeat(32)).toString('base64')}`
const newSecret = `whsec_${Buffer.from('b'.repeat(32)).toString('base64')}`

type Received = { headers: Record<string, string>; body: string }

describe('a signed webhook delivery, as an independent receiver checks it', () => {
  let server: Server
  let origin: string
  const received: Received[] = []
  let answer: (url: string | undefined) => { status: number; body: string; delayMs?: number } = () => ({
    status: 200,
    body: 'ok',
  })

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        received.push({
          headers: request.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString(),
        })
        const { status, body, delayMs } = answer(request.url)
        setTimeout(() => {
          response.writeHead(status, status >= 300 && status < 400 ? { location: 'http://127.0.0.1:1/' } : {})
          response.end(body)
        }, delayMs ?? 0)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const deliver = async (body: string, secrets: string[], timestamp = new Date()) => {
    const headers = signWebhook({ id: 'msg_test1', timestamp, body, secrets })
    const result = await sendWebhook({ url: `${origin}/hook`, body, headers, isAllowingPrivate: true })
    return { result, got: received.at(-1) as Received }
  }

  it('verifies with the standardwebhooks package; a tampered body, another secret or an old timestamp do not', async () => {
    const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: {} })
    const { result, got } = await deliver(body, [secret])
    expect(result).toMatchObject({ statusCode: 200, responseExcerpt: 'ok', error: null })
    expect(new Webhook(secret).verify(got.body, got.headers)).toEqual(JSON.parse(body))
    expect(got.headers['webhook-id']).toBe('msg_test1')

    expect(() => new Webhook(secret).verify(`${got.body} `, got.headers)).toThrow()
    expect(() => new Webhook(newSecret).verify(got.body, got.headers)).toThrow()
    const old = await deliver(body, [secret], new Date(Date.now() - 10 * 60_000))
    expect(() => new Webhook(secret).verify(old.got.body, old.got.headers)).toThrow(/timestamp/i)
  })

  it('signs with both secrets during a rotation, so either verifies', async () => {
    const body = '{"type":"webhook.test"}'
    const { got } = await deliver(body, [newSecret, secret])
    expect(got.headers['webhook-signature']?.split(' ')).toHaveLength(2)
    expect(new Webhook(secret).verify(got.body, got.headers)).toEqual({ type: 'webhook.test' })
    expect(new Webhook(newSecret).verify(got.body, got.headers)).toEqual({ type: 'webhook.test' })
  })

  it('records a non-2xx, does not follow a redirect, reads only the start of a long body, and times out', async () => {
    answer = () => ({ status: 500, body: 'x'.repeat(100_000) })
    const failed = await deliver('{}', [secret])
    expect(failed.result.statusCode).toBe(500)
    expect(failed.result.responseExcerpt.length).toBe(1024)

    answer = () => ({ status: 302, body: '' })
    const countBefore = received.length
    const redirected = await deliver('{}', [secret])
    expect(redirected.result.statusCode).toBe(302)
    expect(received.length).toBe(countBefore + 1)

    answer = () => ({ status: 200, body: 'late', delayMs: 2_000 })
    const slow = await sendWebhook({
      url: `${origin}/hook`,
      body: '{}',
      headers: signWebhook({ id: 'msg_slow', timestamp: new Date(), body: '{}', secrets: [secret] }),
      isAllowingPrivate: true,
      timeoutMs: 200,
    })
    expect(slow).toMatchObject({ statusCode: null, error: 'No answer within 0.2 s' })
    answer = () => ({ status: 200, body: 'ok' })
  })

  it('refuses loopback, private and metadata addresses, and plain http, outside dev mode', async () => {
    for (const url of [
      `${origin}/hook`.replace('http:', 'https:'),
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://localhost/hook',
    ]) {
      const result = await sendWebhook({
        url,
        body: '{}',
        headers: {},
        isAllowingPrivate: false,
        timeoutMs: 3_000,
      })
      expect(result.statusCode, url).toBeNull()
      expect(result.error, url).toMatch(/webhooks may not reach/)
    }
    const plain = await sendWebhook({
      url: 'http://example.com/hook',
      body: '{}',
      headers: {},
      isAllowingPrivate: false,
    })
    expect(plain.error).toBe('The endpoint URL must be https')
  })
})
