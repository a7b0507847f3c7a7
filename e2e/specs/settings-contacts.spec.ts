import type { Locator, Page } from '@playwright/test'
import {
  createTestEmail,
  createTestPhone,
  extractCode,
  listMailTo,
  waitForMail,
  waitForSms,
} from '../fixtures/dev-outbox.ts'
import { checkScreen, screenViewports } from '../fixtures/screens.ts'
import {
  authDialog,
  getSessionUser,
  openAuthModal,
  requestEmailCode,
  signUpWithEmailCode,
} from '../fixtures/sign-in.ts'
import { expect, test } from '../fixtures/test.ts'

/**
 * Settings' Sign-in methods on the real stack (docs/signer.md#contact-change): the e-mail and the
 * phone are changed with codes read from the dev mail and SMS outboxes, to the new contact and the
 * current one; the change is built and stamped in the frames origin, and the old contact is told.
 */

/** Opens Settings and waits for the account's sign-in methods. */
async function openSignInMethods(page: Page): Promise<Locator> {
  await page.goto('/settings')
  const section = page.getByRole('region', { name: 'Sign-in methods' })
  await expect(section.getByRole('button', { name: 'Change email' })).toBeEnabled({ timeout: 20_000 })
  return section
}

/** The dialog of the contact change, whatever step it shows. */
function changeDialog(page: Page): Locator {
  return page.getByRole('dialog')
}

async function logout(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/$/)
}

