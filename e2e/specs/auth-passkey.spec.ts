import type { CDPSession, Page } from '@playwright/test'
import { checkScreen, screenViewports } from '../fixtures/screens.ts'
import { authDialog, getSessionUser, openAuthModal } from '../fixtures/sign-in.ts'
import { confirmWithPasskey, stepUpDialog } from '../fixtures/step-up.ts'
import { expect, test } from '../fixtures/test.ts'

/**
 * Passkeys on the real stack with Chromium's virtual authenticator (CDP WebAuthn): a platform
 * authenticator (ctap2, internal) that holds resident keys and verifies the user without a prompt.
 * The signer checks every attestation and assertion for the app's origin (http://localhost:3100).
 */

type VirtualAuthenticator = { cdp: CDPSession; authenticatorId: string }

async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return { cdp, authenticatorId }
}

/** The credential ids (base64url, as the signer and Settings name them) the authenticator holds. */
async function listCredentialIds({ cdp, authenticatorId }: VirtualAuthenticator): Promise<string[]> {
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
  return credentials.map((credential) => Buffer.from(credential.credentialId, 'base64').toString('base64url'))
}

/** Deletes a passkey from the device, as a user does in the system's passkey manager. */
async function deleteCredential({ cdp, authenticatorId }: VirtualAuthenticator, id: string): Promise<void> {
  await cdp.send('WebAuthn.removeCredential', {
    authenticatorId,
    credentialId: Buffer.from(id, 'base64url').toString('base64'),
  })
}

/** Signs a new user up with a passkey from the sign-in modal and waits for onboarding. */
async function signUpWithPasskey(page: Page): Promise<void> {
  await openAuthModal(page)
  await authDialog(page).getByRole('button', { name: 'Create an account with a passkey' }).click()
  await expect(page).toHaveURL(/\/onboarding$/, { timeout: 20_000 })
  await expect(page.getByRole('heading', { name: 'Welcome to Quick Links' })).toBeVisible()
}

async function openSettings(page: Page): Promise<void> {
  await page.goto('/settings')
  await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible()
}

function passkeyList(page: Page) {
  return page.getByRole('list', { name: 'Passkeys' }).getByRole('listitem')
}

