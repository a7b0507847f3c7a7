import type { Page } from '@playwright/test'
import { createTestEmail, extractCode, waitForMail } from '../fixtures/dev-outbox.ts'
import { checkScreen, screenViewports } from '../fixtures/screens.ts'
import { authDialog, getSessionUser, openAuthModal, signUpWithEmailCode } from '../fixtures/sign-in.ts'
import { continueInPopup, logout, openLinkedAccounts, signInAtProvider } from '../fixtures/social-login.ts'
import { stepUpDialog } from '../fixtures/step-up.ts'
import { expect, test } from '../fixtures/test.ts'
import { createFreshTotpCode } from '../fixtures/totp.ts'

/**
 * Social login on the real stack through the dev OIDC provider `npm start` runs beside the app
 * (docs/signer.md#dev-oidc-provider; 'Continue with Dev login'): a popup on a desktop, the
 * provider's own page on a phone. Each test types a fresh e-mail on the provider's login page, so
 * runs never meet each other's accounts.
 */

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
})

/**
 * "Confirm it’s you" by signing in again with the linked Dev login identity `email` (a popup).
 * Resolves with the popup the confirmed change opens next, when `opensPopup` (a link): it is
 * awaited from before the confirmation ends, since it opens as soon as the step-up is given.
 */
async function confirmWithProvider(
  page: Page,
  email: string,
  options: { opensPopup?: boolean } = {},
): Promise<Page | undefined> {
  const dialog = stepUpDialog(page)
  await expect(dialog).toBeVisible()
  const popupOpened = page.waitForEvent('popup')
  await dialog.getByRole('button', { name: 'Sign in again with Dev login' }).click()
  const popup = await popupOpened
  const next = options.opensPopup === true ? page.waitForEvent('popup', { timeout: 30_000 }) : undefined
  const closed = popup.waitForEvent('close', { timeout: 20_000 })
  await signInAtProvider(popup, email)
  await closed
  await expect(dialog).toBeHidden({ timeout: 15_000 })
  return next
}

