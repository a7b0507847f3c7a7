import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts'
import {
  buildLinkBody,
  signInTestUser,
  type TestCaller,
  writeTestDeployment,
} from '../../test/link-test-fixtures.ts'
import { hashInlineScripts } from './security-headers-plugin.ts'

const themeScript = "document.documentElement.classList.toggle('dark', false)"
const indexHtml =
  '<!doctype html><html><head><title>Quick Links</title>' +
  `<script>${themeScript}</script>` +
  '<script type="module" crossorigin src="/assets/index-Ab12.js"></script></head>' +
  '<body><div id="root"></div></body></html>'
const assetJs = `export const words = ${JSON.stringify('lorem ipsum dolor sit amet '.repeat(200))}\n`
const framesOrigin = 'http://localhost:3998'

/** Writes a small web build: index.html and one JS asset, each with .br and .gz beside it. */
function writeWebBuild(): string {
  const distDir = mkdtempSync(join(tmpdir(), 'ql-web-dist-'))
  mkdirSync(join(distDir, 'assets'))
  for (const [path, text] of [
    ['index.html', indexHtml],
    ['assets/index-Ab12.js', assetJs],
  ] as const) {
    writeFileSync(join(distDir, path), text)
    writeFileSync(join(distDir, `${path}.br`), brotliCompressSync(text))
    writeFileSync(join(distDir, `${path}.gz`), gzipSync(text))
  }
  return distDir
}

/** A CSP header as a map of directive → sources. */
function parseCsp(header: unknown): Record<string, string[]> {
  expect(typeof header).toBe('string')
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([directive, ...sources]) => [directive ?? '', sources]),
  )
}

