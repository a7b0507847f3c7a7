import { join } from 'node:path'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { screenViewports } from '../fixtures/screens.ts'
import { createLinkThroughApi } from '../fixtures/share-links.ts'
import { getSessionUser } from '../fixtures/sign-in.ts'
import { expect, expectNoSeriousAxeViolations, test } from '../fixtures/test.ts'

/**
 * The share dialog on the real stack (docs/product.md#share-dialog): a fresh payee signed in through the
 * API (the signedInUser fixture) with one link made through the API opens it from the link card's
 * Share button.
 */

let alias = ''
let url = ''

test.beforeEach(async ({ page, context, signedInUser: _signedInUser }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  // The beta banner is tested on its own; here it would cover the dialog.
  await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
  const { address } = await getSessionUser(page)
  alias = `Tips ${Date.now()}`
  const link = await createLinkThroughApi(page, alias, address)
  await page.goto('/dashboard')
  url = `${new URL(page.url()).origin}/pay/${link.alias_slug}`
})

async function openShareDialog(page: import('@playwright/test').Page) {
  await page.getByRole('article', { name: alias }).getByRole('button', { name: 'Share', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Share with Friends' })
  await expect(dialog).toBeVisible()
  return dialog
}

test('the QR code decodes to the link, Copy says Link Copied, social buttons share it', async ({
  page,
  consoleErrors: _consoleErrors,
}) => {
  const dialog = await openShareDialog(page)
  await expect(dialog.getByRole('textbox', { name: 'Payment link' })).toHaveValue(url)
  await expect(dialog).toContainText("You'll be receiving USDC on Base.")

  // Read the QR code as a camera would: the pixels on screen, decoded by jsQR.
  const qr = dialog.getByRole('img', { name: `QR code for ${url}` })
  await expect(qr).toBeVisible()
  const png = PNG.sync.read(await qr.screenshot())
  const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)
  expect(decoded?.data).toBe(url)

  await dialog.getByRole('button', { name: 'Copy link' }).click()
  // The open dialog hides the toast area from the accessibility tree: found by text. Inside the
  // dialog a live region says it to screen readers.
  const toastTitle = page.getByText('Link Copied', { exact: true })
  await expect(toastTitle).toBeVisible()
  await expect(page.getByText('The payable link has been copied to your clipboard.').first()).toBeVisible()
  await expect(dialog.getByText('Link copied', { exact: true })).toBeAttached()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url)
  // The copy toast closes after 2 s.
  await expect(toastTitle).toBeHidden({ timeout: 4000 })

  for (const platform of ['Facebook', 'X', 'Whatsapp', 'Telegram', 'Linkedin']) {
    const share = dialog.getByRole('link', { name: `Share on ${platform}` })
    await expect(share).toHaveAttribute('target', '_blank')
    await expect(share).toHaveAttribute('rel', 'noopener noreferrer')
    const href = (await share.getAttribute('href')) ?? ''
    expect(new URL(href).protocol).toBe('https:')
    expect(decodeURIComponent(href)).toContain(url)
  }

  await expectNoSeriousAxeViolations(page)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
})

// One test per width and scheme, so each fits the default timeout on a loaded machine.
for (const viewport of screenViewports) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`the share dialog at ${viewport.name} width in ${colorScheme}`, async ({ page }) => {
      await page.setViewportSize(viewport)
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
      await expect(page.locator('html')).toHaveClass(colorScheme === 'dark' ? /dark/ : /^(?!.*dark)/)
      const dialog = await openShareDialog(page)
      // The QR code still decodes in this theme and size.
      const png = PNG.sync.read(await dialog.getByRole('img', { name: `QR code for ${url}` }).screenshot())
      expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(url)
      // The dialog fits the viewport (the page behind it is the dashboard's concern).
      const box = await dialog.boundingBox()
      expect(box?.x ?? -1).toBeGreaterThanOrEqual(0)
      expect((box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(viewport.width)
      await expectNoSeriousAxeViolations(page)
      await page.screenshot({
        path: join(
          import.meta.dirname,
          '..',
          '.artifacts',
          'screens',
          `share-dialog-${viewport.name}-${colorScheme}.png`,
        ),
      })
      await page.keyboard.press('Escape')
      await expect(dialog).toBeHidden()
    })
  }
}
