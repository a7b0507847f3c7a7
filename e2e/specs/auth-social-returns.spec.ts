import { generateKeyPairSync } from 'node:crypto'
import type { BrowserContext } from '@playwright/test'
import { extractCode, waitForMail } from '../fixtures/dev-outbox.ts'
import { screenViewports } from '../fixtures/screens.ts'
import { authDialog, getSessionUser, openAuthModal, signUpWithEmailCode } from '../fixtures/sign-in.ts'
import {
  continueInPopup,
  findTokensInQueries,
  logout,
  openLinkedAccounts,
  recordVisitedUrls,
  signInAtProvider,
} from '../fixtures/social-login.ts'
import { expect, test } from '../fixtures/test.ts'

/**
 * Social-login returns are this browser's own (issue 29, docs/signer.md#oauth-attempt): an outcome
 * is acted on only with the secret this tab kept before it left, the account-linking identity stays
 * at the signer under its e-mail code, and no provider token travels in an address's query.
 */

const refusedOutcome =
  'This sign-in result was not started in this browser, so it was ignored. Sign in again.'

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
})

/**
 * Starts an e-mail sign-in at the signer as anyone can (`auth`, with a throwaway frame key): the
 * code goes to `email`; the caller learns its otpId and orgId.
 */
async function startEmailSignIn(
  context: BrowserContext,
  baseURL: string,
  email: string,
): Promise<{ orgId: string; otpId: string }> {
  const csrf = (await context.cookies(baseURL)).find((cookie) => cookie.name === 'csrf_token')?.value
  if (csrf === undefined) throw new Error('the context holds no csrf_token cookie')
  const der = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey.export({
    format: 'der',
    type: 'spki',
  })
  const response = await context.request.post(`${baseURL}/signer/v1/auth`, {
    headers: { 'X-CSRF-Token': csrf },
    data: { email, emailMode: 'otp', targetPublicKey: der.subarray(der.length - 65).toString('hex') },
  })
  expect(response.status(), await response.text()).toBe(200)
  return (await response.json()) as { orgId: string; otpId: string }
}

