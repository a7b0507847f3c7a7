import type { Locator, Page } from '@playwright/test'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { extractCode, extractMagicLink, waitForMail } from '../fixtures/dev-outbox.ts'
import { checkScreen, screenViewports } from '../fixtures/screens.ts'
import {
  authDialog,
  getSessionUser,
  openAuthModal,
  requestEmailCode,
  signUpWithEmailCode,
} from '../fixtures/sign-in.ts'
import { confirmWithEmailCode } from '../fixtures/step-up.ts'
import { expect, test } from '../fixtures/test.ts'
import { createFreshTotpCode, createWrongTotpCode } from '../fixtures/totp.ts'

/**
 * The TOTP second factor on the real stack (docs/signer.md#multi-factor): an authenticator app is
 * added in Settings from the key the dialog shows (its QR code is read back and must carry the
 * same key), then a sign-in by e-mail code asks for the app's code; a wrong code and a replayed one
 * are refused; removing the app ends that. Codes are computed here from the key, as the app would,
 * at the account's dev-mode TOTP clock, which the suite moves on instead of waiting for a new step.
 */

async function openTwoFactor(page: Page): Promise<Locator> {
  await page.goto('/settings')
  const section = page.getByRole('region', { name: 'Two-step verification' })
  await expect(section.getByRole('button', { name: 'Add authenticator app' })).toBeEnabled({
    timeout: 20_000,
  })
  return section
}

/** Opens 'Add authenticator app', checks its QR code carries the key shown, and returns the key. */
async function readEnrolment(
  page: Page,
  section: Locator,
  stepUp: { request: import('@playwright/test').APIRequestContext; email: string },
): Promise<{ dialog: Locator; secret: string }> {
  await section.getByRole('button', { name: 'Add authenticator app' }).click()
  // Confirm it's you first (docs/signer.md#step-up): a code to the account's e-mail.
  await confirmWithEmailCode(page, stepUp.request, stepUp.email)
  const dialog = page.getByRole('dialog', { name: 'Add authenticator app' })
  const shown = dialog.getByTestId('totp-secret')
  await expect(shown).toHaveText(/^[A-Z2-7 ]{32,}$/, { timeout: 15_000 })
  const secret = ((await shown.textContent()) ?? '').replace(/\s/g, '')
  const qr = dialog.getByRole('img', { name: 'QR code to add Quick Links to your authenticator app' })
  const png = PNG.sync.read(await qr.screenshot())
  const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? ''
  const uri = new URL(decoded)
  expect(uri.protocol).toBe('otpauth:')
  expect(uri.host).toBe('totp')
  expect(uri.searchParams.get('secret')).toBe(secret)
  expect(uri.searchParams.get('issuer')).toBe('Quick Links')
  return { dialog, secret }
}

async function logout(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/$/)
}

/** Signs in again by e-mail code (mail number `mailCount` to `email`); resolves once the code is in. */
async function enterEmailCode(
  page: Page,
  request: import('@playwright/test').APIRequestContext,
  email: string,
  mailCount: number,
) {
  await openAuthModal(page)
  await requestEmailCode(page, email)
  const code = extractCode((await waitForMail(request, email, mailCount)).text)
  await authDialog(page).getByLabel('Code', { exact: true }).fill(code)
}

test('an authenticator app guards the e-mail sign-in: codes work once, wrong ones are refused, removal ends it', async ({
  page,
  request,
}) => {
  // Wrong codes answer 401, which the browser logs: no console-error check here.
  test.slow()
  await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
  const email = await signUpWithEmailCode(page, request)
  const { address } = await getSessionUser(page)
  const section = await openTwoFactor(page)
  await expect(section).toContainText('Not set up')

  const { dialog, secret } = await readEnrolment(page, section, { request, email })
  // A wrong first code does not turn it on.
  await dialog.getByLabel('Code from the app').fill(await createWrongTotpCode(page, address, secret))
  await expect(dialog.getByRole('alert')).toHaveText(
    'That code is not right. Enter the current code from your authenticator app.',
  )
  const enrolment = await createFreshTotpCode(page, address, secret)
  await dialog.getByLabel('Code from the app').fill(enrolment)
  await expect(dialog).toBeHidden()
  await expect(section.getByRole('button', { name: /^Remove authenticator app/ })).toBeVisible()
  await expect(section).not.toContainText('Not set up')

  await logout(page)
  // Mail 2 is the step-up code, mail 3 the notice that two-step verification was turned on
  // (docs/signer.md#security-notices).
  await enterEmailCode(page, request, email, 4)
  const mfa = authDialog(page)
  await expect(mfa.getByRole('heading', { name: 'Enter your authenticator code' })).toBeVisible({
    timeout: 20_000,
  })
  // Signed in to nothing yet.
  expect((await page.request.get('/api/auth/me')).status()).toBe(401)

  const codeField = mfa.getByLabel('Authenticator code')
  await codeField.fill(await createWrongTotpCode(page, address, secret))
  await expect(mfa.getByRole('alert')).toHaveText(
    'That code is not right. Enter the current code from your authenticator app.',
  )
  // The code that turned the app on was spent there.
  await codeField.fill(enrolment)
  await expect(mfa.getByRole('alert')).toHaveText(
    'That code was already used. Wait for the next code in your authenticator app.',
  )
  await codeField.fill(await createFreshTotpCode(page, address, secret))
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })

  const signedIn = await openTwoFactor(page)
  await signedIn.getByRole('button', { name: /^Remove authenticator app/ }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Remove authenticator app' })
  await expect(confirm).toBeVisible()
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(confirm).toBeHidden()
  // The step-up: a code to the e-mail and the app's current code.
  await confirmWithEmailCode(page, request, email, {
    totpCode: await createFreshTotpCode(page, address, secret),
  })
  await expect(signedIn).toContainText('Not set up')

  // Without the app, the e-mail code alone signs in again. This browser spent its 3 codes per
  // 3 minutes to this address (the step-ups and the sign-in); the sign-in asks as a new browser would.
  await logout(page)
  await page.context().clearCookies({ name: 'ql_signed_in' })
  // Mail 5 was the step-up code, mail 6 told that two-step verification was turned off.
  await enterEmailCode(page, request, email, 7)
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
})

