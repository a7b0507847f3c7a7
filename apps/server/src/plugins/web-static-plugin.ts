import { existsSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import fastifyStatic from '@fastify/static'
import { invoiceIdPattern } from '@quicklinks/core/api/invoices'
import { publicLinkSchema } from '@quicklinks/core/api/pay'
import { AppError } from '@quicklinks/core/app-error'
import { isApiPath } from '@quicklinks/runtime/plugins/is-api-path'
import { isNotCounted } from '@quicklinks/runtime/plugins/rate-limit-plugin'
import { and, eq } from 'drizzle-orm'
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { invoices, type Link } from '../db/schema.ts'
import { type EncodableText, encodeOnce, pickEncoding } from '../services/http/encode-once.ts'
import { getPublicLinkOrThrow } from '../services/links/get-public-link-or-throw.ts'
import { toPublicLinkResponse } from '../services/links/to-link-response.ts'
import { injectPayPageData } from './inject-pay-page-data.ts'
import {
  buildInvoicePageMeta,
  buildPayPageMeta,
  genericPayPageMeta,
  injectPayPageMeta,
} from './inject-pay-page-meta.ts'

const notBuiltMessage =
  'Quick Links: the web app has not been built yet.\n\n' +
  'Run `npm run build` in the repository root (or `npm start`, which builds it), then restart the server.\n' +
  'The API is up: /health, /api/...\n'

// The last path segment of a file (favicon.ico, index-BdF3.js): never answered with the SPA.
const filePathPattern = /\/[^/]*\.[A-Za-z0-9]{1,8}$/

/**
 * Whether a GET or HEAD is a page load the SPA answers: outside the server's namespaces and
 * /assets, not a file name, and from a client that takes HTML (it names text/html or any type, or
 * sends no Accept at all, like a link checker or a load balancer's HEAD).
 */
function isPageRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  const path = request.url.split('?', 1)[0] ?? ''
  if (isApiPath(path) || path.startsWith('/assets/') || filePathPattern.test(path)) return false
  return acceptsHtml(request)
}

function acceptsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept
  return accept === undefined || accept.includes('text/html') || accept.includes('*/*')
}

const payPathPattern = /^\/pay\/([^/?#]+)\/?$/

/** The slug of a /pay/{slug} path (URL-decoded), else undefined. */
function readPaySlug(url: string): string | undefined {
  const match = payPathPattern.exec(url.split('?', 1)[0] ?? '')
  if (match?.[1] === undefined) return undefined
  try {
    return decodeURIComponent(match[1])
  } catch {
    return undefined
  }
}

/** The enabled link of /pay/{slug}, else undefined (unknown, disabled, or a failed read, logged). */
async function readPayPageLink(app: FastifyInstance, slug: string): Promise<Link | undefined> {
  try {
    return await getPublicLinkOrThrow(app.db, app.readCaches.publicLinks, slug)
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'NOT_FOUND')) {
      app.log.error({ err: error }, 'Reading the link for the pay page preview failed')
    }
    return undefined
  }
}

/** The invoice of /pay/{slug}/{invoiceId} when it belongs to that link, else undefined (logged on a failed read). */
async function readPayPageInvoice(app: FastifyInstance, link: Link, invoiceId: string) {
  try {
    const [invoice] = await app.db
      .select({
        id: invoices.id,
        amount: invoices.amount,
        tokenSymbol: invoices.tokenSymbol,
        memo: invoices.memo,
      })
      .from(invoices)
      .where(and(eq(invoices.id, invoiceId), eq(invoices.linkId, link.id)))
      .limit(1)
    return invoice
  } catch (error) {
    app.log.error({ err: error }, 'Reading the invoice for the invoice page preview failed')
    return undefined
  }
}

/**
 * The page with the link's public read (GET /api/pay/links/{slug}'s answer, checked by the same
 * schema) in it, so the pay page paints without asking the API first.
 */
function withLinkData(html: string, link: Link): string {
  return injectPayPageData(html, { data: publicLinkSchema.parse(toPublicLinkResponse(link)) })
}

/** A pay page's HTML (as `text`) and its compressed forms, made on first request. */
type RenderedPage = EncodableText & { indexHtml: string }

/**
 * index.html as it is on disk, re-read only when its modification time changed (a rebuild while
 * the server runs), checked at most once a second.
 */
function createIndexHtmlReader(path: string): () => Promise<string> {
  let cached: { html: string; modifiedMs: number } | undefined
  let checkedAt = 0
  return async () => {
    const now = Date.now()
    if (cached !== undefined && now - checkedAt < 1000) return cached.html
    checkedAt = now
    const { mtimeMs } = await stat(path)
    if (cached?.modifiedMs !== mtimeMs) cached = { html: await readFile(path, 'utf8'), modifiedMs: mtimeMs }
    return cached.html
  }
}