test.describe('changing the sign-in e-mail and phone in Settings', () => {
  test('the e-mail moves with codes to the new and the current address; the old one is told and no longer signs in to this account', async ({
    page,
    request,
    consoleErrors,
  }) => {
    test.slow()
    const oldEmail = await signUpWithEmailCode(page, request)
    const { address } = await getSessionUser(page)
    const newEmail = createTestEmail()
    const section = await openSignInMethods(page)
    await expect(section).toContainText(oldEmail)

    await section.getByRole('button', { name: 'Change email' }).click()
    const dialog = changeDialog(page)
    await expect(dialog).toHaveAccessibleName('Change email')
    await dialog.getByLabel('New email address').fill(newEmail)
    await dialog.getByRole('button', { name: 'Send code' }).click()
    await expect(dialog).toHaveAccessibleName('Check your email')
    const newCode = extractCode((await waitForMail(request, newEmail)).text)
    // A wrong code first: refused beside the field, and the right one still works.
    const wrongCode = String((Number(newCode) + 1) % 1_000_000).padStart(6, '0')
    await dialog.getByLabel('Code').fill(wrongCode)
    await expect(dialog.getByRole('alert')).toHaveText('That code is not right. You have 2 tries left.')
    await dialog.getByLabel('Code').fill(newCode)

    await expect(dialog).toHaveAccessibleName('Confirm it’s you')
    await expect(dialog).toContainText(oldEmail)
    // The sign-up code was the first mail to the old address; this is the second.
    await dialog.getByLabel('Code').fill(extractCode((await waitForMail(request, oldEmail, 2)).text))

    await expect(page.getByText('Email changed', { exact: true })).toBeVisible({ timeout: 20_000 })
    await expect(dialog).toBeHidden()
    await expect(section).toContainText(newEmail)
    await expect(section).not.toContainText(oldEmail)

    const notice = await waitForMail(request, oldEmail, 3)
    expect(notice.subject).toBe('Your Quick Links sign-in e-mail address was changed')
    expect(notice.text).toContain('Every other device signed in to this account was signed out.')
    expect(notice.text).not.toContain(newEmail)

    // The new address signs in to the same wallet.
    await logout(page)
    await openAuthModal(page)
    await requestEmailCode(page, newEmail)
    await authDialog(page)
      .getByLabel('Code')
      .fill(extractCode((await waitForMail(request, newEmail, 2)).text))
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
    expect((await getSessionUser(page)).address).toBe(address)
    await expect(await openSignInMethods(page)).toContainText(newEmail)

    // The old address is nobody's now: its code opens a new, empty account, not this wallet.
    await logout(page)
    const oldMails = (await listMailTo(request, oldEmail)).length
    await openAuthModal(page)
    await requestEmailCode(page, oldEmail)
    await authDialog(page)
      .getByLabel('Code')
      .fill(extractCode((await waitForMail(request, oldEmail, oldMails + 1)).text))
    await expect(page).toHaveURL(/\/onboarding$/, { timeout: 20_000 })
    expect((await getSessionUser(page)).address).not.toBe(address)
    // The one failed request is the wrong code's.
    expect(consoleErrors).toEqual([
      expect.stringMatching(/401 \(Unauthorized\) \(http:\/\/localhost:\d+\/signer\/v1\/verify-otp\)/),
    ])
    consoleErrors.length = 0
  })

  test('a first phone is added with its SMS code, then changed with codes to the new and the current number', async ({
    page,
    request,
    consoleErrors,
  }) => {
    test.slow()
    const email = await signUpWithEmailCode(page, request)
    const firstPhone = createTestPhone()
    const nextPhone = createTestPhone()
    const section = await openSignInMethods(page)
    await expect(section.getByRole('button', { name: 'Add phone number' })).toBeVisible()

    await section.getByRole('button', { name: 'Add phone number' }).click()
    const dialog = changeDialog(page)
    await expect(dialog).toHaveAccessibleName('Add phone number')
    await dialog.getByLabel('Phone number').fill('07700 900123')
    await dialog.getByRole('button', { name: 'Send code' }).click()
    await expect(dialog.getByRole('alert')).toHaveText(
      'Start with + and your country code, for example +44 7700 900123.',
    )
    await dialog.getByLabel('Phone number').fill(firstPhone)
    await dialog.getByRole('button', { name: 'Send code' }).click()
    await expect(dialog).toHaveAccessibleName('Check your phone')
    await dialog.getByLabel('Code').fill(extractCode((await waitForSms(request, firstPhone)).body))
    // A first phone is a new way in: a code to the account's e-mail confirms it (docs/signer.md#step-up).
    await expect(dialog).toHaveAccessibleName('Confirm it’s you')
    await expect(dialog).toContainText(email)
    await dialog.getByLabel('Code').fill(extractCode((await waitForMail(request, email, 2)).text))
    await expect(page.getByText('Phone number added', { exact: true })).toBeVisible({ timeout: 20_000 })
    await expect(section).toContainText(firstPhone)
    // The account's e-mail is told of the new way in.
    await expect
      .poll(async () => (await listMailTo(request, email)).map((mail) => mail.subject))
      .toContain('A sign-in phone number was added to your Quick Links account')

    await section.getByRole('button', { name: 'Change phone number' }).click()
    await expect(dialog).toHaveAccessibleName('Change phone number')
    await dialog.getByLabel('New phone number').fill(nextPhone)
    await dialog.getByRole('button', { name: 'Send code' }).click()
    await expect(dialog).toHaveAccessibleName('Check your phone')
    await dialog.getByLabel('Code').fill(extractCode((await waitForSms(request, nextPhone)).body))
    await expect(dialog).toHaveAccessibleName('Confirm it’s you')
    await dialog.getByLabel('Code').fill(extractCode((await waitForSms(request, firstPhone, 2)).body))
    await expect(page.getByText('Phone number changed', { exact: true })).toBeVisible({ timeout: 20_000 })
    await expect(section).toContainText(nextPhone)
    await expect(section).not.toContainText(firstPhone)
    const notice = await waitForSms(request, firstPhone, 3)
    expect(notice.body).toContain('The phone number you sign in to Quick Links with was changed')

    // The new number signs in to the same wallet by SMS.
    const { address } = await getSessionUser(page)
    await logout(page)
    await openAuthModal(page)
    await authDialog(page).getByRole('button', { name: 'Use a phone number instead' }).click()
    await authDialog(page).getByLabel('Phone number').fill(nextPhone)
    await authDialog(page).getByRole('button', { name: 'Send code' }).click()
    await expect(authDialog(page).getByRole('heading', { name: 'Check your phone' })).toBeVisible()
    await authDialog(page)
      .getByLabel('Code')
      .fill(extractCode((await waitForSms(request, nextPhone, 2)).body))
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
    expect((await getSessionUser(page)).address).toBe(address)

    // With the phone as another way in, the e-mail can go, proven by a code sent to it.
    const methods = await openSignInMethods(page)
    await methods.getByRole('button', { name: 'Remove email' }).click()
    await expect(dialog).toHaveAccessibleName('Remove email')
    const mailsBefore = (await listMailTo(request, email)).length
    await dialog.getByRole('button', { name: 'Send code to remove' }).click()
    await expect(dialog).toHaveAccessibleName('Check your email')
    await dialog
      .getByLabel('Code')
      .fill(extractCode((await waitForMail(request, email, mailsBefore + 1)).text))
    await expect(page.getByText('Email removed', { exact: true })).toBeVisible({ timeout: 20_000 })
    await expect(methods.getByRole('button', { name: 'Add email' })).toBeVisible()
    await expect(methods).not.toContainText(email)
    // The phone is now the only way in: no Remove beside it.
    await expect(methods.getByRole('button', { name: 'Change phone number' })).toBeVisible()
    await expect(methods.getByRole('button', { name: 'Remove phone number' })).toHaveCount(0)
    expect(consoleErrors).toEqual([])
  })

  test('an address of another account is refused beside the field after both codes', async ({
    page,
    request,
  }) => {
    test.slow()
    // Someone else's account first, then ours.
    const takenEmail = await signUpWithEmailCode(page, request)
    await logout(page)
    const ownEmail = await signUpWithEmailCode(page, request)
    const section = await openSignInMethods(page)
    await section.getByRole('button', { name: 'Change email' }).click()
    const dialog = changeDialog(page)
    await dialog.getByLabel('New email address').fill(takenEmail)
    await dialog.getByRole('button', { name: 'Send code' }).click()
    await expect(dialog).toHaveAccessibleName('Check your email')
    await dialog.getByLabel('Code').fill(extractCode((await waitForMail(request, takenEmail, 2)).text))
    await expect(dialog).toHaveAccessibleName('Confirm it’s you')
    await dialog.getByLabel('Code').fill(extractCode((await waitForMail(request, ownEmail, 2)).text))
    await expect(dialog).toHaveAccessibleName('Change email')
    await expect(dialog.getByRole('alert')).toHaveText('That e-mail address belongs to another account.')
    await expect(dialog.getByLabel('New email address')).toHaveValue(takenEmail)
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(section).toContainText(ownEmail)
  })
})

