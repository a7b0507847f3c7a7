import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import { getHttpTimeoutOptions, type HttpTimeouts } from '@quicklinks/runtime/http-timeouts'
import { errorHandlerPlugin } from '@quicklinks/runtime/plugins/error-handler-plugin'
import { inputGuardPlugin, sendFrameworkError } from '@quicklinks/runtime/plugins/input-guard-plugin'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify'

/** Where `npm run build` puts the frames (apps/signer/frames/vite.config.ts): apps/signer/dist/frames. */
export const defaultFramesDistDir = fileURLToPath(new URL('../../dist/frames', import.meta.url))

/** The placeholder the frame pages carry in `<meta name="quicklinks-frame-config" content="…">`. */
export const frameConfigPlaceholder = '__FRAME_CONFIG__'

const framePages = { '/auth-frame': 'auth-frame.html', '/export-frame': 'export-frame.html' } as const

const notBuiltMessage =
  'Quick Links: the signer frames have not been built yet.\n\n' +
  'Run `npm run build` in the repository root (or `npm start`, which builds them), then reload.\n'

/** What the frames server reads of the host's configuration. */
export type FramesServerConfig = {
  /** The app's origin: the only one that may embed the frames, and the one they talk to. */
  publicOrigin: string
  /** Fastify's `trustProxy`, as the host resolved it from TRUST_PROXY. */
  trustProxy: FastifyServerOptions['trustProxy']
  /** The host's HTTP timeouts (docs/api.md#timeouts); default `defaultHttpTimeouts`. */
  httpTimeouts?: HttpTimeouts
}

export type FramesServerOptions = {
  /** The built frames (default apps/signer/dist/frames). */
  distDir?: string
  /**
   * The service's export signing public key (uncompressed hex) that the export frame pins; read
   * on each export-frame request until it is known, then cached. Undefined: the export frame is
   * served without a pin and refuses every bundle.
   */
  getExportSignerPublicKey: () => Promise<string | undefined>
  logger?: FastifyBaseLogger
}

/**
 * Builds the signer frames origin (FRAMES_PORT): a second Fastify instance serving the auth frame
 * at /auth-frame and the export frame at /export-frame, with their assets under /assets/.
 *
 * Each page gets its configuration injected (the app origin it may talk to, and for the export
 * frame the pinned export signing key) and strict headers: CSP `frame-ancestors <publicOrigin>`
 * (only the app may embed it) with `script-src 'self'` and no network access, no-store caching,
 * `Cross-Origin-Resource-Policy: cross-origin` for the page the app embeds and `same-origin` for
 * its assets, nosniff, no referrer.
 *
 * Bad input (docs/api.md#unstorable-input) is a 4xx in the error model; the HTTP timeouts are the host's.
 * Never fails to build; a missing build answers 503 with how to build it, a key lookup that
 * throws is logged and the export frame served without a pin.
 */
export async function buildFramesServer(
  config: FramesServerConfig,
  options: FramesServerOptions,
): Promise<FastifyInstance> {
  const distDir = options.distDir ?? defaultFramesDistDir
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    trustProxy: config.trustProxy,
    ...getHttpTimeoutOptions(config.httpTimeouts),
    frameworkErrors: sendFrameworkError,
  })
  // Refusals in the error model; a NUL byte or broken UTF-8 in the address is a 400 here too.
  await app.register(errorHandlerPlugin)
  await app.register(inputGuardPlugin)
  const contentSecurityPolicy = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${config.publicOrigin}`,
  ].join('; ')

  let exportSignerPublicKey: string | undefined
  const getPin = async (): Promise<string | undefined> => {
    if (exportSignerPublicKey === undefined) {
      try {
        const key = await options.getExportSignerPublicKey()
        if (key !== undefined && /^04[0-9a-f]{128}$/i.test(key)) exportSignerPublicKey = key.toLowerCase()
      } catch (error) {
        app.log.error(
          { err: error },
          'Cannot read the export signing key; the export frame is served unpinned',
        )
      }
    }
    return exportSignerPublicKey
  }

  const setCommonHeaders = (reply: FastifyReply) =>
    reply.header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer')

  for (const [path, file] of Object.entries(framePages)) {
    // GET /auth-frame, GET /export-frame: a frame page with its configuration injected.
    app.get(path, async (_request, reply) => {
      setCommonHeaders(reply).header('cache-control', 'no-store')
      let template: string
      try {
        template = await readFile(join(distDir, file), 'utf8')
      } catch {
        return reply.status(503).type('text/plain; charset=utf-8').send(notBuiltMessage)
      }
      const frameConfig = {
        parentOrigin: config.publicOrigin,
        ...(path === '/export-frame' ? { exportSignerPublicKey: await getPin() } : {}),
      }
      return reply
        .header('content-security-policy', contentSecurityPolicy)
        .header('cross-origin-resource-policy', 'cross-origin')
        .type('text/html; charset=utf-8')
        .send(template.replace(frameConfigPlaceholder, escapeAttribute(JSON.stringify(frameConfig))))
    })
  }

  await app.register(fastifyStatic, {
    root: join(distDir, 'assets'),
    prefix: '/assets/',
    index: false,
    cacheControl: false,
    setHeaders: (reply: FastifyReply) => {
      // Hashed file names: an asset never changes.
      reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('cross-origin-resource-policy', 'same-origin')
        .header('x-content-type-options', 'nosniff')
    },
  })

  app.setNotFoundHandler(async (_request, reply) =>
    setCommonHeaders(reply).status(404).type('text/plain; charset=utf-8').send('Not found.\n'),
  )

  await app.ready()
  return app
}

/** Escapes text for a double-quoted HTML attribute. */
function escapeAttribute(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll("'", '&#39;')
}
