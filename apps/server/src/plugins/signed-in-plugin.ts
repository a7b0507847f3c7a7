import { AppError } from '@quicklinks/core/app-error'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { User } from '../db/schema.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The session's user, inside the signed-in scope only: its preHandler has already answered
     * 401 to a signed-out request, so a handler there reads a user, never null. Reading it
     * anywhere else is a programming error and throws.
     */
    readonly signedInUser: User
  }
}

const plugin: FastifyPluginAsync = async (app) => {
  app.decorateRequest('signedInUser', {
    getter(this: FastifyRequest): User {
      if (this.user === null) throw new Error('signedInUser read outside the signed-in scope')
      return this.user
    },
  })
  // After the session hook and validation, before the handler: a signed-out request is 401.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.user === null) done(new AppError('UNAUTHORIZED', { message: 'No live session' }))
    else done()
  })
}

/**
 * The signed-in scope's one check: register it inside the scope that holds the routes needing a
 * session. Every request there without a live session is answered 401 UNAUTHORIZED before its
 * handler runs; the handlers read `request.signedInUser`. Needs the session plugin.
 */
export const signedInPlugin = fp(plugin, { name: 'signed-in', fastify: '5.x', dependencies: ['session'] })
