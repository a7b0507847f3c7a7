import { type DestinationStream, type Logger, pino } from 'pino'
import type { ServerConfig } from './env.ts'

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

/**
 * The server's pino logger: JSON lines, request ids bound per request by Fastify, and cookies,
 * authorization, CSRF and stamp headers replaced by "[Redacted]" wherever a headers object is
 * logged. `destination` lets tests capture the lines.
 */
export function createLogger(level: ServerConfig['logLevel'], destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: redactedPaths, censor: '[Redacted]' } }
  return destination === undefined ? pino(options) : pino(options, destination)
}