describe('HTTP on the app origin', () => {
  let testApp: TestApp
  let owner: TestCaller
  let stranger: TestCaller

  beforeAll(async () => {
    testApp = await buildTestApp({ webDistDir: writeWebBuild(), framesOrigin })
    writeTestDeployment(testApp)
    owner = await signInTestUser(testApp)
    stranger = await signInTestUser(testApp)
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('sends the CSP and the other security headers on HTML and an asset, and the compact set on API answers', async () => {
    const pages = [
      await testApp.app.inject({ method: 'GET', url: '/dashboard', headers: { accept: 'text/html' } }),
      await testApp.app.inject({ method: 'GET', url: '/assets/index-Ab12.js' }),
    ]
    const apiAnswers = [
      await testApp.app.inject({ method: 'GET', url: '/health' }),
      await testApp.app.inject({ method: 'GET', url: '/api/nope' }),
    ]
    expect([...pages, ...apiAnswers].map((answer) => answer.statusCode)).toEqual([200, 200, 200, 404])
    for (const answer of pages) {
      const csp = parseCsp(answer.headers['content-security-policy'])
      expect(csp['default-src']).toEqual(["'self'"])
      expect(csp['frame-src']).toEqual([framesOrigin])
      expect(csp['connect-src']).toEqual(["'self'"])
      // The theme script inline in index.html runs by its hash; no other inline script does.
      expect(csp['script-src']).toEqual(["'self'", ...hashInlineScripts(indexHtml)])
      expect(csp['script-src']).not.toContain("'unsafe-inline'")
      expect(answer.headers['permissions-policy']).toContain('camera=()')
      expect(answer.headers['permissions-policy']).toContain('microphone=()')
      expect(answer.headers['permissions-policy']).toContain('geolocation=()')
      expect(answer.headers['permissions-policy']).toContain(`clipboard-write=(self "${framesOrigin}")`)
    }
    for (const answer of [...pages, ...apiAnswers]) {
      const csp = parseCsp(answer.headers['content-security-policy'])
      expect(csp['default-src']).toEqual(["'self'"])
      expect(csp['frame-ancestors']).toEqual(["'none'"])
      expect(csp['object-src']).toEqual(["'none'"])
      expect(csp['base-uri']).toEqual(["'none'"])
      expect(answer.headers['x-frame-options']).toBe('DENY')
      expect(answer.headers['x-content-type-options']).toBe('nosniff')
      expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
      // PUBLIC_ORIGIN is http here: no HSTS.
      expect(answer.headers['strict-transport-security']).toBeUndefined()
    }
    expect(hashInlineScripts(indexHtml)).toHaveLength(1)
  })

  it('sends the precompressed asset by Accept-Encoding: br, else gzip, else as it is, always with Vary', async () => {
    const url = '/assets/index-Ab12.js'
    const br = await testApp.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['content-type']).toMatch(/javascript/)
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(assetJs)
    const gzip = await testApp.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(assetJs)
    const identity = await testApp.app.inject({ method: 'GET', url })
    expect(identity.headers['content-encoding']).toBeUndefined()
    expect(identity.body).toBe(assetJs)
    for (const answer of [br, gzip, identity]) {
      expect(answer.statusCode).toBe(200)
      expect(String(answer.headers.vary).toLowerCase()).toContain('accept-encoding')
    }
    const html = await testApp.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br' } })
    expect(html.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(html.rawPayload).toString()).toBe(indexHtml)
  })

  it('compresses a JSON answer over 1 KB, and leaves a small one as it is', async () => {
    const big = await testApp.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { 'accept-encoding': 'br, gzip' },
    })
    expect(big.statusCode).toBe(200)
    expect(big.headers['content-encoding']).toBe('br')
    expect(String(big.headers.vary).toLowerCase()).toContain('accept-encoding')
    const document = JSON.parse(brotliDecompressSync(big.rawPayload).toString())
    expect(document.openapi).toMatch(/^3\./)
    expect(big.rawPayload.length).toBeLessThan(JSON.stringify(document).length)
    const gzip = await testApp.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    const small = await testApp.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'accept-encoding': 'br, gzip' },
    })
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(small.json()).toEqual({ status: 'ok' })
  })

  it("sends an owner's long link list compressed, the same bytes each time until a write changes the list", async () => {
    const payload = (alias: string) => buildLinkBody({ alias, message: 'm'.repeat(200) })
    for (const index of [1, 2, 3, 4, 5])
      await owner.request({
        method: 'POST',
        url: '/api/links',
        payload: payload(`List ${index} ${Date.now()}`),
      })
    const read = () =>
      owner.request({ method: 'GET', url: '/api/links', headers: { 'accept-encoding': 'gzip, br' } })
    const [first, second] = [await read(), await read()]
    expect(first.statusCode).toBe(200)
    expect(first.headers['content-encoding']).toBe('br')
    expect(String(first.headers.vary).toLowerCase()).toContain('accept-encoding')
    expect(first.headers['content-type']).toMatch(/^application\/json/)
    const list = JSON.parse(brotliDecompressSync(first.rawPayload).toString()) as { data: unknown[] }
    expect(list.data.length).toBeGreaterThanOrEqual(5)
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true)
    const plain = await owner.request({ method: 'GET', url: '/api/links' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.json()).toEqual(list)

    await owner.request({ method: 'POST', url: '/api/links', payload: payload(`List 6 ${Date.now()}`) })
    const after = JSON.parse(brotliDecompressSync((await read()).rawPayload).toString()) as {
      data: unknown[]
    }
    expect(after.data).toHaveLength(list.data.length + 1)
  })

  it('sends a public link read over 1 KB (in UTF-8 bytes) compressed, and a short one as it is', async () => {
    const create = async (message: string) => {
      const created = await owner.request({
        method: 'POST',
        url: '/api/links',
        payload: buildLinkBody({ alias: `Public ${message.length} ${Date.now()}`, message }),
      })
      expect(created.statusCode).toBe(201)
      return (created.json() as { data: { alias_slug: string } }).data.alias_slug
    }
    // 280 euro signs are 280 characters but 840 bytes: the answer passes 1 KB only as bytes.
    const longSlug = await create('€'.repeat(280))
    const shortSlug = await create('Thanks!')
    const read = (slug: string, headers: Record<string, string> = {}) =>
      testApp.app.inject({ method: 'GET', url: `/api/pay/links/${slug}`, headers })

    const long = await read(longSlug, { 'accept-encoding': 'gzip, br' })
    expect(long.statusCode).toBe(200)
    expect(long.headers['content-encoding']).toBe('br')
    expect(String(long.headers.vary).toLowerCase()).toContain('accept-encoding')
    expect(long.headers['content-type']).toMatch(/^application\/json/)
    const plain = await read(longSlug)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(JSON.parse(brotliDecompressSync(long.rawPayload).toString())).toEqual(plain.json())
    expect(plain.json().data.message).toBe('€'.repeat(280))

    const short = await read(shortSlug, { 'accept-encoding': 'gzip, br' })
    expect(short.headers['content-encoding']).toBeUndefined()
    expect(short.json().data.message).toBe('Thanks!')
  })

  it('answers HEAD wherever GET answers: the pay page, an SPA route, an asset, the API', async () => {
    for (const url of [
      '/pay/some-slug',
      '/dashboard',
      '/',
      '/assets/index-Ab12.js',
      '/health',
      '/api/config',
    ]) {
      const head = await testApp.app.inject({ method: 'HEAD', url })
      expect(head.statusCode, url).toBe(200)
      expect(head.body, url).toBe('')
    }
    const page = await testApp.app.inject({ method: 'HEAD', url: '/pay/some-slug' })
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    // A file that is not there stays a 404, whoever asks.
    const missing = await testApp.app.inject({ method: 'HEAD', url: '/favicon.ico' })
    expect(missing.statusCode).toBe(404)
  })

  it('takes an empty JSON body on DELETE: someone else’s link is 404 and stays, your own is deleted', async () => {
    const created = await owner.request({
      method: 'POST',
      url: '/api/links',
      payload: buildLinkBody({ alias: `Empty Delete ${Date.now().toString(36)}` }),
    })
    expect(created.statusCode).toBe(201)
    const id = created.json().data.id as string
    const json = { 'content-type': 'application/json' }
    const foreign = await stranger.request({ method: 'DELETE', url: `/api/links/${id}`, headers: json })
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Link not found.' } })
    expect((await owner.request({ method: 'GET', url: `/api/links/${id}` })).statusCode).toBe(200)
    const own = await owner.request({ method: 'DELETE', url: `/api/links/${id}`, headers: json })
    expect(own.statusCode).toBe(200)
    expect(own.json()).toEqual({ data: { id } })
    expect((await owner.request({ method: 'GET', url: `/api/links/${id}` })).statusCode).toBe(404)
  })

  it('still refuses an empty JSON body where a body is required', async () => {
    const response = await owner.request({
      method: 'POST',
      url: '/api/links',
      headers: { 'content-type': 'application/json' },
      payload: '',
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.code).toBe('BAD_REQUEST')
  })
})

