import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll } from 'vitest'

/** One request the stand-in received. */
export type RecordedSquidRequest = {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingMessage['headers']
  body: unknown
}

/** What the stand-in answers to `METHOD /path`. */
export type SquidReply = { status: number; body: unknown; headers?: Record<string, string> }

/** A recorded Squid v2 response from test/fixtures/squid (`chains`, `tokens`, `route`, `status-success`…). */
export function readSquidFixture(name: string): Record<string, unknown> {
  return JSON.parse(
    readFileSync(new URL(`./fixtures/squid/${name}.json`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>
}

/** The loopback stand-in a test file talks to as Squid's API. */
export type RecordedSquidApi = {
  /** http://127.0.0.1:<port>, once the file's beforeAll has run. */
  readonly url: string
  /** Every request since the test began (emptied after each test). */
  readonly requests: RecordedSquidRequest[]
  /** Replies by `METHOD /path`; anything else is 404 {message: 'Not found'} (emptied after each test). */
  readonly replies: Record<string, SquidReply>
}

/**
 * Registers the file's hooks around a loopback stand-in for Squid that replays the replies a test
 * sets and records every request: started before all tests, its requests and replies emptied after
 * each, closed after the file. Call once at the top of a test file.
 */
export function useRecordedSquidApi(): RecordedSquidApi {
  let server: Server | undefined
  let url: string | undefined
  const requests: RecordedSquidRequest[] = []
  const replies: Record<string, SquidReply> = {}

  beforeAll(async () => {
    const started = createServer((request, response) => {
      let text = ''
      request.on('data', (chunk) => {
        text += chunk
      })
      request.on('end', () => {
        const requestUrl = new URL(request.url ?? '/', 'http://127.0.0.1')
        requests.push({
          method: request.method ?? '',
          path: requestUrl.pathname,
          query: requestUrl.searchParams,
          headers: request.headers,
          body: text ? JSON.parse(text) : undefined,
        })
        const reply = replies[`${request.method} ${requestUrl.pathname}`] ?? {
          status: 404,
          body: { message: 'Not found' },
        }
        response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
        response.end(JSON.stringify(reply.body))
      })
    })
    server = started
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(started.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    const started = server
    if (started !== undefined) await new Promise((resolve) => started.close(resolve))
  })
  afterEach(() => {
    requests.length = 0
    for (const key of Object.keys(replies)) delete replies[key]
  })

  return {
    get url() {
      if (url === undefined) throw new Error('the Squid stand-in is used before its beforeAll ran')
      return url
    },
    requests,
    replies,
  }
}
