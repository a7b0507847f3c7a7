import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'

/** One request as the server saw it. */
export type RecordedRequest = {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: string
}

export type TestHandler = (request: RecordedRequest, response: ServerResponse) => void

export type TestServer = {
  origin: string
  requests: RecordedRequest[]
  /** Replaces the handler for the following requests. */
  handle: (handler: TestHandler) => void
  close: () => Promise<void>
}

/**
 * A real HTTP server on an ephemeral loopback port, so the code under test goes through happy-dom's
 * real fetch and cookie jar (Set-Cookie lands in document.cookie, as in a browser).
 */
export async function startTestServer(handler: TestHandler = notFound): Promise<TestServer> {
  let current = handler
  const requests: RecordedRequest[] = []
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const request: RecordedRequest = {
        method: incoming.method ?? 'GET',
        path: incoming.url ?? '/',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      requests.push(request)
      current(request, response)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('test server has no port')
  return {
    origin: `http://127.0.0.1:${address.port}`,
    requests,
    handle: (next) => {
      current = next
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error === undefined ? resolve() : reject(error)))
      }),
  }
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers })
  response.end(JSON.stringify(body))
}

function notFound(_request: RecordedRequest, response: ServerResponse) {
  sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
}

type HappyDomWindow = { happyDOM: { setURL: (url: string) => void } }

/** Points the test page at `origin`, so relative requests and cookies belong to the test server. */
export function setPageUrl(url: string): void {
  ;(window as unknown as HappyDomWindow).happyDOM.setURL(url)
}

/** Sets a cookie the way a server's Set-Cookie would, for tests that start from a given token. */
export function setPageCookie(name: string, value: string): void {
  writeCookie(`${name}=${encodeURIComponent(value)}; path=/`)
}

/** Removes every cookie the page can see. */
export function clearCookies(): void {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim()
    if (name !== undefined && name.length > 0)
      writeCookie(`${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`)
  }
}

function writeCookie(cookie: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the test page's cookie jar is exactly what is under test
  document.cookie = cookie
}

type HappyDomSettings = { happyDOM: { settings: { device: { prefersColorScheme: string } } } }

/** Changes the OS colour scheme the page sees and tells media-query listeners (they watch resize). */
export function setSystemColorScheme(scheme: 'light' | 'dark'): void {
  ;(window as unknown as HappyDomSettings).happyDOM.settings.device.prefersColorScheme = scheme
  window.dispatchEvent(new Event('resize'))
}
