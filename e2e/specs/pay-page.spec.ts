import type { APIRequestContext, Page } from '@playwright/test'
import { expect, openPayPage, payModal, test } from '../fixtures/pay.ts'
import { expectNoSeriousAxeViolations } from '../fixtures/test.ts'

/**
 * The public pay page of a payee's link (docs/product.md#pay-page): what a payer sees before
 * paying, and the tags that make a shared link preview.
 */

test('the pay page shows the link and previews it with Open Graph and Twitter tags', async ({
  page,
  payee,
  devnet,
  consoleErrors: _consoleErrors,
}) => {
  const link = await payee.createLink()
  await openPayPage(page, devnet, link, 8)
  await expect(page.getByText('Thanks for supporting!')).toBeVisible()
  await expect(page.getByText(`${link.receiver.slice(0, 6)}…${link.receiver.slice(-4)}`)).toBeVisible()
  await expect(page.getByText(/USDC on Base/)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Pay', exact: true })).toBeVisible()
  await expectNoSeriousAxeViolations(page)

  const html = await (await page.request.get(link.url, { headers: { accept: 'text/html' } })).text()
  expect(html).toContain(`<meta property="og:title" content="${link.alias}" />`)
  expect(html).toContain('<meta property="og:description" content="Thanks for supporting!" />')
  expect(html).toContain(`<meta property="og:url" content="${new URL(link.url, page.url()).href}" />`)
  expect(html).toContain('<meta name="twitter:card" content="summary" />')
  expect(html).toContain(`<meta name="twitter:title" content="${link.alias}" />`)
})

test('an unknown slug previews with the generic tags and still serves the app', async ({ page }) => {
  const response = await page.request.get('/pay/no-such-link-here', { headers: { accept: 'text/html' } })
  expect(response.status()).toBe(200)
  const html = await response.text()
  expect(html).toContain('<div id="root"></div>')
  expect(html).toContain('<meta property="og:title" content="Quick Links" />')
  expect(html).toContain('<meta name="twitter:card" content="summary" />')
})

// The wallet stack: wagmi, its connectors, WalletConnect, and the pay modal's own code.
const walletSourcePattern =
  /node_modules\/(?:wagmi|@wagmi|@walletconnect)\/|src\/features\/pay\/pay-modal\.tsx$/

/** Every JavaScript file the page has fetched so far, in order. */
function recordScripts(page: Page): string[] {
  const urls: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') urls.push(request.url())
  })
  return urls
}

/**
 * The scripts among `urls` whose source map names a module of the wallet stack. A script without a
 * map (the bundler's few-line runtime) is read as it is.
 */
async function findWalletScripts(request: APIRequestContext, urls: string[]): Promise<string[]> {
  const found: string[] = []
  for (const url of urls) {
    const script = await (await request.get(url)).text()
    const mapName = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(script)?.[1]
    if (mapName === undefined) {
      expect(script.length, `${url} has no source map, so it should be tiny`).toBeLessThan(4096)
      if (/wagmi|walletconnect/i.test(script)) found.push(url)
      continue
    }
    const map = await request.get(new URL(mapName, url).href)
    expect(map.status(), mapName).toBe(200)
    const { sources } = (await map.json()) as { sources: string[] }
    if (sources.some((source) => walletSourcePattern.test(source))) found.push(url)
  }
  return found
}

test('the pay page fetches the wallet stack only when Pay is pressed, and its link not at all', async ({
  page,
  payee,
}) => {
  const link = await payee.createLink()
  const scripts = recordScripts(page)
  const linkReads: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/pay/links/')) linkReads.push(request.url())
  })
  await page.goto(link.url)
  const pay = page.getByRole('button', { name: 'Pay', exact: true })
  await expect(pay).toBeEnabled()
  await page.waitForLoadState('networkidle')
  const beforePay = [...scripts]
  expect(beforePay.length).toBeGreaterThan(0)
  expect(await findWalletScripts(page.request, beforePay)).toEqual([])
  // The link came in the page's HTML (docs/decisions/0028-the-pay-page-loads-the-wallet-on-intent.md).
  expect(linkReads).toEqual([])

  await pay.click()
  await expect(payModal(page, 'Select Your Wallet')).toBeVisible({ timeout: 20_000 })
  const afterPay = scripts.slice(beforePay.length)
  expect(await findWalletScripts(page.request, afterPay)).not.toEqual([])
})
