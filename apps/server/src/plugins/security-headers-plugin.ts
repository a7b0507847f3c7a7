import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isSecureOrigin } from '@quicklinks/runtime/env'
import { isApiPath } from '@quicklinks/runtime/plugins/is-api-path'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import type { ServerConfig } from '../config/server-env.ts'
import { walletConnectCspSources } from './wallet-connect-csp-sources.ts'

/** What the CSP needs from the server's settings. */
type CspConfig = Pick<ServerConfig, 'framesOrigin' | 'routingProvider' | 'walletConnectProjectId'>

/** The SHA-256 CSP sources of index.html's inline scripts (the theme script that runs before first paint). */
export function hashInlineScripts(html: string): string[] {
  const hashes: string[] = []
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? ''
    const body = match[2] ?? ''
    if (/\ssrc\s*=/i.test(attributes) || body.trim() === '') continue
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`)
  }
  return hashes
}

/** The web build's inline-script hashes; none when it has not been built. */
function readWebBuild(distDir: string): { scriptHashes: string[] } {
  const indexPath = join(distDir, 'index.html')
  return { scriptHashes: existsSync(indexPath) ? hashInlineScripts(readFileSync(indexPath, 'utf8')) : [] }
}

/**
 * The Content-Security-Policy of the app origin: only this origin's scripts (plus the hashed
 * inline theme script), the signer frames in frames, no plugins, no <base>, never framed. Inline
 * styles are allowed: Radix's scroll lock writes a <style> element and the theme script sets the
 * color scheme. Images may be data: or blob: (QR codes, wallet icons) and, with Squid, any https
 * logo its catalogue names. canvas-confetti draws in a blob: worker. With a WALLETCONNECT_PROJECT_ID,
 * and only then, WalletConnect's relay, verify frames, wallet list, images and fonts.
 */
export function buildContentSecurityPolicy(config: CspConfig, build: { scriptHashes: string[] }): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...build.scriptHashes],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...(config.routingProvider === 'squid' ? ['https:'] : [])],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'frame-src': [config.framesOrigin],
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
  }
  if (config.walletConnectProjectId !== undefined) {
    for (const [directive, sources] of Object.entries(walletConnectCspSources)) {
      directives[directive] = [...new Set([...(directives[directive] ?? ["'self'"]), ...sources])]
    }
  }
  return Object.entries(directives)
    .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
    .join('; ')
}

/**
 * Every security header of the app origin: CSP, no framing, no sniffing, a strict referrer,
 * powerful features off except the clipboard and passkeys (this origin and the signer frames),
 * and HSTS when PUBLIC_ORIGIN is https.
 */
export function buildSecurityHeaders(
  config: CspConfig & Pick<ServerConfig, 'publicOrigin'>,
  build: { scriptHashes: string[] },
): Record<string, string> {
  const frames = `"${config.framesOrigin}"`
  const permissions = [
    'accelerometer=()',
    'ambient-light-sensor=()',
    'autoplay=()',
    'bluetooth=()',
    'browsing-topics=()',
    'camera=()',
    'display-capture=()',
    'geolocation=()',
    'gyroscope=()',
    'hid=()',
    'idle-detection=()',
    'magnetometer=()',
    'microphone=()',
    'midi=()',
    'payment=()',
    'screen-wake-lock=()',
    'serial=()',
    'usb=()',
    'xr-spatial-tracking=()',
    // The share dialog and the export frame copy; passkeys are created and used in the frames.
    `clipboard-write=(self ${frames})`,
    `publickey-credentials-create=(self ${frames})`,
    `publickey-credentials-get=(self ${frames})`,
  ]
  return {
    'content-security-policy': buildContentSecurityPolicy(config, build),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': permissions.join(', '),
    'cross-origin-opener-policy': 'same-origin-allow-popups',
    ...(isSecureOrigin(config) ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  }
}

/**
 * The headers of a JSON answer (/api, /signer, /health, /ready): the same framing, sniffing and
 * referrer rules, and a CSP that loads nothing but itself, is never framed, runs no plugin and sets
 * no base. Frame, script and feature policies only mean something for a page, and the hot paths
 * should not carry a kilobyte of them on every answer.
 */
export function buildApiSecurityHeaders(config: Pick<ServerConfig, 'publicOrigin'>): Record<string, string> {
  return {
    'content-security-policy':
      "default-src 'self'; frame-ancestors 'none'; object-src 'none'; base-uri 'none'",
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    ...(isSecureOrigin(config) ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  }
}

export type SecurityHeadersPluginOptions = {
  /** The response header that echoes `request.id` (set by the same hook, one hook per request). */
  requestIdHeader: string
}

const plugin: FastifyPluginAsync<SecurityHeadersPluginOptions> = async (app, options) => {
  const pageHeaders = buildSecurityHeaders(app.config, readWebBuild(app.config.webDistDir))
  const apiHeaders = buildApiSecurityHeaders(app.config)
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(options.requestIdHeader, request.id)
    reply.headers(isApiPath(request.url) ? apiHeaders : pageHeaders)
    done()
  })
}

/**
 * Sends the request id and the app origin's security headers on every response: pages and assets get
 * `buildSecurityHeaders` (the full CSP, permissions, opener policy), JSON answers and their errors
 * `buildApiSecurityHeaders`. Both are computed once at start-up.
 */
export const securityHeadersPlugin = fp(plugin, {
  name: 'security-headers',
  fastify: '5.x',
  dependencies: ['config'],
})