test('a /login link carrying a linking outcome this browser did not start links nothing, even after the victim enters the genuine code', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.slow()
  if (baseURL === undefined) throw new Error('this test needs a baseURL')
  // The victim: an account with an e-mail, signed out.
  const victimEmail = await signUpWithEmailCode(page, request)
  const victim = await getSessionUser(page)
  await page.goto('/dashboard')
  await logout(page)

  // The attacker, in a browser of their own: an account of their own, then a redirect social login
  // of a provider identity with that e-mail, whose return address they keep.
  const attacker = await browser.newContext({ baseURL })
  const attackerPage = await attacker.newPage()
  await attackerPage.addInitScript(() =>
    localStorage.setItem('beta-flag-closed-at', new Date().toISOString()),
  )
  const attackerEmail = await signUpWithEmailCode(attackerPage, request)
  await attackerPage.goto('/dashboard')
  await logout(attackerPage)
  await attackerPage.setViewportSize(screenViewports[0])
  await openAuthModal(attackerPage)
  const callback = attackerPage.waitForResponse((response) =>
    response.url().includes('/signer/v1/oauth-callback'),
  )
  await authDialog(attackerPage).getByRole('button', { name: 'Continue with Dev login' }).click()
  await signInAtProvider(attackerPage, attackerEmail)
  const returned = new URL((await callback).headers().location ?? '', baseURL)
  const outcome = new URLSearchParams(returned.hash.length > 1 ? returned.hash.slice(1) : returned.search)
  expect(outcome.get('status')).toBe('ACCOUNT_LINKING_CONFIRMATION_REQUIRED')

  // A genuine code for the victim's e-mail, asked for by the attacker; the outcome is rewritten to
  // name it, and handed to the victim in the query and in the fragment.
  const started = await startEmailSignIn(attacker, baseURL, victimEmail)
  outcome.set('otp_id', started.otpId)
  outcome.set('org-id', started.orgId)
  outcome.set('email', victimEmail)
  await page.goto(`/login?${outcome}#${outcome}`)

  const dialog = authDialog(page)
  const codeStep = dialog.getByRole('heading', { name: 'Check your email' })
  const refused = dialog.getByText(refusedOutcome)
  await expect(codeStep.or(refused)).toBeVisible({ timeout: 20_000 })
  if (await codeStep.isVisible()) {
    // The crafted prompt was believed: the victim types the genuine code the attacker had sent.
    const code = extractCode((await waitForMail(request, victimEmail, 2)).text)
    await dialog.getByLabel('Code', { exact: true }).fill(code)
  } else {
    // Ignored with a clear message, the address cleaned; the victim signs in by e-mail as usual.
    const url = new URL(page.url())
    expect(`${url.search}${url.hash}`).toBe('')
    await dialog.getByRole('button', { name: 'Back to sign in' }).click()
    await dialog.getByLabel('Email').fill(victimEmail)
    await dialog.getByRole('button', { name: 'Continue with email' }).click()
    const code = extractCode((await waitForMail(request, victimEmail, 3)).text)
    await dialog.getByLabel('Code', { exact: true }).fill(code)
  }
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
  expect((await getSessionUser(page)).address).toBe(victim.address)

  // The attacker signs in with that provider identity: it opens no wallet (the provider e-mail's
  // own account asks for its code), least of all the victim's.
  await attackerPage.setViewportSize(screenViewports[1])
  await openAuthModal(attackerPage)
  await continueInPopup(attackerPage, attackerEmail)
  const ownCodeStep = authDialog(attackerPage).getByRole('heading', { name: 'Check your email' })
  await Promise.race([
    ownCodeStep.waitFor({ timeout: 20_000 }).catch(() => undefined),
    attackerPage.waitForURL(/\/(dashboard|onboarding)$/, { timeout: 20_000 }).catch(() => undefined),
  ])
  const attackerSession = await attackerPage.request.get('/api/auth/me')
  if (attackerSession.ok()) {
    const { data } = (await attackerSession.json()) as { data: { address: string } }
    expect(data.address, "the attacker's provider identity opened the victim's wallet").not.toBe(
      victim.address,
    )
  }
  expect(attackerSession.status()).toBe(401)
  await expect(ownCodeStep).toBeVisible()
  const section = await openLinkedAccounts(page)
  await expect(section).not.toContainText(attackerEmail)
  await attacker.close()
})

test('redirect (phone): a provider e-mail of an existing account is linked by that e-mail’s code, and no address the browser visits carries a token in its query', async ({
  page,
  request,
  context,
}) => {
  test.slow()
  const urls = recordVisitedUrls(context)
  const email = await signUpWithEmailCode(page, request)
  const account = await getSessionUser(page)
  await page.goto('/dashboard')
  await logout(page)

  await page.setViewportSize(screenViewports[0])
  await openAuthModal(page)
  await authDialog(page).getByRole('button', { name: 'Continue with Dev login' }).click()
  await signInAtProvider(page, email)
  const dialog = authDialog(page)
  await expect(dialog.getByRole('heading', { name: 'Check your email' })).toBeVisible({ timeout: 20_000 })
  await expect(dialog.getByRole('status').first()).toContainText(
    `${email} already has a wallet. Enter the code we sent there to link your Dev login account to it.`,
  )
  const back = new URL(page.url())
  expect(`${back.search}${back.hash}`).toBe('')
  const code = extractCode((await waitForMail(request, email, 2)).text)
  await dialog.getByLabel('Code', { exact: true }).fill(code)
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
  expect((await getSessionUser(page)).address).toBe(account.address)

  // Linked at the code: the provider alone now opens the account.
  await logout(page)
  await openAuthModal(page)
  await authDialog(page).getByRole('button', { name: 'Continue with Dev login' }).click()
  await signInAtProvider(page, email)
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 })
  expect((await getSessionUser(page)).address).toBe(account.address)

  // Settings lists the identity the code linked.
  await page.setViewportSize(screenViewports[1])
  const section = await openLinkedAccounts(page)
  await expect(section.getByRole('list', { name: 'Linked accounts' })).toContainText(email)

  expect(urls.some((url) => url.includes('/signer/v1/oauth-callback'))).toBe(true)
  expect(findTokensInQueries(urls)).toEqual([])
})
