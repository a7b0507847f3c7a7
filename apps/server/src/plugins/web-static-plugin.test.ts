import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts'
import { invoices, links, users } from '../db/schema.ts'
import { pickEncoding } from '../services/http/encode-once.ts'

const indexHtml = '<!doctype html><title>Quick Links</title><div id="root"></div>'
const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }
const invoiceId = `inv_${'A'.repeat(22)}`

describe('web app serving', () => {
  let testApp: TestApp
  beforeAll(async () => {
    const distDir = mkdtempSync(join(tmpdir(), 'ql-web-dist-'))
    mkdirSync(join(distDir, 'assets'))
    writeFileSync(join(distDir, 'index.html'), indexHtml)
    writeFileSync(join(distDir, 'assets', 'index-BdF3x9kQ.js'), 'console.log(1)')
    writeFileSync(join(distDir, 'favicon.svg'), '<svg/>')
    testApp = await buildTestApp({ webDistDir: distDir })
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('serves index.html at / without caching', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/', headers: html })
    expect(response.statusCode).toBe(200)
    expect(response.body).toBe(indexHtml)
    expect(response.headers['cache-control']).toBe('no-cache')
  })

  it('falls back to index.html for client-side routes such as /dashboard and /pay/x', async () => {
    for (const url of ['/dashboard', '/pay/x', '/some-slug?utm_source=mail']) {
      const response = await testApp.app.inject({ method: 'GET', url, headers: html })
      expect(response.statusCode, url).toBe(200)
      expect(response.headers['content-type'], url).toMatch(/^text\/html/)
      expect(response.headers['cache-control'], url).toBe('no-cache')
      expect(response.body, url).toBe(indexHtml)
    }
  })

  it('caches hashed assets for a year and other files not at all', async () => {
    const asset = await testApp.app.inject({ method: 'GET', url: '/assets/index-BdF3x9kQ.js' })
    expect(asset.statusCode).toBe(200)
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const icon = await testApp.app.inject({ method: 'GET', url: '/favicon.svg' })
    expect(icon.statusCode).toBe(200)
    expect(icon.headers['cache-control']).toBe('no-cache')
  })

  it('keeps API paths and missing assets as JSON 404s, even for a browser navigation', async () => {
    const api = await testApp.app.inject({ method: 'GET', url: '/api/nope', headers: html })
    expect(api.statusCode).toBe(404)
    expect(api.json().error.code).toBe('NOT_FOUND')
    const asset = await testApp.app.inject({
      method: 'GET',
      url: '/assets/missing-123.js',
      headers: { accept: '*/*' },
    })
    expect(asset.statusCode).toBe(404)
    expect(asset.json().error.code).toBe('NOT_FOUND')
  })

  it('does not count static files against the rate limit', async () => {
    const page = await testApp.app.inject({ method: 'GET', url: '/dashboard', headers: html })
    expect(page.headers['x-ratelimit-limit']).toBeUndefined()
    const api = await testApp.app.inject({ method: 'GET', url: '/api/config' })
    expect(api.headers['x-ratelimit-limit']).toBe('1000')
  })
})

describe('pay page previews (Open Graph and Twitter tags)', () => {
  const payIndexHtml =
    '<!doctype html><html><head><meta charset="UTF-8" /><meta name="description" content="Site" />' +
    '<title>Quick Links</title></head><body><div id="root"></div></body></html>'
  let testApp: TestApp

  /** The content of every <meta property|name=key> of a page, in order. */
  function readMeta(body: string, key: string): string[] {
    const pattern = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)" />`, 'g')
    return [...body.matchAll(pattern)].map((match) => match[1] ?? '')
  }

  beforeAll(async () => {
    const distDir = mkdtempSync(join(tmpdir(), 'ql-web-dist-'))
    writeFileSync(join(distDir, 'index.html'), payIndexHtml)
    testApp = await buildTestApp({ webDistDir: distDir, publicOrigin: 'https://pay.example' })
    const [user] = await testApp.database.db
      .insert(users)
      .values({ address: '0x00000000000000000000000000000000000000a1' })
      .returning()
    if (user === undefined) throw new Error('no user')
    const link = {
      userId: user.id,
      receiverAddress: '0x00000000000000000000000000000000000000B2',
      tokenName: 'USDC',
      tokenAddress: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    }
    const [coffee] = await testApp.database.db
      .insert(links)
      .values([
        {
          ...link,
          alias: 'Coffee Fund',
          aliasSlug: 'Coffee-Fund',
          message: 'Thanks for the <coffee> & "cake"!',
        },
        { ...link, alias: "Tom & Jerry's $& jar", aliasSlug: 'tom-jar', message: '' },
        { ...link, alias: 'Closed Shop', aliasSlug: 'closed-shop', message: 'Gone', enabled: false },
      ])
      .returning()
    if (coffee === undefined) throw new Error('no link')
    const expiresAt = new Date(Date.now() + 3_600_000)
    await testApp.database.db.insert(invoices).values({
      id: invoiceId,
      linkId: coffee.id,
      userId: user.id,
      chainId: 8453,
      tokenAddress: link.tokenAddress,
      tokenSymbol: 'USDC',
      tokenDecimals: 6,
      receiverAddress: link.receiverAddress.toLowerCase(),
      amount: '12.5',
      amountUnits: '12500000',
      memo: 'Order #1042:\n two <bags> of beans',
      expiresAt,
      monitorUntil: new Date(expiresAt.getTime() + 86_400_000),
    })
  })
  afterAll(async () => {
    await testApp.close()
  })

  it("fills the tags from the enabled link's alias and message, HTML-escaped, with its canonical URL", async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/pay/coffee-fund?ref=x', headers: html })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^text\/html/)
    expect(response.headers['cache-control']).toBe('no-cache')
    const body = response.body
    expect(readMeta(body, 'og:title')).toEqual(['Coffee Fund'])
    expect(readMeta(body, 'twitter:title')).toEqual(['Coffee Fund'])
    const description = 'Thanks for the &lt;coffee&gt; &amp; &quot;cake&quot;!'
    expect(readMeta(body, 'og:description')).toEqual([description])
    expect(readMeta(body, 'twitter:description')).toEqual([description])
    expect(readMeta(body, 'description')).toEqual([description])
    expect(readMeta(body, 'og:url')).toEqual(['https://pay.example/pay/Coffee-Fund'])
    expect(readMeta(body, 'twitter:card')).toEqual(['summary'])
    expect(body).toContain('<title>Coffee Fund</title>')
    // Still the SPA: its root element, and the tags inside <head>.
    expect(body).toContain('<div id="root"></div>')
    expect(body.indexOf('og:title')).toBeLessThan(body.indexOf('</head>'))
    expect(body).not.toContain('<coffee>')
  })

  it("describes a link without a message as 'Pay {alias} in any token on any chain.'", async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/pay/tom-jar', headers: html })
    expect(response.statusCode).toBe(200)
    expect(readMeta(response.body, 'og:title')).toEqual(['Tom &amp; Jerry&#39;s $&amp; jar'])
    expect(readMeta(response.body, 'og:description')).toEqual([
      'Pay Tom &amp; Jerry&#39;s $&amp; jar in any token on any chain.',
    ])
    expect(response.body).toContain('<title>Tom &amp; Jerry&#39;s $&amp; jar</title>')
  })

  it('answers an unknown or disabled slug with the SPA and generic tags, still 200', async () => {
    for (const url of ['/pay/closed-shop', '/pay/no-such-link', `/pay/${'x'.repeat(80)}`]) {
      const response = await testApp.app.inject({ method: 'GET', url, headers: html })
      expect(response.statusCode, url).toBe(200)
      expect(response.body, url).toContain('<div id="root"></div>')
      expect(readMeta(response.body, 'og:title'), url).toEqual(['Quick Links'])
      expect(readMeta(response.body, 'twitter:title'), url).toEqual(['Quick Links'])
      expect(readMeta(response.body, 'og:description'), url).toEqual([
        'Pay in any token on any chain with Quick Links.',
      ])
      expect(response.body, url).not.toContain('Gone')
      expect(response.body, url).not.toContain('Closed Shop')
    }
  })

  it("previews an invoice with its amount and the link's name, and others on that path generically", async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/pay/coffee-fund/${invoiceId}`,
      headers: html,
    })
    expect(response.statusCode).toBe(200)
    expect(readMeta(response.body, 'og:title')).toEqual(['Pay 12.5 USDC to Coffee Fund'])
    expect(readMeta(response.body, 'og:description')).toEqual([
      'Invoice from Coffee Fund for 12.5 USDC. Order #1042: two &lt;bags&gt; of beans',
    ])
    expect(readMeta(response.body, 'og:url')).toEqual([`https://pay.example/pay/Coffee-Fund/${invoiceId}`])
    expect(response.body).toContain('<div id="root"></div>')
    // Another link's slug, an unknown invoice, or a receipt/status path: the SPA, no invoice tags.
    for (const url of [
      `/pay/tom-jar/${invoiceId}`,
      `/pay/coffee-fund/inv_${'B'.repeat(22)}`,
      '/pay/status/0xab',
    ]) {
      const other = await testApp.app.inject({ method: 'GET', url, headers: html })
      expect(other.statusCode, url).toBe(200)
      expect(other.body, url).toContain('<div id="root"></div>')
      expect(other.body, url).not.toContain('12.5 USDC')
    }
  })

  it('leaves other pages and non-HTML requests alone', async () => {
    const dashboard = await testApp.app.inject({ method: 'GET', url: '/dashboard', headers: html })
    expect(dashboard.body).toBe(payIndexHtml)
    const json = await testApp.app.inject({
      method: 'GET',
      url: '/pay/coffee-fund',
      headers: { accept: 'application/json' },
    })
    expect(json.statusCode).toBe(404)
    expect(json.json().error.code).toBe('NOT_FOUND')
  })

  it('sends the pay page compressed by Accept-Encoding (br, else gzip), with Vary', async () => {
    const br = await testApp.app.inject({
      method: 'GET',
      url: '/pay/coffee-fund',
      headers: { ...html, 'accept-encoding': 'gzip, deflate, br' },
    })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toBe('accept-encoding')
    expect(readMeta(brotliDecompressSync(br.rawPayload).toString(), 'og:title')).toEqual(['Coffee Fund'])
    const gzip = await testApp.app.inject({
      method: 'GET',
      url: '/pay/coffee-fund',
      headers: { ...html, 'accept-encoding': 'gzip, br;q=0' },
    })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(readMeta(gunzipSync(gzip.rawPayload).toString(), 'og:title')).toEqual(['Coffee Fund'])
    expect(pickEncoding('identity')).toBeUndefined()
    expect(pickEncoding('*')).toBe('br')
  })

  it('answers HEAD, and a GET that accepts anything or sends no Accept, with the pay page', async () => {
    const head = await testApp.app.inject({ method: 'HEAD', url: '/pay/coffee-fund' })
    expect(head.statusCode).toBe(200)
    expect(head.headers['content-type']).toMatch(/^text\/html/)
    expect(head.body).toBe('')
    for (const headers of [{}, { accept: '*/*' }]) {
      const response = await testApp.app.inject({ method: 'GET', url: '/pay/coffee-fund', headers })
      expect(response.statusCode).toBe(200)
      expect(readMeta(response.body, 'og:title')).toEqual(['Coffee Fund'])
    }
    const trailingSlash = await testApp.app.inject({ method: 'HEAD', url: '/pay/coffee-fund/' })
    expect(trailingSlash.statusCode).toBe(200)
  })
})

describe('web app not built', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await buildTestApp({ webDistDir: join(tmpdir(), 'ql-no-such-dist') })
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('answers / and page navigations with a plain message saying to run the build', async () => {
    for (const url of ['/', '/dashboard']) {
      const response = await testApp.app.inject({ method: 'GET', url, headers: html })
      expect(response.statusCode, url).toBe(503)
      expect(response.headers['content-type'], url).toMatch(/^text\/plain/)
      expect(response.body, url).toMatch(/web app has not been built.*\n\nRun `npm run build`/)
    }
    const api = await testApp.app.inject({ method: 'GET', url: '/api/config' })
    expect(api.statusCode).toBe(200)
  })
})
