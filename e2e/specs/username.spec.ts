import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { createTestEmail, extractCode, waitForMail } from '../fixtures/dev-outbox.ts'
import { checkScreen, screenViewports } from '../fixtures/screens.ts'
import { getCsrfToken } from '../fixtures/share-links.ts'
import { authDialog, requestEmailCode } from '../fixtures/sign-in.ts'
import { expect, expectNoSeriousAxeViolations, test } from '../fixtures/test.ts'

/**
 * The username claim screen on the real stack (docs/product.md#username):
 * lookups against GET /api/users/username/{name}/exists, claims through POST /api/users/username.
 */

/** A name no other run has used: letters, digits and underscore, at most 32 characters. */
function createTestUsername(): string {
  return `e2e_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
})

function searchBox(page: Page) {
  return page.getByRole('searchbox', { name: 'Search for your 0x Username' })
}

test('a free name is available, reserved with the countdown and saved locally', async ({
  page,
  consoleErrors: _consoleErrors,
}) => {
  await page.goto('/username')
  await expect(page.getByRole('heading', { name: 'Claim Your Username', level: 1 })).toBeVisible()
  const name = createTestUsername()
  await searchBox(page).fill(name)
  await expect(page.getByText(`@${name} is available!`)).toBeVisible()
  const reserved = page.getByRole('region', { name: 'Selected username' })
  await expect(reserved).toContainText(`@${name}`)
  await expect(reserved).toContainText(/Reserve expires in\s*72:56:2\d/)
  expect(await page.evaluate(() => localStorage.getItem('tw_desired_username'))).toBe(name)
  // Under 3 characters clears everything.
  await searchBox(page).fill('ab')
  await expect(page.getByText(`@${name} is available!`)).toBeHidden()
  await expect(reserved).toBeHidden()
})

test('signed out, Claim Now opens sign-in; after the code the saved name is claimed', async ({
  page,
  request,
  consoleErrors: _consoleErrors,
}) => {
  await page.goto('/username')
  const name = createTestUsername()
  await searchBox(page).fill(name)
  await searchBox(page).press('Enter')
  await expect(page.getByText(`@${name} is available!`)).toBeVisible()
  const claimNow = page.getByRole('button', { name: 'Claim Now' })
  await expect(claimNow).toBeDisabled()
  await page.getByRole('checkbox', { name: /Terms of Service/ }).check()
  await claimNow.click()

  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible()
  // The modal hides the page from assistive technology, so the button is found by its text.
  await expect(page.locator('button', { hasText: 'Opening…' })).toBeVisible()
  const email = createTestEmail()
  await requestEmailCode(page, email)
  await authDialog(page)
    .getByLabel('Code')
    .fill(extractCode((await waitForMail(request, email)).text))

  await expect(page).toHaveURL(/\/settings$/, { timeout: 20_000 })
  await expect(page.getByRole('region', { name: /Notifications/ })).toContainText('Username claimed')
  await expect(page.getByText(`@${name}`, { exact: true })).toBeVisible()
  const me = (await (await page.request.get('/api/auth/me')).json()) as { data: { username: string | null } }
  expect(me.data.username).toBe(name)
  expect(await page.evaluate(() => localStorage.getItem('tw_desired_username'))).toBeNull()
})

test('signed in: a taken name offers suggestions, a chip selects directly, Claim Now claims it', async ({
  page,
  signedInUser: _signedInUser,
  consoleErrors: _consoleErrors,
}) => {
  // Someone else's name: claimed through the API by this user first, then looked up again.
  const takenName = createTestUsername()
  const claimed = await page.request.post('/api/users/username', {
    headers: { 'X-CSRF-Token': await getCsrfToken(page) },
    data: { username: takenName },
  })
  expect(claimed.status(), await claimed.text()).toBe(200)

  await page.goto('/settings')
  await page.getByRole('link', { name: 'Change username' }).click()
  await expect(page).toHaveURL(/\/username$/)
  await searchBox(page).fill(takenName.toUpperCase())
  await expect(page.getByText('That handle is taken. Try one:')).toBeVisible()
  const year = new Date().getFullYear()
  const chips = page.getByRole('list', { name: 'Suggestions' }).getByRole('button')
  await expect(chips).toHaveText([
    `@${takenName.toUpperCase()}${year}`,
    `@${takenName.toUpperCase()}123`,
    `@${takenName.toUpperCase()}_official`,
    /^@.*\d{4}$/,
  ])
  expect(await page.evaluate(() => localStorage.getItem('tw_desired_username'))).toBeNull()
  await expectNoSeriousAxeViolations(page)
  // The suggestions wrap within a phone's width.
  await page.setViewportSize({ width: 375, height: 812 })
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0)
  await page.screenshot({
    path: join(import.meta.dirname, '..', '.artifacts', 'screens', 'username-taken-phone-light.png'),
    fullPage: true,
  })

  const chosen = `${takenName.toUpperCase()}123`
  await chips.nth(1).click()
  await expect(page.getByRole('region', { name: 'Selected username' })).toContainText(`@${chosen}`)
  await expect(page.getByText(`@${chosen} is available!`)).toBeVisible()
  await page.getByRole('checkbox', { name: /Terms of Service/ }).check()
  await page.getByRole('button', { name: 'Claim Now' }).click()
  await expect(page).toHaveURL(/\/settings$/)
  await expect(page.getByText(`@${chosen}`, { exact: true })).toBeVisible()

  // The back arrow leaves the screen.
  await page.getByRole('link', { name: 'Change username' }).click()
  await page.getByRole('button', { name: 'Back' }).click()
  await expect(page).toHaveURL(/\/settings$/)
})

test('the username screen at phone and desktop widths, light and dark', async ({ page }) => {
  await page.goto('/username')
  const name = createTestUsername()
  await searchBox(page).fill(name)
  await expect(page.getByText(`@${name} is available!`)).toBeVisible()
  for (const viewport of screenViewports) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize(viewport)
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
      await expect(page.locator('html')).toHaveClass(colorScheme === 'dark' ? /dark/ : /^(?!.*dark)/)
      await checkScreen(page, `username-${viewport.name}-${colorScheme}`)
    }
  }
})