test.describe('passkeys', () => {
  test('sign up with a passkey, log out, sign in with it, add a second in Settings, remove one; the last one stays', async ({
    page,
    consoleErrors,
  }) => {
    test.slow()
    const authenticator = await addVirtualAuthenticator(page)
    await signUpWithPasskey(page)
    const user = await getSessionUser(page)
    expect(user.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    const [first] = await listCredentialIds(authenticator)
    expect(first).toBeDefined()

    await page.getByRole('button', { name: 'Continue to dashboard' }).click()
    await expect(page).toHaveURL(/\/dashboard$/)
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click()
    await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeHidden()

    // Sign in again: the passkey finds the account, the same wallet opens, no onboarding.
    await openAuthModal(page)
    await authDialog(page).getByRole('button', { name: 'Sign in with passkey' }).click()
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
    expect((await getSessionUser(page)).address).toBe(user.address)

    await openSettings(page)
    await expect(passkeyList(page)).toHaveCount(1)
    await expect(passkeyList(page).first()).toContainText(/^passkey-\d+/)
    await page.getByRole('button', { name: 'Add passkey' }).click()
    // Confirm it's you (docs/signer.md#step-up): the account's passkey, user verified.
    await confirmWithPasskey(page)
    await expect(page.getByRole('status')).toContainText(/Passkey passkey-\d+ added\./)
    await expect(passkeyList(page)).toHaveCount(2)
    const ids = await listCredentialIds(authenticator)
    expect(ids).toHaveLength(2)
    const second = ids.find((id) => id !== first)
    if (first === undefined || second === undefined) throw new Error('expected two passkeys on the device')

    // Remove the first passkey (listed first: oldest first) behind the delete confirmation.
    const firstName = await passkeyList(page).first().locator('p').first().textContent()
    await page.getByRole('button', { name: `Remove passkey ${firstName}` }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Remove passkey' })
    await expect(confirm).toBeVisible()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await confirmWithPasskey(page)
    await expect(page.getByRole('status')).toContainText('removed.')
    await expect(passkeyList(page)).toHaveCount(1)

    // The last way to sign in cannot be removed: the signer's refusal shows beside the list.
    const lastName = await passkeyList(page).first().locator('p').first().textContent()
    await page.getByRole('button', { name: `Remove passkey ${lastName}` }).click()
    await page
      .getByRole('alertdialog', { name: 'Remove passkey' })
      .getByRole('button', { name: 'Delete' })
      .click()
    await confirmWithPasskey(page)
    await expect(page.getByRole('alert')).toHaveText(
      'This is your only way to sign in. Add another one before you remove it.',
    )
    await expect(passkeyList(page)).toHaveCount(1)

    // Log out, delete the removed passkey from the device too, and sign in with the one left.
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click()
    await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeHidden()
    await deleteCredential(authenticator, first)
    await openAuthModal(page)
    await authDialog(page).getByRole('button', { name: 'Sign in with passkey' }).click()
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
    expect((await getSessionUser(page)).address).toBe(user.address)
    // The browser logs the refused removal's 409; nothing else may be logged.
    const unexpected = consoleErrors.filter((line) => !/status of 409.*remove-authenticator/.test(line))
    consoleErrors.splice(0, consoleErrors.length, ...unexpected)
  })
})

// The new screens: the sign-in modal's passkey buttons, Settings' Passkeys section, the removal
// confirmation and the last-method refusal, at phone and desktop widths, light and dark, with axe.
for (const viewport of screenViewports) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`passkey screens at ${viewport.name} width in ${colorScheme}`, async ({ page }) => {
      test.slow()
      const suffix = `${viewport.name}-${colorScheme}`
      await page.setViewportSize(viewport)
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
      await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
      await addVirtualAuthenticator(page)

      await openAuthModal(page)
      await checkScreen(page, `passkey-login-${suffix}`, { fullPage: false })
      await authDialog(page).getByRole('button', { name: 'Create an account with a passkey' }).click()
      await expect(page).toHaveURL(/\/onboarding$/, { timeout: 20_000 })

      await openSettings(page)
      await expect(passkeyList(page)).toHaveCount(1)
      await page.getByRole('button', { name: 'Add passkey' }).click()
      await expect(stepUpDialog(page)).toBeVisible()
      await checkScreen(page, `step-up-dialog-${suffix}`, { fullPage: false })
      await confirmWithPasskey(page)
      await expect(passkeyList(page)).toHaveCount(2)
      await page.getByRole('heading', { name: 'Passkeys' }).scrollIntoViewIfNeeded()
      await checkScreen(page, `settings-passkeys-${suffix}`)

      await passkeyList(page).first().getByRole('button').click()
      await expect(page.getByRole('alertdialog', { name: 'Remove passkey' })).toBeVisible()
      await checkScreen(page, `passkey-remove-dialog-${suffix}`, { fullPage: false })
      await page
        .getByRole('alertdialog', { name: 'Remove passkey' })
        .getByRole('button', { name: 'Delete' })
        .click()
      await confirmWithPasskey(page)
      await expect(passkeyList(page)).toHaveCount(1)
      await passkeyList(page).first().getByRole('button').click()
      await page
        .getByRole('alertdialog', { name: 'Remove passkey' })
        .getByRole('button', { name: 'Delete' })
        .click()
      await confirmWithPasskey(page)
      await expect(page.getByRole('alert')).toHaveText(
        'This is your only way to sign in. Add another one before you remove it.',
      )
      await page.getByRole('heading', { name: 'Passkeys' }).scrollIntoViewIfNeeded()
      await checkScreen(page, `passkey-last-refused-${suffix}`, { fullPage: false })
    })
  }
}
