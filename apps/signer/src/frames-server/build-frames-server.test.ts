import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildFramesServer } from './build-frames-server.ts'

const publicOrigin = 'http://localhost:3999'
const signerKey = `04${'ab'.repeat(64)}`
const page = (name: string) =>
  `<!doctype html><html><head><meta name="quicklinks-frame-config" content="__FRAME_CONFIG__" /><title>${name}</title></head><body></body></html>`

function createDistDir(): string {
  const distDir = mkdtempSync(join(tmpdir(), 'ql-frames-test-'))
  mkdirSync(join(distDir, 'assets'))
  writeFileSync(join(distDir, 'auth-frame.html'), page('auth'))
  writeFileSync(join(distDir, 'export-frame.html'), page('export'))
  writeFileSync(join(distDir, 'assets', 'auth-frame-abc123.js'), 'console.log(1)')
  return distDir
}

/** The configuration a frame page carries, decoded as the browser would. */
function readConfig(html: string): unknown {
  const content = /name="quicklinks-frame-config" content="([^"]*)"/.exec(html)?.[1]
  if (content === undefined) throw new Error('no frame config in the page')
  return JSON.parse(
    content
      .replaceAll('&quot;', '"')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&#39;', "'")
      .replaceAll('&amp;', '&'),
  )
}

const servers: { close(): Promise<unknown> }[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function build(options: { distDir?: string; getKey?: () => Promise<string | undefined> } = {}) {
  const server = await buildFramesServer(
    { publicOrigin, trustProxy: false },
    {
      distDir: options.distDir ?? createDistDir(),
      getExportSignerPublicKey: options.getKey ?? (async () => signerKey),
    },
  )
  servers.push(server)
  return server
}

describe('frames server', () => {
  it('serves the auth frame for the app origin only, never cached', async () => {
    const server = await build()
    const response = await server.inject({ method: 'GET', url: '/auth-frame' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.headers['content-security-policy']).toContain(`frame-ancestors ${publicOrigin}`)
    expect(response.headers['content-security-policy']).toContain("script-src 'self'")
    expect(response.headers['content-security-policy']).toContain("connect-src 'none'")
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin')
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(readConfig(response.body)).toEqual({ parentOrigin: publicOrigin })
  })

  it('pins the export signing key in the export frame', async () => {
    const server = await build()
    const response = await server.inject({ method: 'GET', url: '/export-frame' })
    expect(response.statusCode).toBe(200)
    expect(readConfig(response.body)).toEqual({
      parentOrigin: publicOrigin,
      exportSignerPublicKey: signerKey,
    })
  })

  it('serves the export frame unpinned until the key exists, then pins it', async () => {
    let key: string | undefined
    const server = await build({ getKey: async () => key })
    const before = await server.inject({ method: 'GET', url: '/export-frame' })
    expect(readConfig(before.body)).toEqual({ parentOrigin: publicOrigin })
    key = signerKey
    const after = await server.inject({ method: 'GET', url: '/export-frame' })
    expect(readConfig(after.body)).toEqual({ parentOrigin: publicOrigin, exportSignerPublicKey: signerKey })
  })

  it('never pins something that is not an uncompressed P-256 key', async () => {
    const server = await build({ getKey: async () => '"><script>alert(1)</script>' })
    const response = await server.inject({ method: 'GET', url: '/export-frame' })
    expect(readConfig(response.body)).toEqual({ parentOrigin: publicOrigin })
    expect(response.body).not.toContain('<script>alert')
  })

  it('serves hashed assets for a year, to its own origin only', async () => {
    const server = await build()
    const response = await server.inject({ method: 'GET', url: '/assets/auth-frame-abc123.js' })
    expect(response.statusCode).toBe(200)
    expect(response.body).toBe('console.log(1)')
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin')
  })

  it('says how to build the frames when they are missing', async () => {
    const server = await build({ distDir: join(tmpdir(), 'ql-frames-missing') })
    const response = await server.inject({ method: 'GET', url: '/auth-frame' })
    expect(response.statusCode).toBe(503)
    expect(response.body).toContain('npm run build')
  })

  it('answers 404 for anything else', async () => {
    const server = await build()
    const response = await server.inject({ method: 'GET', url: '/' })
    expect(response.statusCode).toBe(404)
    expect((await server.inject({ method: 'GET', url: '/assets/nope.js' })).statusCode).toBe(404)
  })
})
