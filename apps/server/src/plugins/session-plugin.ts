import type { CookieSerializeOptions } from '@fastify/cookie'
import { isSecureOrigin } from '@quicklinks/runtime/env'
import type { FastifyPluginAsync, FastifyReply } from 'fastify'
import fp from 'fastify-plugin'
import type { User } from '../db/schema.ts'
import { createSession } from '../services/sessions/create-session.ts'
import { getSessionUser } from '../services/sessions/get-session-user.ts'
import { revokeSession } from '../services/sessions/revoke-session.ts'

export const sessionCookieName = 'ql_session'

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null; set before any handler runs. */
    user: User | null
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

const plugin: FastifyPluginAsync = async (app) => {
  app.decorateRequest('user', null)

  app.addHook('onRequest', (request, _reply, done) => {
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
 * App sessions from the HttpOnly `ql_session` cookie: decorates `request.user` (or null) and
 * `reply.startSession` / `reply.endSession`. Register it on the /api scope.
 */
export const sessionPlugin = fp(plugin, {
  name: 'session',
  fastify: '5.x',
  dependencies: ['@fastify/cookie', 'database', 'config', 'read-caches'],
})
