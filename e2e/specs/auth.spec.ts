import {
  createTestEmail,
  createTestPhone,
  extractCode,
  extractMagicLink,
  listMailTo,
  waitForMail,
  waitForSms,
} from '../fixtures/dev-outbox.ts'
import {
  authDialog,
  getSessionUser,
  openAuthModal,
  requestEmailCode,
  signUpWithEmailCode,
} from '../fixtures/sign-in.ts'
import { expect, expectNoSeriousAxeViolations, test } from '../fixtures/test.ts'

/**
 * Sign-in with the embedded wallet on the real stack: codes and links are read from the dev mail
 * and SMS outboxes, as a user reads their inbox. Every test uses its own e-mail or phone.
 */
test.describe('sign-in with the embedded wallet', () => {
  test('a new user signs up with the e-mail code, sees onboarding, then the dashboard; a reload keeps the session', async ({
    page,
    request,
    consoleErrors,
  }) => {
    const email = await signUpWithEmailCode(page, request)

    const user = await getSessionUser(page)
    expect(user.email).toBe(email)
    expect(user.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    // Onboarding shows the new wallet's address in full.
    await expect(page.getByRole('main')).toContainText(new RegExp(user.address.slice(2), 'i'))

    await page.getByRole('button', { name: 'Continue to dashboard' }).click()
    await expect(page).toHaveURL(/\/dashboard$/)
    await expect(page.getByRole('heading', { name: 'Links', exact: true })).toBeVisible()

    await page.reload()
    await expect(page).toHaveURL(/\/dashboard$/)
    await expect(page.getByRole('heading', { name: 'Links', exact: true })).toBeVisible()
    await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeVisible()
    expect((await getSessionUser(page)).address).toBe(user.address)

    // Onboarding was for the signup only: later visits go to the dashboard (decision 0007).
    await page.goto('/onboarding')
    await expect(page).toHaveURL(/\/dashboard$/)
    expect(consoleErrors).toEqual([])
  })

  test('sign-up answers a new user the addresses of the wallet the code then opens (/v1/signup); a returning user gets the same shape, not their wallet', async ({
    page,
    request,
    consoleErrors,
  }) => {
    type SignupAnswer = {
      orgId: string
      otpId: string
      address: string
      userId: string
      solanaAddress: string
    }
    const signerPaths: string[] = []
    page.on('request', (sent) => {
      const path = new URL(sent.url()).pathname
      if (path.startsWith('/signer/v1/')) signerPaths.push(path)
    })
    const email = createTestEmail()
    const readSignup = async () => {
      const answer = await page.waitForResponse((response) => response.url().endsWith('/signer/v1/signup'))
      expect(answer.status()).toBe(200)
      return (await answer.json()) as SignupAnswer
    }

    await openAuthModal(page)
    const firstSignup = readSignup()
    await requestEmailCode(page, email)
    const first = await firstSignup
    expect(Object.keys(first).sort()).toEqual(['address', 'orgId', 'otpId', 'solanaAddress', 'userId'])
    expect(first.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(first.solanaAddress).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    // The account-creation call, for every contact: no lookup to branch on, no init call.
    expect(signerPaths).toContain('/signer/v1/signup')
    expect(signerPaths).not.toContain('/signer/v1/auth')
    expect(signerPaths).not.toContain('/signer/v1/lookup')

    await authDialog(page)
      .getByLabel('Code')
      .fill(extractCode((await waitForMail(request, email)).text))
    await expect(page).toHaveURL(/\/onboarding$/, { timeout: 20_000 })
    const user = await getSessionUser(page)
    // The wallet the code opened is the one sign-up answered, and onboarding shows that address.
    expect(user.address.toLowerCase()).toBe(first.address.toLowerCase())
    await expect(page.getByRole('main')).toContainText(new RegExp(first.address.slice(2), 'i'))
    const signer = await page.evaluate(() => localStorage.getItem('quicklinks:signer'))
    expect(JSON.parse(signer ?? '{}').state.user).toMatchObject({
      orgId: first.orgId,
      userId: first.userId,
      solanaAddress: first.solanaAddress,
    })

    await page.getByRole('button', { name: 'Continue to dashboard' }).click()
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click()
    await expect(page).toHaveURL(/\/$/)

    // Back with the same address: the same call and shape, but a reservation, not their wallet.
    await openAuthModal(page)
    const secondSignup = readSignup()
    await requestEmailCode(page, email)
    const second = await secondSignup
    expect(Object.keys(second).sort()).toEqual(['address', 'orgId', 'otpId', 'solanaAddress', 'userId'])
    expect(second.orgId).toBe(first.orgId)
    expect(second.address.toLowerCase()).not.toBe(first.address.toLowerCase())
    await authDialog(page)
      .getByLabel('Code')
      .fill(extractCode((await waitForMail(request, email, 2)).text))
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
    expect((await getSessionUser(page)).address.toLowerCase()).toBe(first.address.toLowerCase())
    expect(consoleErrors).toEqual([])
  })

  test('logout returns to /, and /dashboard is then replaced by /', async ({
    page,
    request,
    consoleErrors,
  }) => {
    await signUpWithEmailCode(page, request)
    await page.getByRole('button', { name: 'Continue to dashboard' }).click()
    await expect(page.getByRole('heading', { name: 'Links', exact: true })).toBeVisible()

    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click()
    await expect(page).toHaveURL(/\/$/)
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sign in' })).toBeVisible()
    expect((await page.request.get('/api/auth/me')).status()).toBe(401)
    // The wallet session is gone too: nothing of it stays in this browser's storage.
    expect(await page.evaluate(() => localStorage.getItem('quicklinks:signer'))).toBeNull()

    const lengthBefore = await page.evaluate(() => window.history.length)
    await page.goto('/dashboard')
    await expect(page).toHaveURL(/\/$/)
    expect(await page.evaluate(() => window.history.length)).toBe(lengthBefore + 1)
    expect(consoleErrors).toEqual([])
  })

  test('the magic link from the mail signs in, and its parameters leave the address', async ({
    page,
    request,
    consoleErrors,
  }) => {
    const email = createTestEmail()
    const dialog = await openAuthModal(page)
    await dialog.getByLabel('Email').fill(email)
    await dialog.getByRole('radio', { name: 'A sign-in link' }).check()
    await dialog.getByRole('button', { name: 'Continue with email' }).click()
    await expect(authDialog(page).getByRole('heading', { name: 'Check your email' })).toBeVisible()
    await expect(authDialog(page)).toContainText(`We sent a sign-in link to ${email}`)

    const link = extractMagicLink(await waitForMail(request, email))
    expect(new URL(link).pathname).toBe('/login')
    expect(new URL(link).searchParams.get('isSignup')).toBe('true')
    await page.goto(link)
    // The mail created the account, so the link says so and the new user sees onboarding.
    await expect(page).toHaveURL(/\/onboarding$/, { timeout: 20_000 })
    expect(page.url()).not.toMatch(/bundle|orgId|isSignup/)
    expect((await getSessionUser(page)).email).toBe(email)
    expect(consoleErrors).toEqual([])
  })

  test('an SMS code signs in', async ({ page, request, consoleErrors }) => {
    const phone = createTestPhone()
    const dialog = await openAuthModal(page)
    await dialog.getByRole('button', { name: 'Use a phone number instead' }).click()
    await authDialog(page).getByLabel('Phone number').fill(phone)
    await authDialog(page).getByRole('button', { name: 'Send code' }).click()
    await expect(authDialog(page).getByRole('heading', { name: 'Check your phone' })).toBeVisible()

    const code = extractCode((await waitForSms(request, phone)).body)
    await authDialog(page).getByLabel('Code').fill(code)
    await expect(page).toHaveURL(/\/onboarding$/, { timeout: 20_000 })
    const user = await getSessionUser(page)
    expect(user.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(consoleErrors).toEqual([])
  })

  test('three wrong codes kill the code: the right code is then refused', async ({ page, request }) => {
    const email = createTestEmail()
    await openAuthModal(page)
    await requestEmailCode(page, email)
    const rightCode = extractCode((await waitForMail(request, email)).text)
    const wrongCode = String((Number(rightCode) + 1) % 1_000_000).padStart(6, '0')
    const code = authDialog(page).getByLabel('Code')
    const error = authDialog(page).getByRole('alert')

    await code.fill(wrongCode)
    await expect(error).toHaveText('That code is not right. You have 2 tries left.')
    await expect(code).toHaveAttribute('aria-invalid', 'true')
    await code.fill(wrongCode.replace(/^./, (digit) => String((Number(digit) + 1) % 10)))
    await expect(error).toHaveText(/^That code is not right\. You have 1 tr(y|ies) left\.$/)
    await code.fill(wrongCode.replace(/^./, (digit) => String((Number(digit) + 2) % 10)))
    await expect(error).toHaveText('This code no longer works. Request a new code.')

    const refused = page.waitForResponse((response) => response.url().endsWith('/signer/v1/otp'))
    await code.fill(rightCode)
    const answer = await refused
    expect(answer.status()).toBe(401)
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('OTP_EXPIRED')
    await expect(error).toHaveText('This code no longer works. Request a new code.')
    await expect(page).not.toHaveURL(/\/(onboarding|dashboard)$/)
    expect((await page.request.get('/api/auth/me')).status()).toBe(401)
  })

  test('a fourth code within 3 minutes is refused with a clear message', async ({ page, request }) => {
    const email = createTestEmail()
    await openAuthModal(page)
    for (let send = 1; send <= 3; send += 1) {
      await requestEmailCode(page, email)
      await authDialog(page).getByRole('button', { name: 'Use a different email' }).click()
    }
    const dialog = page.getByRole('dialog', { name: 'Sign in' })
    await dialog.getByRole('button', { name: 'Continue with email' }).click()
    await expect(dialog.getByRole('alert')).toHaveText(
      'Too many codes were sent to this address. Wait 3 minutes, then try again.',
    )
    await expect(dialog.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true')
    expect(await listMailTo(request, email)).toHaveLength(3)
  })

  test('/login is the landing page with the sign-in modal over it; closing the modal leaves for /', async ({
    page,
  }) => {
    await page.goto('/login')
    const dialog = page.getByRole('dialog', { name: 'Sign in' })
    await expect(dialog).toBeVisible()
    // The address stays /login while the modal is open (it must not leave on its own).
    await expect(page.getByLabel('Email')).toBeFocused()
    expect(new URL(page.url()).pathname).toBe('/login')
    // The flat illustration heads the modal, and the landing page is behind it.
    await expect(dialog.locator('svg[aria-hidden="true"]').first()).toBeVisible()
    // Behind the modal, so hidden from assistive technology while it is open.
    await expect(page.getByRole('button', { name: 'Get started', includeHidden: true })).toBeAttached()
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(page).toHaveURL(/\/$/)
    await expect(page.getByRole('button', { name: 'Get started' })).toBeVisible()
  })

  test('the login modal and its code step have no serious accessibility violations', async ({ page }) => {
    // Several axe runs around a sign-in: close to 60 s on a loaded 2-core runner.
    test.slow()
    await openAuthModal(page)
    await expectNoSeriousAxeViolations(page)
    await authDialog(page).getByRole('button', { name: 'Continue with email' }).click()
    await expect(authDialog(page).getByRole('alert')).toHaveText('Enter your email address.')
    await expectNoSeriousAxeViolations(page)
    await requestEmailCode(page, createTestEmail())
    await expectNoSeriousAxeViolations(page)
  })
})
