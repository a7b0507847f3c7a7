import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { payPageDataElementId } from '@quicklinks/core/api/pay-page-data'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts'
import { invoices, links, users } from '../db/schema.ts'
import { injectPayPageData, toScriptJson } from './inject-pay-page-data.ts'

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }
const invoiceId = `inv_${'C'.repeat(22)}`

/** The parsed text of the page's link data block, or undefined when it has none. */
function readPayPageData(body: string): unknown {
  const pattern = new RegExp(`<script type="application/json" id="${payPageDataElementId}">([^<]*)</script>`)
  const text = pattern.exec(body)?.[1]
  return text === undefined ? undefined : JSON.parse(text)
}

describe('toScriptJson and injectPayPageData', () => {
  it('writes text that could close the element or open a comment as \\u escapes that parse back', () => {
    const value = { message: '</script><!-- & \u2028 \u2029 "quoted" $& $1' }
    const json = toScriptJson(value)
    expect(json).not.toMatch(/[<>&\u2028\u2029]/)
    expect(JSON.parse(json)).toEqual(value)
  })

  it('puts the data block before </head>, and leaves HTML without a head alone', () => {
    const page = injectPayPageData('<html><head><title>x</title></head><body></body></html>', { a: '$&' })
    expect(page.indexOf(payPageDataElementId)).toBeLessThan(page.indexOf('</head>'))
    expect(readPayPageData(page)).toEqual({ a: '$&' })
    expect(injectPayPageData('<div id="root"></div>', { a: 1 })).toBe('<div id="root"></div>')
  })
})

describe('the pay page carries its link', () => {
  const indexHtml =
    '<!doctype html><html><head><title>Quick Links</title></head><body><div id="root"></div></body></html>'
  let testApp: TestApp

  beforeAll(async () => {
    const distDir = mkdtempSync(join(tmpdir(), 'ql-web-dist-'))
    writeFileSync(join(distDir, 'index.html'), indexHtml)
    testApp = await buildTestApp({ webDistDir: distDir, publicOrigin: 'https://pay.example' })
    const [user] = await testApp.database.db
      .insert(users)
      .values({ address: '0x00000000000000000000000000000000000000c1' })
      .returning()
    if (user === undefined) throw new Error('no user')
    const link = {
      userId: user.id,
      receiverAddress: '0x00000000000000000000000000000000000000C2',
      tokenName: 'USDC',
      tokenAddress: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    }
    const [tea] = await testApp.database.db
      .insert(links)
      .values([
        {
          ...link,
          alias: 'Tea Jar',
          aliasSlug: 'tea-jar',
          message: 'For </script><script>alert(1)</script> tea',
        },
        { ...link, alias: 'Shut', aliasSlug: 'shut', message: 'Closed', enabled: false },
      ])
      .returning()
    if (tea === undefined) throw new Error('no link')
    const expiresAt = new Date(Date.now() + 3_600_000)
    await testApp.database.db.insert(invoices).values({
      id: invoiceId,
      linkId: tea.id,
      userId: user.id,
      chainId: 8453,
      tokenAddress: link.tokenAddress,
      tokenSymbol: 'USDC',
      tokenDecimals: 6,
      receiverAddress: link.receiverAddress.toLowerCase(),
      amount: '3',
      amountUnits: '3000000',
      memo: null,
      expiresAt,
      monitorUntil: new Date(expiresAt.getTime() + 86_400_000),
    })
  })
  afterAll(async () => {
    await testApp.close()
  })

  it("embeds GET /api/pay/links/{slug}'s answer in /pay/{slug}, escaped, in any case of the slug", async () => {
    const api = await testApp.app.inject({ method: 'GET', url: '/api/pay/links/tea-jar' })
    expect(api.statusCode).toBe(200)
    for (const url of ['/pay/tea-jar', '/pay/Tea-Jar?ref=mail']) {
      const page = await testApp.app.inject({ method: 'GET', url, headers: html })
      expect(page.statusCode, url).toBe(200)
      expect(readPayPageData(page.body), url).toEqual(api.json())
      // The message's markup stays data: one script element of ours, no second one opened by it.
      expect(page.body.match(/<script/g), url).toHaveLength(1)
    }
  })

  it("embeds the link's answer in its invoice page", async () => {
    const api = await testApp.app.inject({ method: 'GET', url: '/api/pay/links/tea-jar' })
    const page = await testApp.app.inject({ method: 'GET', url: `/pay/tea-jar/${invoiceId}`, headers: html })
    expect(page.statusCode).toBe(200)
    expect(readPayPageData(page.body)).toEqual(api.json())
  })

  it('embeds nothing for a disabled or unknown link, nor on an invoice path that is not its own', async () => {
    for (const url of [
      '/pay/shut',
      '/pay/no-such-link',
      `/pay/shut/${invoiceId}`,
      `/pay/tea-jar/inv_${'D'.repeat(22)}`,
    ]) {
      const page = await testApp.app.inject({ method: 'GET', url, headers: html })
      expect(page.statusCode, url).toBe(200)
      expect(page.body, url).toContain('<div id="root"></div>')
      expect(page.body, url).not.toContain(payPageDataElementId)
    }
  })
})
