import { existsSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import fastifyStatic from '@fastify/static'
import { AppError } from '@quicklinks/core/app-error'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { isApiPath } from './is-api-path.ts'

const notBuiltMessage =
  'Quick Links: the web app has not been built yet.\n\n' +
  'Run `npm run build` in the repository root (or `npm start`, which builds it), then restart the server.\n' +
  'The API is up: /health, /api/...\n'

function isHtmlNavigation(request: FastifyRequest): boolean {
  const isReadMethod = request.method === 'GET' || request.method === 'HEAD'
  return isReadMethod && !isApiPath(request.url) && (request.headers.accept ?? '').includes('text/html')
}

const plugin: FastifyPluginAsync<{ distDir: string }> = async (app, { distDir }) => {
  const isBuilt = existsSync(join(distDir, 'index.html'))

  if (isBuilt) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: true,
      index: 'index.html',
      // We set Cache-Control ourselves: Vite's hashed assets never change, everything else may.
      cacheControl: false,
      setHeaders: (reply: FastifyReply, filePath: string) => {
        const path = relative(distDir, filePath).split(sep).join('/')
        reply.header(
          'cache-control',
          path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        )
      },
    })
  } else {
    // GET /: tells whoever opens the app that the web build is missing.
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      reply.status(503).type('text/plain; charset=utf-8').send(notBuiltMessage),
    )
  }

  // Rate-limited like an API route when it answers an API path (probing unknown endpoints).
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (request, reply) => {
    // Any unmatched route: index.html for a page navigation, else a JSON 404.
    if (isHtmlNavigation(request)) {
      if (!isBuilt) return reply.status(503).type('text/plain; charset=utf-8').send(notBuiltMessage)
      // A client-side route (/dashboard, /pay/x): the SPA decides what to show.
      return reply.sendFile('index.html')
    }
    const path = (request.url.split('?', 1)[0] ?? '').slice(0, 200)
    throw new AppError('NOT_FOUND', { userMessage: `No route ${request.method} ${path}.` })
  })
}

/**
 * Serves the built web app from WEB_DIST_DIR with an SPA fallback: an HTML navigation to a path
 * outside /api, /signer and /health that matches no file gets index.html (no-cache); hashed
 * assets are cached for a year. Every other unknown route is a JSON 404 NOT_FOUND. Without a
 * build, / and HTML navigations answer a plain message saying to run the build.
 */
export const webStaticPlugin = fp(plugin, {
  name: 'web-static',
  fastify: '5.x',
  dependencies: ['rate-limit'],
})
