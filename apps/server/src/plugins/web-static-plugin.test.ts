import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts'

const indexHtml = '<!doctype html><title>Quick Links</title><div id="root"></div>'
const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }

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
    const api = await testApp.app.inject({ method: 'GET', url: '/health' })
    expect(api.headers['x-ratelimit-limit']).toBe('1000')
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
    const api = await testApp.app.inject({ method: 'GET', url: '/health' })
    expect(api.statusCode).toBe(200)
  })
})