describe('security headers with WalletConnect and https', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await buildTestApp({
      webDistDir: writeWebBuild(),
      framesOrigin,
      publicOrigin: 'https://pay.example',
      walletConnectProjectId: '0123456789abcdef0123456789abcdef',
    })
  })
  afterAll(async () => {
    await testApp.close()
  })

  it("admits WalletConnect's relay and verify frames when the server has a project id, never in the framing rules, and HSTS on https", async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/dashboard',
      headers: { accept: 'text/html' },
    })
    const csp = parseCsp(response.headers['content-security-policy'])
    expect(csp['connect-src']?.[0]).toBe("'self'")
    expect(csp['connect-src']).toEqual(
      expect.arrayContaining(['wss://relay.walletconnect.org', 'https://rpc.walletconnect.org']),
    )
    expect(csp['frame-src']).toEqual(
      expect.arrayContaining([framesOrigin, 'https://verify.walletconnect.org']),
    )
    expect(csp['font-src']).toEqual(["'self'", 'https://fonts.reown.com'])
    expect(csp['frame-ancestors']).toEqual(["'none'"])
    expect(csp['script-src']).toEqual(["'self'", ...hashInlineScripts(indexHtml)])
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
    const api = await testApp.app.inject({ method: 'GET', url: '/health' })
    expect(api.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
    expect(api.headers['content-security-policy']).not.toContain('walletconnect')
  })
})
