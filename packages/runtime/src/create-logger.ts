import { type DestinationStream, type Logger, pino, stdSerializers } from 'pino'
import type { HostConfig } from './env.ts'

// Secrets that may sit in headers: session and CSRF cookies, bearer tokens, signer stamps.
const secretHeaders = ['cookie', 'authorization', 'x-csrf-token', 'x-stamp', 'x-stamp-webauthn']
const secretResponseHeaders = ['set-cookie']

/** Every place a header object may appear in a log line, for pino's redaction. */
const redactedPaths = [
  ...['req.headers', 'headers', 'request.headers', 'err.headers'].flatMap((base) =>
    secretHeaders.map((name) => `${base}["${name}"]`),
  ),
  ...['res.headers', 'reply.headers', 'headers'].flatMap((base) =>
    secretResponseHeaders.map((name) => `${base}["${name}"]`),
  ),
]

const redacted = '[redacted]'
const urlPattern = /\b(?:https?|wss?):\/\/[^\s"'<>`]+/gi
// A path segment that looks like an API key (Alchemy's /v2/<key>, Infura's /v3/<key>): long,
// letters and digits mixed. 0x-prefixed hex (addresses, hashes) is public and kept.
const keyLikeSegment = /^(?!0x)(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{16,}$/

/**
 * A URL without what may be a credential: user and password, the query string, and path segments
 * that look like API keys. Text that does not parse as a URL is returned as it is.
 */
export function redactUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return text
  }
  const userInfo = url.username || url.password ? `${redacted}@` : ''
  // `new URL` adds a '/' path to a bare origin; keep the text as it was written.
  const hasPath = /^[a-z]+:\/\/[^/?#]*\//i.test(text)
  const path = (hasPath ? url.pathname : '')
    .split('/')
    .map((segment) => (keyLikeSegment.test(segment) ? redacted : segment))
    .join('/')
  const query = url.search ? `?${redacted}` : ''
  return `${url.protocol}//${userInfo}${url.host}${path}${query}`
}

/** `text` with every URL in it passed through `redactUrl` (error messages quote RPC URLs). */
export function redactUrls(text: string): string {
  return text.replace(urlPattern, (match) => redactUrl(match))
}

/** A request path without its query string, which may carry a magic-link token or a contact. */
export function stripQuery(url: string): string {
  const index = url.indexOf('?')
  return index === -1 ? url : `${url.slice(0, index)}?${redacted}`
}

type LoggedRequest = {
  method?: string
  url?: string
  host?: string
  hostname?: string
  ip?: string
  socket?: { remoteAddress?: string }
}

const serializers = {
  // Fastify's own request fields, with the query string cut off.
  req: (request: LoggedRequest) => ({
    method: request.method,
    url: stripQuery(request.url ?? ''),
    host: request.host ?? request.hostname,
    remoteAddress: request.ip ?? request.socket?.remoteAddress,
  }),
  // Errors keep their type and stack, with credentials in quoted URLs cut out.
  err: (error: Error) => {
    const serialized = stdSerializers.err(error)
    return {
      ...serialized,
      message: redactUrls(serialized.message),
      ...(serialized.stack === undefined ? {} : { stack: redactUrls(serialized.stack) }),
    }
  },
}

/**
 * The server's pino logger: JSON lines, request ids bound per request by Fastify, and cookies,
 * authorization, CSRF and stamp headers replaced by "[Redacted]" wherever a headers object is
 * logged. Request URLs lose their query strings; URLs inside messages and errors (an RPC URL with
 * an API key) lose user, password, query and key-like path segments. `destination` lets tests
 * capture the lines.
 */
export function createLogger(level: HostConfig['logLevel'], destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: redactedPaths, censor: '[Redacted]' },
    serializers,
    hooks: {
      // Message strings, e.g. `Cannot reach ${rpcUrl}`.
      logMethod(this: Logger, args: Parameters<Logger['info']>, method: (...args: unknown[]) => void) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? redactUrls(arg) : arg)),
        )
      },
    },
  }
  return destination === undefined ? pino(options) : pino(options, destination)
}
