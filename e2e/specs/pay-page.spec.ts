import { expect, openPayPage, test } from '../fixtures/pay.ts'
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