test('popup: a new provider identity gets a wallet, signs in again to it, links and unlinks another, and cannot unlink the last way in', async ({
  page,
}) => {
  test.slow()
  const email = createTestEmail()
  await openAuthModal(page)
  await continueInPopup(page, email)
  await expect(page).toHaveURL(/\/onboarding$/, { timeout: 20_000 })
  const first = await getSessionUser(page)

  await page.goto('/dashboard')
  await logout(page)
  await openAuthModal(page)
  await continueInPopup(page, email)
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
  expect((await getSessionUser(page)).address).toBe(first.address)

  const section = await openLinkedAccounts(page)
  await expect(section.getByRole('list', { name: 'Linked accounts' })).toContainText(email)

  // Link a second identity from Settings, then unlink it; each is confirmed first by signing in
  // again with the linked provider (docs/signer.md#step-up).
  const other = createTestEmail()
  await section.getByRole('button', { name: 'Link Dev login', exact: true }).click()
  const popup = await confirmWithProvider(page, email, { opensPopup: true })
  if (popup === undefined) throw new Error('the link opened no popup')
  const closed = popup.waitForEvent('close')
  await signInAtProvider(popup, other)
  await closed
  await expect(section.getByRole('status')).toHaveText(`Dev login account ${other} is linked.`)
  await expect(section.getByRole('list', { name: 'Linked accounts' })).toContainText(other)
  await section.getByRole('button', { name: `Unlink Dev login account ${other}` }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Unlink account' })
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(confirm).toBeHidden()
  await confirmWithProvider(page, email)
  await expect(section.getByRole('list', { name: 'Linked accounts' })).not.toContainText(other)

  // The provider is this account's only way in: the signer refuses, the section says why.
  await section.getByRole('button', { name: `Unlink Dev login account ${email}` }).click()
  await page
    .getByRole('alertdialog', { name: 'Unlink account' })
    .getByRole('button', { name: 'Delete' })
    .click()
  await confirmWithProvider(page, email)
  await expect(section.getByRole('alert')).toHaveText(
    'This is your only way to sign in. Add another one before you remove it.',
  )
  await expect(section.getByRole('list', { name: 'Linked accounts' })).toContainText(email)
})

test("closing the popup gives 'OAuth cancelled'; cancelling at the provider shows its message", async ({
  page,
}) => {
  await openAuthModal(page)
  const popupOpened = page.waitForEvent('popup')
  await authDialog(page).getByRole('button', { name: 'Continue with Dev login' }).click()
  const popup = await popupOpened
  await expect(popup.getByRole('heading', { name: 'Dev login' })).toBeVisible({ timeout: 20_000 })
  await popup.close()
  await expect(authDialog(page).getByRole('alert')).toHaveText('OAuth cancelled')

  const again = page.waitForEvent('popup')
  await authDialog(page).getByRole('button', { name: 'Continue with Dev login' }).click()
  const second = await again
  await expect(second.getByRole('heading', { name: 'Dev login' })).toBeVisible({ timeout: 20_000 })
  await second.getByRole('button', { name: 'Cancel' }).click()
  await expect(authDialog(page).getByRole('alert')).toHaveText('The sign-in was cancelled.')
  // Still signed out, still on the first step.
  await expect(authDialog(page).getByRole('heading', { name: 'Sign in' })).toBeVisible()
})

test('redirect (phone): the app leaves for the provider and comes back signed in, the return parameters gone', async ({
  page,
}) => {
  await page.setViewportSize(screenViewports[0])
  const email = createTestEmail()
  await openAuthModal(page)
  await authDialog(page).getByRole('button', { name: 'Continue with Dev login' }).click()
  await signInAtProvider(page, email)
  await expect(page).toHaveURL(/\/onboarding$/, { timeout: 20_000 })
  expect(page.url()).not.toContain('oauth-bundle')
  const user = await getSessionUser(page)

  await page.goto('/dashboard')
  await logout(page)
  await openAuthModal(page)
  await authDialog(page).getByRole('button', { name: 'Continue with Dev login' }).click()
  await signInAtProvider(page, email)
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
  expect(new URL(page.url()).search).toBe('')
  expect((await getSessionUser(page)).address).toBe(user.address)
})

test('an account with an authenticator app is asked for its code after a social login, popup and redirect (docs/signer.md#mfa-required)', async ({
  page,
}) => {
  test.slow()
  const email = createTestEmail()
  await openAuthModal(page)
  await continueInPopup(page, email)
  await expect(page).toHaveURL(/\/onboarding$/, { timeout: 20_000 })
  const user = await getSessionUser(page)

  // Settings: add an authenticator app from the key the dialog shows.
  await page.goto('/settings')
  const section = page.getByRole('region', { name: 'Two-step verification' })
  await section.getByRole('button', { name: 'Add authenticator app' }).click({ timeout: 20_000 })
  // A provider-only account confirms it's you with the provider again (docs/signer.md#step-up).
  await confirmWithProvider(page, email)
  const dialog = page.getByRole('dialog', { name: 'Add authenticator app' })
  await expect(dialog.getByTestId('totp-secret')).toHaveText(/^[A-Z2-7 ]{32,}$/, { timeout: 15_000 })
  const secret = ((await dialog.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '')
  await dialog.getByLabel('Code from the app').fill(await createFreshTotpCode(page, user.address, secret))
  await expect(dialog).toBeHidden()
  await logout(page)

  // Popup: the provider alone opens nothing; the app's code does.
  await openAuthModal(page)
  await continueInPopup(page, email)
  const mfa = authDialog(page)
  await expect(mfa.getByRole('heading', { name: 'Enter your authenticator code' })).toBeVisible({
    timeout: 20_000,
  })
  expect((await page.request.get('/api/auth/me')).status()).toBe(401)
  await mfa.getByLabel('Authenticator code').fill(await createFreshTotpCode(page, user.address, secret))
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
  expect((await getSessionUser(page)).address).toBe(user.address)

  // Redirect (phone): back from the provider on the code step, the pending sign-in out of the address.
  await logout(page)
  await page.setViewportSize(screenViewports[0])
  await openAuthModal(page)
  await authDialog(page).getByRole('button', { name: 'Continue with Dev login' }).click()
  await signInAtProvider(page, email)
  await expect(authDialog(page).getByRole('heading', { name: 'Enter your authenticator code' })).toBeVisible({
    timeout: 20_000,
  })
  expect(new URL(page.url()).search).toBe('')
  await authDialog(page)
    .getByLabel('Authenticator code')
    .fill(await createFreshTotpCode(page, user.address, secret))
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
  expect((await getSessionUser(page)).address).toBe(user.address)
})

test("a provider e-mail of an existing account asks for that e-mail's code, links the provider, and then both sign-ins open the account", async ({
  page,
  request,
}) => {
  test.slow()
  const email = await signUpWithEmailCode(page, request)
  const account = await getSessionUser(page)
  await page.goto('/dashboard')
  await logout(page)

  await openAuthModal(page)
  await continueInPopup(page, email)
  const dialog = authDialog(page)
  await expect(dialog.getByRole('heading', { name: 'Check your email' })).toBeVisible({ timeout: 20_000 })
  await expect(dialog.getByRole('status').first()).toContainText(
    `${email} already has a wallet. Enter the code we sent there to link your Dev login account to it.`,
  )
  const code = extractCode((await waitForMail(request, email, 2)).text)
  await dialog.getByLabel('Code', { exact: true }).fill(code)
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
  expect((await getSessionUser(page)).address).toBe(account.address)
  const section = await openLinkedAccounts(page)
  await expect(section.getByRole('list', { name: 'Linked accounts' })).toContainText(email, {
    timeout: 15_000,
  })

  await logout(page)
  await openAuthModal(page)
  await continueInPopup(page, email)
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
  expect((await getSessionUser(page)).address).toBe(account.address)

  await logout(page)
  await openAuthModal(page)
  await dialog.getByLabel('Email').fill(email)
  await dialog.getByRole('button', { name: 'Continue with email' }).click()
  // Mail 3 told the owner the provider was linked (docs/signer.md#security-notices).
  const third = extractCode((await waitForMail(request, email, 4)).text)
  await dialog.getByLabel('Code', { exact: true }).fill(third)
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
  expect((await getSessionUser(page)).address).toBe(account.address)
})

// The new screens, per viewport and scheme: the sign-in panel with the provider button, the
// linking code step, Settings' Linked accounts and its unlink confirmation.
for (const viewport of screenViewports) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`social login screens at ${viewport.name} width in ${colorScheme}`, async ({ page, request }) => {
      test.slow()
      const suffix = `${viewport.name}-${colorScheme}`
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
      const email = await signUpWithEmailCode(page, request)
      await page.goto('/dashboard')
      await logout(page)

      // The linking flow runs in a desktop popup; the screens are then taken at each width.
      await openAuthModal(page)
      await page.setViewportSize(viewport)
      await checkScreen(page, `login-social-${suffix}`, { fullPage: false })
      await page.setViewportSize(screenViewports[1])
      await continueInPopup(page, email)
      const dialog = authDialog(page)
      await expect(dialog.getByRole('heading', { name: 'Check your email' })).toBeVisible({ timeout: 20_000 })
      await page.setViewportSize(viewport)
      await checkScreen(page, `login-social-linking-${suffix}`, { fullPage: false })
      const code = extractCode((await waitForMail(request, email, 2)).text)
      await dialog.getByLabel('Code', { exact: true }).fill(code)
      await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })

      const section = await openLinkedAccounts(page)
      await expect(section.getByRole('list', { name: 'Linked accounts' })).toContainText(email, {
        timeout: 15_000,
      })
      await checkScreen(page, `settings-linked-accounts-${suffix}`)
      await section.getByRole('button', { name: `Unlink Dev login account ${email}` }).click()
      const confirm = page.getByRole('alertdialog', { name: 'Unlink account' })
      await expect(confirm).toBeVisible()
      await checkScreen(page, `linked-accounts-unlink-${suffix}`, { fullPage: false })
      await confirm.getByRole('button', { name: 'Cancel' }).click()
    })
  }
}
