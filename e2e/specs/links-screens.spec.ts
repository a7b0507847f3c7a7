import { linkDialog, openNewLink, selectOptionContaining } from '../fixtures/links.ts'
import { checkScreen, screenViewports } from '../fixtures/screens.ts'
import { getSessionUser } from '../fixtures/sign-in.ts'
import { expect, test } from '../fixtures/test.ts'

/**
 * The Links tab and each page of the link manager at phone and desktop widths, light and dark: no
 * horizontal overflow, no serious axe violation, and a screenshot in e2e/.artifacts/screens. One
 * test per width and scheme, each marked slow (test.slow()).
 */

for (const viewport of screenViewports) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`links dashboard and link manager at ${viewport.name} width in ${colorScheme}`, async ({
      page,
      signedInUser: _signedInUser,
      consoleErrors: _consoleErrors,
    }) => {
      // Two links and seven screens, each with axe and a screenshot: about a minute on a
      // loaded 2-core runner. Three times the default timeout, the same checks.
      test.slow()
      const suffix = `${viewport.name}-${colorScheme}`
      // Slugs are unique across all users: each run names its links apart.
      const tag = String(Date.now()).slice(-5)
      const coffee = `Coffee Fund ${tag}`
      const card = `Card Top-up ${tag}`
      await page.setViewportSize(viewport)
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
      await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
      const { address } = await getSessionUser(page)
      await page.goto('/dashboard')
      await expect(page.getByRole('heading', { name: 'Create your first payment link' })).toBeVisible()
      await checkScreen(page, `links-empty-${suffix}`)

      const typeDialog = await openNewLink(page)
      await typeDialog.getByRole('radio', { name: /Crypto Payment Page/ }).click()
      await checkScreen(page, `links-modal-type-${suffix}`, { fullPage: false })
      await typeDialog.getByRole('button', { name: 'Continue' }).click()

      const details = page.getByRole('dialog', { name: 'Crypto Payment Page' })
      await details.getByLabel('Payment Page Name').fill(coffee)
      await details.getByLabel('Wallet Address').fill('0x12')
      await details.getByLabel('Message').click()
      await expect(details.getByLabel('Receive Token')).not.toContainText('Loading tokens…')
      await checkScreen(page, `links-modal-details-invalid-${suffix}`, { fullPage: false })
      await details.getByLabel('Wallet Address').fill(address)
      await selectOptionContaining(details.getByLabel('Receive Token'), 'USDC')
      await details.getByLabel('Message').fill('Thanks for the coffee!')
      await checkScreen(page, `links-modal-details-${suffix}`, { fullPage: false })
      await details.getByRole('button', { name: 'Create' }).click()
      await expect(page.getByRole('dialog', { name: 'Your Link is Ready to Share' })).toBeVisible()
      await checkScreen(page, `links-modal-ready-${suffix}`, { fullPage: false })
      await page.getByRole('button', { name: 'Done' }).click()
      await expect(linkDialog(page)).toBeHidden()

      // A second link, a favorite and a disabled one, so the list shows every state.
      await openNewLink(page)
      await page.getByRole('radio', { name: /Avax Card Payment Page/ }).click()
      await page.getByRole('button', { name: 'Continue' }).click()
      const avax = page.getByRole('dialog', { name: 'Avax Card Payment Page' })
      await avax.getByLabel('Payment Page Name').fill(card)
      await avax.getByLabel('Wallet Address').fill(address)
      await expect(avax.getByLabel('Receive Token').locator('option:checked')).toContainText('USDC')
      await avax.getByRole('button', { name: 'Create' }).click()
      await page.getByRole('button', { name: 'Done' }).click()
      const cardArticle = page.getByRole('article', { name: card })
      await cardArticle.getByRole('button', { name: 'Add to favorites' }).click()
      await expect(cardArticle.getByRole('button', { name: 'Remove from favorites' })).toBeVisible()
      await page.getByRole('article', { name: coffee }).getByRole('switch', { name: 'Enabled' }).click()
      await expect(page.getByText('The link has been disabled.', { exact: true })).toBeVisible()
      await checkScreen(page, `links-list-${suffix}`)

      await page
        .getByRole('article', { name: coffee })
        .getByRole('button', { name: `More actions for ${coffee}` })
        .click()
      await page.getByRole('menuitem', { name: 'Edit' }).click()
      await expect(page.getByRole('dialog', { name: 'Edit Payment Link' })).toBeVisible()
      await checkScreen(page, `links-modal-edit-${suffix}`, { fullPage: false })
    })
  }
}