const plugin: FastifyPluginAsync<{ distDir: string }> = async (app, { distDir }) => {
  const isBuilt = existsSync(join(distDir, 'index.html'))
  const readIndexHtml = createIndexHtmlReader(join(distDir, 'index.html'))

  if (isBuilt) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: true,
      index: 'index.html',
      // The build writes .br and .gz beside each file; the client's Accept-Encoding picks one.
      preCompressed: true,
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

  // The read cache hands out the same link object until a write replaces it: its page is made once.
  const linkPages = new WeakMap<Link, RenderedPage>()

  /** A shared pay link: the SPA with the link's Open Graph and Twitter tags, so it previews. */
  const sendPayPage = async (request: FastifyRequest, reply: FastifyReply, slug: string) => {
    if (!isBuilt) return reply.status(503).type('text/plain; charset=utf-8').send(notBuiltMessage)
    const [indexHtml, link] = await Promise.all([readIndexHtml(), readPayPageLink(app, slug)])
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8')
    if (link === undefined) {
      const path = request.url.split('?', 1)[0] ?? ''
      const meta = { ...genericPayPageMeta, url: `${app.config.publicOrigin}${path}` }
      return reply.send(injectPayPageMeta(indexHtml, meta))
    }
    let page = linkPages.get(link)
    if (page === undefined || page.indexHtml !== indexHtml) {
      const html = withLinkData(
        injectPayPageMeta(indexHtml, buildPayPageMeta(link, app.config.publicOrigin)),
        link,
      )
      page = { indexHtml, text: html, encoded: {} }
      linkPages.set(link, page)
    }
    // Compressed once per page here, so the compression plugin (which skips encoded answers) need not.
    reply.header('vary', 'accept-encoding')
    const encoding = pickEncoding(request.headers['accept-encoding'])
    if (encoding === undefined) return reply.send(page.text)
    return reply.header('content-encoding', encoding).send(encodeOnce(page, encoding))
  }

  // GET /pay/{slug}: the pay page with the link's preview tags (HEAD too) for a client that takes HTML.
  app.get<{ Params: { slug: string } }>('/pay/:slug', { schema: { hide: true } }, async (request, reply) => {
    if (!acceptsHtml(request)) return reply.callNotFound()
    return sendPayPage(request, reply, request.params.slug)
  })

  // GET /pay/{slug}/{invoiceId}: the invoice page with the invoice's preview tags (amount, link name);
  // any other two-segment /pay path (the receipt and status pages) goes on to the SPA fallback.
  app.get<{ Params: { slug: string; invoiceId: string } }>(
    '/pay/:slug/:invoiceId',
    { schema: { hide: true } },
    async (request, reply) => {
      if (!acceptsHtml(request) || !invoiceIdPattern.test(request.params.invoiceId))
        return reply.callNotFound()
      if (!isBuilt) return reply.status(503).type('text/plain; charset=utf-8').send(notBuiltMessage)
      const [indexHtml, link] = await Promise.all([
        readIndexHtml(),
        readPayPageLink(app, request.params.slug),
      ])
      const invoice =
        link === undefined ? undefined : await readPayPageInvoice(app, link, request.params.invoiceId)
      const path = request.url.split('?', 1)[0] ?? ''
      if (link === undefined || invoice === undefined) {
        const meta = { ...genericPayPageMeta, url: `${app.config.publicOrigin}${path}` }
        return reply
          .header('cache-control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(injectPayPageMeta(indexHtml, meta))
      }
      const meta = buildInvoicePageMeta(link, invoice, app.config.publicOrigin)
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(withLinkData(injectPayPageMeta(indexHtml, meta), link))
    },
  )

  // Rate-limited like an API route when it answers an API path (probing unknown endpoints).
  app.setNotFoundHandler(
    { preHandler: app.rateLimit({ allowList: isNotCounted }) },
    async (request, reply) => {
      // Any unmatched route: index.html for a page load, else a JSON 404.
      if (isPageRequest(request)) {
        if (!isBuilt) return reply.status(503).type('text/plain; charset=utf-8').send(notBuiltMessage)
        const slug = readPaySlug(request.url)
        if (slug !== undefined) return sendPayPage(request, reply, slug)
        // A client-side route (/dashboard, …): the SPA decides what to show.
        return reply.sendFile('index.html')
      }
      const path = (request.url.split('?', 1)[0] ?? '').slice(0, 200)
      throw new AppError('NOT_FOUND', { userMessage: `No route ${request.method} ${path}.` })
    },
  )
}

/**
 * Serves the built web app from WEB_DIST_DIR, each file precompressed (.br, .gz) by
 * Accept-Encoding, with an SPA fallback: a GET or HEAD page load (see `isPageRequest`) of a path
 * outside /api, /signer, /health and /assets that matches no file gets index.html (no-cache);
 * hashed assets are cached for a year. /pay/{slug} gets index.html with the link's Open Graph and
 * Twitter tags (generic ones for an unknown or disabled slug), read through the public link cache,
 * and the link's public read as a JSON data block (inject-pay-page-data.ts); /pay/{slug}/{invoiceId}
 * gets the invoice's tags (its amount and the link's name) and the same data block.
 * Every other unknown route is a JSON 404 NOT_FOUND. Without a build, / and page loads answer a
 * plain message saying to run the build.
 */
export const webStaticPlugin = fp(plugin, {
  name: 'web-static',
  fastify: '5.x',
  dependencies: ['rate-limit'],
})