// The section and each step of its dialog, at both widths and in both schemes, with axe.
for (const viewport of screenViewports) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`sign-in methods and the contact-change dialog at ${viewport.name} width in ${colorScheme}`, async ({
      page,
      request,
    }) => {
      test.slow()
      const suffix = `${viewport.name}-${colorScheme}`
      await page.setViewportSize(viewport)
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
      await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
      const email = await signUpWithEmailCode(page, request)
      const section = await openSignInMethods(page)
      await expect(page.locator('html')).toHaveClass(colorScheme === 'dark' ? /dark/ : /^(?!.*dark)/)
      await section.scrollIntoViewIfNeeded()
      await checkScreen(page, `settings-sign-in-methods-${suffix}`)

      await section.getByRole('button', { name: 'Change email' }).click()
      const dialog = changeDialog(page)
      await expect(dialog).toHaveAccessibleName('Change email')
      await dialog.getByLabel('New email address').fill('not an address')
      await dialog.getByRole('button', { name: 'Send code' }).click()
      await expect(dialog.getByRole('alert')).toBeVisible()
      await checkScreen(page, `contact-change-email-${suffix}`, { fullPage: false })

      const newEmail = createTestEmail()
      await dialog.getByLabel('New email address').fill(newEmail)
      await dialog.getByRole('button', { name: 'Send code' }).click()
      await expect(dialog).toHaveAccessibleName('Check your email')
      await checkScreen(page, `contact-change-new-code-${suffix}`, { fullPage: false })

      await dialog.getByLabel('Code').fill(extractCode((await waitForMail(request, newEmail)).text))
      await expect(dialog).toHaveAccessibleName('Confirm it’s you')
      await expect(dialog).toContainText(email)
      await checkScreen(page, `contact-change-current-code-${suffix}`, { fullPage: false })
      await dialog.getByRole('button', { name: 'Close' }).click()
      await expect(dialog).toBeHidden()

      await section.getByRole('button', { name: 'Add phone number' }).click()
      await expect(dialog).toHaveAccessibleName('Add phone number')
      await checkScreen(page, `contact-change-phone-${suffix}`, { fullPage: false })
      const phone = createTestPhone()
      await dialog.getByLabel('Phone number').fill(phone)
      await dialog.getByRole('button', { name: 'Send code' }).click()
      await dialog.getByLabel('Code').fill(extractCode((await waitForSms(request, phone)).body))
      await expect(dialog).toHaveAccessibleName('Confirm it’s you')
      // Mail 3 to the e-mail (after the sign-up code and the current-address code above).
      await dialog.getByLabel('Code').fill(extractCode((await waitForMail(request, email, 3)).text))
      await expect(dialog).toBeHidden({ timeout: 20_000 })

      await section.getByRole('button', { name: 'Remove email' }).click()
      await expect(dialog).toHaveAccessibleName('Remove email')
      await checkScreen(page, `contact-remove-email-${suffix}`, { fullPage: false })
    })
  }
}