test('a magic link of an account with an authenticator app asks for the app code too', async ({
  page,
  request,
  consoleErrors,
}) => {
  test.slow()
  await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
  const email = await signUpWithEmailCode(page, request)
  const { address } = await getSessionUser(page)
  const section = await openTwoFactor(page)
  const { dialog, secret } = await readEnrolment(page, section, { request, email })
  await dialog.getByLabel('Code from the app').fill(await createFreshTotpCode(page, address, secret))
  await expect(dialog).toBeHidden()
  await logout(page)

  const modal = await openAuthModal(page)
  await modal.getByLabel('Email').fill(email)
  await modal.getByRole('radio', { name: 'A sign-in link' }).check()
  await modal.getByRole('button', { name: 'Continue with email' }).click()
  await expect(authDialog(page).getByRole('heading', { name: 'Check your email' })).toBeVisible()
  // Mail 2 is the step-up code, mail 3 the notice that two-step verification was turned on.
  await page.goto(extractMagicLink(await waitForMail(request, email, 4)))
  const mfa = authDialog(page)
  await expect(mfa.getByRole('heading', { name: 'Enter your authenticator code' })).toBeVisible({
    timeout: 20_000,
  })
  expect(page.url()).not.toMatch(/bundle|orgId/)
  await mfa.getByLabel('Authenticator code').fill(await createFreshTotpCode(page, address, secret))
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
  expect(consoleErrors).toEqual([])
})

// The new screens, per viewport and scheme: the section without and with an app, the add dialog,
// the remove confirmation and the sign-in's authenticator-code step.
for (const viewport of screenViewports) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`two-step verification screens at ${viewport.name} width in ${colorScheme}`, async ({
      page,
      request,
    }) => {
      test.slow()
      const suffix = `${viewport.name}-${colorScheme}`
      await page.setViewportSize(viewport)
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
      await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
      const email = await signUpWithEmailCode(page, request)
      const { address } = await getSessionUser(page)
      const section = await openTwoFactor(page)
      await checkScreen(page, `settings-two-factor-${suffix}`)

      const { dialog, secret } = await readEnrolment(page, section, { request, email })
      await checkScreen(page, `two-factor-add-${suffix}`, { fullPage: false })
      await dialog.getByLabel('Code from the app').fill(await createFreshTotpCode(page, address, secret))
      await expect(dialog).toBeHidden()
      await expect(section.getByRole('button', { name: /^Remove authenticator app/ })).toBeVisible()
      // The toast goes before the screenshot.
      await expect(page.getByText('Authenticator app added', { exact: true })).toBeHidden({ timeout: 8000 })
      await checkScreen(page, `settings-two-factor-on-${suffix}`)

      await section.getByRole('button', { name: /^Remove authenticator app/ }).click()
      const confirm = page.getByRole('alertdialog', { name: 'Remove authenticator app' })
      await expect(confirm).toBeVisible()
      await checkScreen(page, `two-factor-remove-${suffix}`, { fullPage: false })
      await confirm.getByRole('button', { name: 'Cancel' }).click()

      await logout(page)
      // Mail 2 is the step-up code, mail 3 the notice that two-step verification was turned on.
      await enterEmailCode(page, request, email, 4)
      const mfa = authDialog(page)
      await expect(mfa.getByRole('heading', { name: 'Enter your authenticator code' })).toBeVisible({
        timeout: 20_000,
      })
      await checkScreen(page, `login-authenticator-${suffix}`, { fullPage: false })
      await mfa.getByLabel('Authenticator code').fill(await createWrongTotpCode(page, address, secret))
      await expect(mfa.getByRole('alert')).toBeVisible()
      await checkScreen(page, `login-authenticator-error-${suffix}`, { fullPage: false })
    })
  }
}
