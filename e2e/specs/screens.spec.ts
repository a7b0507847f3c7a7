import { createTestEmail, extractCode, waitForMail } from '../fixtures/dev-outbox.ts'
import { openExportWalletDialog } from '../fixtures/export-dialog.ts'
import { checkScreen, screenViewports } from '../fixtures/screens.ts'
import { authDialog, openAuthModal, requestEmailCode } from '../fixtures/sign-in.ts'
import { expect, test } from '../fixtures/test.ts'

/**
 * Every public screen at phone and desktop widths, light and dark: no serious accessibility
 * violation, nothing wider than the viewport, and a screenshot in e2e/.artifacts/screens to look at.
 */
const screens = [
  { name: 'landing', path: '/', dialog: null },
  // /login is the landing page with the sign-in modal open over it.
  { name: 'login', path: '/login', dialog: 'Sign in' },
  { name: 'pay-unavailable', path: '/pay/no-such-link', dialog: null },
]

for (const screen of screens) {
  for (const viewport of screenViewports) {
    for (const colorScheme of ['light', 'dark'] as const) {
      test(`${screen.name} at ${viewport.name} width in ${colorScheme}`, async ({ page }) => {
        await page.setViewportSize(viewport)
        await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
        await page.goto(screen.path)
        await page.waitForLoadState('networkidle')
        // The beta banner slides in 2.2 s after load; check and shoot the screen once it is there,
        // not while it animates in.
        if (screen.dialog === null) {
          await expect(page.getByRole('region', { name: 'Beta notice' })).toBeVisible()
        } else {
          // The modal hides the page from assistive technology; the banner is there behind it.
          await expect(page.getByText('Beta:', { exact: false }).first()).toBeVisible()
          await expect(page.getByRole('dialog', { name: screen.dialog })).toBeVisible()
        }
        await expect(page.locator('html')).toHaveClass(colorScheme === 'dark' ? /dark/ : /^(?!.*dark)/)
        await checkScreen(page, `${screen.name}-${viewport.name}-${colorScheme}`)
      })
    }
  }
}

// The sign-in and signed-in screens, walked through once per viewport and scheme with a fresh user.
for (const viewport of screenViewports) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`sign-in, onboarding, settings and export at ${viewport.name} width in ${colorScheme}`, async ({
      page,
      request,
    }) => {
      // Six screens with axe and a screenshot, a sign-up and a key export: near 60 s on a loaded machine.
      test.slow()
      const suffix = `${viewport.name}-${colorScheme}`
      await page.setViewportSize(viewport)
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
      // The beta banner would cover part of the first screens; it is tested on its own.
      await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))

      await openAuthModal(page)
      await checkScreen(page, `login-modal-${suffix}`, { fullPage: false })

      const email = createTestEmail()
      await requestEmailCode(page, email)
      await checkScreen(page, `login-code-${suffix}`, { fullPage: false })

      await authDialog(page)
        .getByLabel('Code')
        .fill(extractCode((await waitForMail(request, email)).text))
      await expect(page.getByRole('heading', { name: 'Welcome to Quick Links' })).toBeVisible({
        timeout: 20_000,
      })
      await checkScreen(page, `onboarding-${suffix}`)

      await page.getByRole('button', { name: 'Continue to dashboard' }).click()
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
      await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible()
      // The signer gives every new user a Solana account: its row shows the base58 address masked 6…4.
      const solanaRow = page.locator('dl > div', { has: page.locator('dt', { hasText: 'Solana address' }) })
      await expect(solanaRow.locator('dd')).toHaveText(/^[1-9A-HJ-NP-Za-km-z]{6}…[1-9A-HJ-NP-Za-km-z]{4}$/)
      await expect(solanaRow.getByRole('button', { name: 'Copy Solana address' })).toBeVisible()
      await checkScreen(page, `settings-${suffix}`)

      const dialog = await openExportWalletDialog(page)
      await checkScreen(page, `export-dialog-${suffix}`, { fullPage: false })

      await dialog.getByRole('button', { name: 'Show seed phrase' }).click()
      await expect(
        page
          .frameLocator('iframe[title="Wallet export"]')
          .getByRole('list', { name: 'Recovery phrase words' }),
      ).toBeVisible({ timeout: 20_000 })
      // axe checks the export frame's document too (another origin, its own styles).
      await checkScreen(page, `export-shown-${suffix}`, { fullPage: false })
    })
  }
}
