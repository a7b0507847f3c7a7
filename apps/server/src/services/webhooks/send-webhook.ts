import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import { createGuardedLookup, isForbiddenAddress } from './webhook-address-guard.ts'

/** What one attempt gave: the status (none when no answer came), time, and the start of the body. */
export type WebhookAttemptResult = {
  statusCode: number | null
  latencyMs: number
  /** The first `maxExcerptBytes` of the answer's body, as text (for the delivery log). */
  responseExcerpt: string
  /** Why no answer came (time-out, refused address, connection error), else null. */
  error: string | null
}

export const webhookTimeoutMs = 15_000
const maxExcerptBytes = 1024

/**
 * POSTs one signed delivery (docs/api.md#webhook-safety): https only unless `isAllowingPrivate`
 * (dev mode), the host's addresses checked at connect time (no loopback, private, link-local or
 * metadata address), no redirect followed (a 3xx is a failed attempt), at most `timeoutMs` for the
 * whole exchange, and the body read only up to 1 KB. Never rejects: every failure is a result.
 */
export function sendWebhook(input: {
  url: string
  body: string
  headers: Record<string, string>
  isAllowingPrivate: boolean
  timeoutMs?: number
}): Promise<WebhookAttemptResult> {
  const startedAt = performance.now()
  const elapsed = () => Math.round(performance.now() - startedAt)
  const failed = (error: string): WebhookAttemptResult => ({
    statusCode: null,
    latencyMs: elapsed(),
    responseExcerpt: '',
    error,
  })
  let url: URL
  try {
    url = new URL(input.url)
  } catch {
    return Promise.resolve(failed('The endpoint URL is not a URL'))
  }
  const isHttps = url.protocol === 'https:'
  if (!isHttps && !(input.isAllowingPrivate && url.protocol === 'http:')) {
    return Promise.resolve(failed('The endpoint URL must be https'))
  }
  // An address written as an IP is connected to without a lookup: it is checked here instead.
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1')
  if (!input.isAllowingPrivate && isIP(literal) !== 0 && isForbiddenAddress(literal)) {
    return Promise.resolve(failed(`${literal} is an address webhooks may not reach`))
  }
  return new Promise((resolve) => {
    let settled = false
    const settle = (result: WebhookAttemptResult) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(result)
    }
    const send = isHttps ? httpsRequest : httpRequest
    const request = send(
      url,
      {
        method: 'POST',
        lookup: createGuardedLookup(input.isAllowingPrivate),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(input.body),
          'user-agent': 'QuickLinks-Webhooks/1',
          ...input.headers,
        },
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = []
        let bytes = 0
        const finish = () =>
          settle({
            statusCode: response.statusCode ?? null,
            latencyMs: elapsed(),
            responseExcerpt: Buffer.concat(chunks).subarray(0, maxExcerptBytes).toString('utf8'),
            error: null,
          })
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk)
          bytes += chunk.length
          // Enough for the log: the rest is not read (a receiver cannot make us hold a large body).
          if (bytes >= maxExcerptBytes) {
            finish()
            response.destroy()
          }
        })
        response.on('end', finish)
        response.on('error', finish)
      },
    )
    const timer = setTimeout(() => {
      request.destroy()
      settle(failed(`No answer within ${(input.timeoutMs ?? webhookTimeoutMs) / 1000} s`))
    }, input.timeoutMs ?? webhookTimeoutMs)
    request.on('error', (error) => settle(failed(error.message)))
    request.end(input.body)
  })
}
