import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { AppError } from '@quicklinks/core/app-error'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTwilioSmsProvider } from './create-twilio-sms-provider.ts'

const accountSid = 'AC00000000000000000000000000000000'
const authToken = 'test-auth-token'
const from = '+15005550006'

type Recorded = { method: string; url: string; headers: IncomingMessage['headers']; body: string }
type Reply = { status: number; body: unknown }

// Answers as Twilio documents them (Message resource, REST API error format).
const queuedMessage = (to: string, body: string) => ({
  account_sid: accountSid,
  api_version: '2010-04-01',
  body,
  date_created: 'Thu, 24 Aug 2023 05:01:45 +0000',
  date_sent: null,
  date_updated: 'Thu, 24 Aug 2023 05:01:45 +0000',
  direction: 'outbound-api',
  error_code: null,
  error_message: null,
  from,
  messaging_service_sid: null,
  num_media: '0',
  num_segments: '1',
  price: null,
  price_unit: 'USD',
  sid: 'SM0123456789abcdef0123456789abcdef',
  status: 'queued',
  subresource_uris: {
    media: `/2010-04-01/Accounts/${accountSid}/Messages/SM0123456789abcdef0123456789abcdef/Media.json`,
  },
  to,
  uri: `/2010-04-01/Accounts/${accountSid}/Messages/SM0123456789abcdef0123456789abcdef.json`,
})
const invalidNumber: Reply = {
  status: 400,
  body: {
    code: 21211,
    message: "The 'To' number +1555 is not a valid phone number.",
    more_info: 'https://www.twilio.com/docs/errors/21211',
    status: 400,
  },
}
const badCredentials: Reply = {
  status: 401,
  body: {
    code: 20003,
    detail: 'Your AccountSid or AuthToken was incorrect.',
    message: 'Authenticate',
    more_info: 'https://www.twilio.com/docs/errors/20003',
    status: 401,
  },
}

let server: Server
let apiUrl: string
let requests: Recorded[]
let nextReply: (request: Recorded) => Reply

beforeAll(async () => {
  server = createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const request: Recorded = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      requests.push(request)
      const reply = nextReply(request)
      response.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8' })
      response.end(JSON.stringify(reply.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})
beforeEach(() => {
  requests = []
  nextReply = (request) => {
    const form = new URLSearchParams(request.body)
    return { status: 201, body: queuedMessage(form.get('To') ?? '', form.get('Body') ?? '') }
  }
})

async function rejectionOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  if (!(error instanceof AppError)) throw new Error(`Expected an AppError, got ${String(error)}`)
  return error
}

describe('createTwilioSmsProvider', () => {
  it('posts To, From and Body as a form to the Messages resource with basic auth', async () => {
    const provider = createTwilioSmsProvider({ accountSid, authToken, from, apiUrl: `${apiUrl}/` })
    await provider.send({ to: '+14155550100', body: 'Your Quick Links code is 123456' })

    expect(requests).toHaveLength(1)
    const [request] = requests
    expect(request?.method).toBe('POST')
    expect(request?.url).toBe(`/2010-04-01/Accounts/${accountSid}/Messages.json`)
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(request?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
    )
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
      To: '+14155550100',
      From: from,
      Body: 'Your Quick Links code is 123456',
    })
  })

  it('turns a refused recipient number (21211) into a 422 on the phone field', async () => {
    nextReply = () => invalidNumber
    const provider = createTwilioSmsProvider({ accountSid, authToken, from, apiUrl })
    const error = await rejectionOf(provider.send({ to: '+1555', body: 'code 123456' }))
    expect(error.code).toBe('VALIDATION_FAILED')
    expect(error.status).toBe(422)
    expect(error.field).toBe('phone')
    expect(error.userMessage).toBe(
      'We cannot send a text message to this phone number. Check it and try again.',
    )
    expect(error.message).toContain('21211')
  })

  it('turns bad credentials (20003) into UPSTREAM_FAILED without leaking the body', async () => {
    nextReply = () => badCredentials
    const provider = createTwilioSmsProvider({ accountSid, authToken: 'wrong', from, apiUrl })
    const error = await rejectionOf(provider.send({ to: '+14155550100', body: 'code 654321' }))
    expect(error.code).toBe('UPSTREAM_FAILED')
    expect(error.userMessage).toBe('We could not send the text message. Try again shortly.')
    expect(error.message).toMatch(/401.*20003.*Authenticate/)
    expect(error.message).not.toContain('654321')
  })

  it('turns an unreachable or silent API into UPSTREAM_FAILED', async () => {
    const unreachable = createTwilioSmsProvider({ accountSid, authToken, from, apiUrl: 'http://127.0.0.1:1' })
    expect((await rejectionOf(unreachable.send({ to: '+14155550100', body: 'x' }))).code).toBe(
      'UPSTREAM_FAILED',
    )

    nextReply = () => ({ status: 503, body: 'upstream connect error' })
    const failing = createTwilioSmsProvider({ accountSid, authToken, from, apiUrl })
    const error = await rejectionOf(failing.send({ to: '+14155550100', body: 'x' }))
    expect(error.code).toBe('UPSTREAM_FAILED')
    expect(error.message).toContain('503')
  })
})
