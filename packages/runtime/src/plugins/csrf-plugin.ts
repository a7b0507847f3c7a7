import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { AppError } from '@quicklinks/core/app-error'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

export const csrfCookieName = 'csrf_token'
export const csrfHeaderName = 'x-csrf-token'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Skips the CSRF check: only for routes authenticated by a signature over the body (a stamp),
     * which a cross-site page cannot forge and which read no cookie.
     */
    isCsrfExempt?: boolean
  }
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])
// 32 random bytes give 43 base64url characters; shorter values are not ours.
const csrfTokenPattern = /^[A-Za-z0-9_-]{43,128}$/

// Tokens are cut from a pool of random bytes refilled 256 tokens at a time: one getrandom call per
// 256 new cookies instead of one each (GET /health hands a token to every cookieless caller).
const tokenBytes = 32
let pool = Buffer.alloc(0)
let poolOffset = 0

function createCsrfToken(): string {
  if (poolOffset + tokenBytes > pool.length) {
    pool = randomBytes(tokenBytes * 256)
    poolOffset = 0
  }
  // Encoded straight from the pool (no view object per token).
  const token = pool.toString('base64url', poolOffset, poolOffset + tokenBytes)
  // Used bytes are wiped, so the pool never holds a token that was handed out.
  pool.fill(0, poolOffset, poolOffset + tokenBytes)
  poolOffset += tokenBytes
  return token
}

// The csrf_token value in a Cookie header (the first one, as cookie parsers read it).
const csrfCookiePattern = new RegExp(`(?:^|;\\s*)${csrfCookieName}=([^;]*)`)

/**
 * The request's csrf_token cookie, read from the Cookie header here rather than through
 * @fastify/cookie: the check guards every route (404s included) and /health hands the cookie out,
 * and neither should make every request of the app parse its cookies.
 */
function readCsrfCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie
  return header === undefined ? undefined : csrfCookiePattern.exec(header)?.[1]
}

/**
 * Gives the browser a CSRF token cookie unless it already holds a well-formed one (kept, so
 * tabs and queued offline writes keep working). Not HttpOnly: the web app reads it to echo it in
 * X-CSRF-Token. Called by `GET /health`, which load balancers call all the time: it reads the
 * Cookie header and writes Set-Cookie itself, so the probe's scope needs no cookie plugin.
 * `isSecure`: the public origin is https, so the cookie carries `Secure`.
 */
export function ensureCsrfCookie(request: FastifyRequest, reply: FastifyReply, isSecure: boolean): void {
  const existing = readCsrfCookie(request)
  if (existing !== undefined && csrfTokenPattern.test(existing)) return
  const secure = isSecure ? '; Secure' : ''
  reply.header('set-cookie', `${csrfCookieName}=${createCsrfToken()}; Path=/; SameSite=Lax${secure}`)
}

/** Constant-time equality that also hides the lengths (both sides are hashed first). */
function isSameToken(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest()
  return timingSafeEqual(digest(a), digest(b))
}

export type CsrfPluginOptions = {
  /**
   * Requests that skip the check because they do not authenticate with cookies at all: the app
   * server's API-key requests (an Authorization header, which no cross-site page can send without
   * a CORS preflight, and whose cookies the server then ignores).
   */
  isExempt?: (request: FastifyRequest) => boolean
}

const plugin: FastifyPluginAsync<CsrfPluginOptions> = async (app, options) => {
  const isExempt = options.isExempt
  // A root onRequest hook runs for every route, the 404 handler included, before body parsing.
  // Callback-style, not async: a GET (nearly every request) returns at once without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (safeMethods.has(request.method)) return done()
    if (request.routeOptions.config?.isCsrfExempt === true) return done()
    if (isExempt?.(request) === true) return done()
    const cookie = readCsrfCookie(request)
    const header = request.headers[csrfHeaderName]
    const isValid =
      typeof cookie === 'string' &&
      csrfTokenPattern.test(cookie) &&
      typeof header === 'string' &&
      isSameToken(cookie, header)
    if (isValid) return done()
    done(
      new AppError('CSRF_INVALID', {
        message:
          cookie === undefined ? 'CSRF cookie missing' : 'CSRF header missing or different from the cookie',
      }),
    )
  })
}

/**
 * Double-submit CSRF protection for every non-GET/HEAD/OPTIONS request: the X-CSRF-Token header
 * must equal the csrf_token cookie, else 403 CSRF_INVALID. Reads the Cookie header itself. Routes
 * with `config: {isCsrfExempt: true}` (stamped, cookie-less: the signer's Turnkey paths) and
 * requests matching `options.isExempt` (cookie-less by construction) skip it.
 */
export const csrfPlugin = fp(plugin, {
  name: 'csrf',
  fastify: '5.x',
})
