import type { CookieSerializeOptions } from '@fastify/cookie'
import type { ApiKeyScope } from '@quicklinks/core/api/api-keys'
import { AppError } from '@quicklinks/core/app-error'
import { isSecureOrigin } from '@quicklinks/runtime/env'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { User } from '../db/schema.ts'
import { authenticateApiKey, type RequestApiKey } from '../services/api-keys/authenticate-api-key.ts'
import { createSession } from '../services/sessions/create-session.ts'
import { getSessionUser } from '../services/sessions/get-session-user.ts'
import { revokeSession } from '../services/sessions/revoke-session.ts'

export const sessionCookieName = 'ql_session'

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null; set before any handler runs. */
    user: User | null
    /** The API key the request authenticated with (`Authorization: Bearer`), else null. */
    apiKey: RequestApiKey | null
  }
  interface FastifyContextConfig {
    /**
     * The scopes of which an API key needs one to call the route (docs/api.md#api-keys). A route
     * without it answers an API key 403: only the routes that name scopes accept keys.
     */
    apiKeyScopes?: readonly ApiKeyScope[]
  }
  interface FastifyReply {
    /**
     * Signs `userId` in: revokes the request's current session, if any, creates one with a new
     * random id and sets the HttpOnly cookie. Call it at every login.
     */
    startSession(userId: string): Promise<void>
    /** Signs out: revokes the request's session, if any, and clears the cookie. Idempotent. */
    endSession(): Promise<void>
  }
}

function getCookieOptions(reply: FastifyReply): CookieSerializeOptions {
  return { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecureOrigin(reply.server.config) }
}

// `Bearer qlk_…`: other Authorization headers (a proxy's Basic auth in front of a staging
// instance) are not ours and leave the request to its cookies.
const apiKeyAuthorizationPattern = /^Bearer +(qlk_\S*) *$/i

/** The key of an `Authorization: Bearer qlk_…` header; undefined for any other header. */
function readApiKey(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization
  return authorization === undefined ? undefined : apiKeyAuthorizationPattern.exec(authorization)?.[1]
}

/**
 * Whether a request authenticates with an API key: an /api request with `Authorization: Bearer
 * qlk_…`. Such a request never uses the session cookie (the key decides who it is), which is why
 * the CSRF check may skip it: a cross-site page cannot send an Authorization header without a CORS
 * preflight, which this server never grants.
 */
export function isApiKeyRequest(request: FastifyRequest): boolean {
  return request.url.startsWith('/api/') && readApiKey(request) !== undefined
}

const plugin: FastifyPluginAsync = async (app) => {
  app.decorateRequest('user', null)
  app.decorateRequest('apiKey', null)
  // Each key has its own budget besides the per-client one (a merchant's servers share few addresses).
  const checkKeyLimit = app.createRateLimit({
    max: app.config.rateLimitMax,
    timeWindow: 60_000,
    keyGenerator: (request) => `api-key:${request.apiKey?.id ?? ''}`,
  })

  const authenticateWithKey = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const found = await authenticateApiKey(app.db, readApiKey(request) ?? '')
    if (found === null) {
      reply.header('www-authenticate', 'Bearer')
      throw new AppError('UNAUTHORIZED', { userMessage: 'The API key is malformed, unknown or revoked.' })
    }
    const accepted = request.routeOptions.config?.apiKeyScopes
    if (accepted === undefined) {
      throw new AppError('FORBIDDEN', {
        userMessage: 'This route does not accept API keys; it needs a signed-in session.',
      })
    }
    if (!accepted.some((scope) => found.apiKey.scopes.includes(scope))) {
      throw new AppError('FORBIDDEN', {
        userMessage: `This API key lacks the scope this route needs (${accepted.join(' or ')}).`,
      })
    }
    request.user = found.user
    request.apiKey = found.apiKey
    const limit = await checkKeyLimit(request)
    if (!limit.isAllowed && limit.isExceeded) {
      reply.header('retry-after', limit.ttlInSeconds)
      throw new AppError('RATE_LIMITED', { details: { retryAfterSeconds: limit.ttlInSeconds } })
    }
  }

  app.addHook('onRequest', (request, reply, done) => {
    // An API key decides who the request is; its cookies are not read (docs/api.md#api-keys).
    if (isApiKeyRequest(request)) {
      authenticateWithKey(request, reply).then(() => done(), done)
      return
    }
    const token = request.cookies[sessionCookieName]
    // No cookie, no query and no promise: anonymous requests go straight on; a live session is
    // read from the session cache, which a logout or a change of its user invalidates.
    if (token === undefined) return done()
    getSessionUser(app.db, token, new Date(), app.readCaches.sessionUsers).then((user) => {
      request.user = user
      done()
    }, done)
  })

  app.decorateReply('startSession', async function (this: FastifyReply, userId: string) {
    const previous = this.request.cookies[sessionCookieName]
    if (previous !== undefined) await revokeSession(app.db, previous, app.readCaches)
    const session = await createSession(app.db, { userId })
    this.setCookie(sessionCookieName, session.token, {
      ...getCookieOptions(this),
      expires: session.expiresAt,
    })
  })

  app.decorateReply('endSession', async function (this: FastifyReply) {
    const token = this.request.cookies[sessionCookieName]
    if (token !== undefined) await revokeSession(app.db, token, app.readCaches)
    this.request.user = null
    this.clearCookie(sessionCookieName, getCookieOptions(this))
  })
}

/**
 * Who an /api request is: an API key (`Authorization: Bearer qlk_…`, on the routes that name
 * `apiKeyScopes`) or the HttpOnly `ql_session` cookie. Decorates `request.user` (or null),
 * `request.apiKey` (or null) and `reply.startSession` / `reply.endSession`. Register it on the
 * /api scope.
 */
export const sessionPlugin = fp(plugin, {
  name: 'session',
  fastify: '5.x',
  dependencies: ['@fastify/cookie', 'database', 'config', 'read-caches', 'rate-limit'],
})
