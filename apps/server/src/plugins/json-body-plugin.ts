import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'

const plugin: FastifyPluginAsync = async (app) => {
  // Fastify's own parser, with its defaults (prototype and constructor poisoning are errors).
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // A client may send `Content-Type: application/json` on every call, bodiless DELETEs too
    // (docs/api.md#conventions).
    if (request.method === 'DELETE' && body.length === 0) {
      done(null, undefined)
      return
    }
    parseJson(request, body.toString(), done)
  })
}

/**
 * Fastify's JSON body parser, except that a DELETE with a JSON content type and an empty body has
 * no body (undefined) instead of failing with 400. Every other empty JSON body is still refused
 * (400 FST_ERR_CTP_EMPTY_JSON_BODY), and a route whose schema requires a body still answers 422.
 */
export const jsonBodyPlugin = fp(plugin, { name: 'json-body', fastify: '5.x' })
