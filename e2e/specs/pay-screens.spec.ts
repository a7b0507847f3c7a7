import type { Page, Route } from '@playwright/test'
import {
  connectTestWallet,
  expect,
  getDevnetToken,
  openPayPage,
  payModal,
  resetAllowance,
  test,
} from '../fixtures/pay.ts'
import { checkScreen, screenViewports } from '../fixtures/screens.ts'

/**
 * The pay page and every step of the pay modal at phone and desktop widths, light and dark, on a
 * real payment: no horizontal overflow, no serious axe violation, a screenshot of each in
 * e2e/.artifacts/screens. One test per width (accounts 0 and 1), each shooting both schemes.
 */

// Fourteen screens in two schemes (28 axe runs and screenshots) and a payment: about 2.2 min on a
// loaded 2-core runner.
test.describe.configure({ timeout: 300_000 })

/** Checks and shoots the current screen in light, then dark, then returns to light. */
async function checkBothSchemes(page: Page, name: string, fullPage = false): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
    await expect(page.locator('html')).toHaveClass(colorScheme === 'dark' ? /dark/ : /^(?!.*dark)/)
    await checkScreen(page, `${name}-${colorScheme}`, { fullPage })
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' })
}

screenViewports.forEach((viewport, index) => {
  test(`pay page and pay modal steps at ${viewport.name} width, light and dark`, async ({
    page,
    payee,
    devnet,
    consoleErrors: _consoleErrors,
  }) => {
    const accountIndex = index
    const usdc = getDevnetToken(devnet, 8453, 'USDC')
    await resetAllowance(devnet, 8453, usdc, accountIndex)
    await page.setViewportSize(viewport)
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' })
    const link = await payee.createLink()
    await openPayPage(page, devnet, link, accountIndex)
    await page.waitForLoadState('networkidle')
    const at = (name: string) => `pay-${name}-${viewport.name}`
    await checkBothSchemes(page, at('page'), true)

    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    const walletStep = payModal(page, 'Select Your Wallet')
    await expect(walletStep.getByRole('button', { name: /^Test Wallet/ })).toBeVisible({ timeout: 20_000 })
    await expect(walletStep.getByRole('button', { name: /^Test Wallet.*Detected/ })).toBeVisible()
    await checkBothSchemes(page, at('step0-wallet'))

    const chainStep = await connectTestWallet(page)
    await expect(chainStep.getByRole('button', { name: /^Base/ })).toBeVisible()
    await checkBothSchemes(page, at('step1-chains'))
    await chainStep.getByRole('button', { name: /^Base/ }).click()
    await expect(chainStep.getByRole('button', { name: /^USDC\b/ })).toBeVisible()
    await chainStep.getByRole('button', { name: /^USDC\b/ }).click()
    await checkBothSchemes(page, at('step1-tokens'))
    await chainStep.getByRole('button', { name: 'Continue' }).click()

    const amountStep = payModal(page, 'Select Amount')
    await amountStep.getByRole('button', { name: 'USDC', exact: true }).click()
    await amountStep.getByLabel('Amount').fill('2000000')
    await expect(amountStep.getByText('Amount exceeds available balance.').first()).toBeVisible()
    await checkBothSchemes(page, at('step2-amount-invalid'))
    await amountStep.getByLabel('Amount').fill('1.25')
    await expect(amountStep.getByRole('button', { name: 'Next' })).toBeEnabled()
    await checkBothSchemes(page, at('step2-amount'))
    await amountStep.getByRole('button', { name: 'Next' }).click()

    const confirm = payModal(page, 'Confirm Payment')
    await expect(confirm.getByText('Route ready ✓')).toBeVisible({ timeout: 20_000 })
    await expect(confirm.getByRole('button', { name: 'Approve Exact' })).toBeVisible()
    await checkBothSchemes(page, at('step3-confirm-approve'))
    await confirm.getByRole('button', { name: 'Approve Exact' }).click()
    await expect(confirm.getByText('Allowance sufficient ✓')).toBeVisible({ timeout: 20_000 })

    // Step 4 for as long as the shots take: the payer's transaction list answers only after.
    let release: () => void = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    const holdTransactions = async (route: Route) => {
      await released
      // The app may have given up on a held poll (aborted it) meanwhile.
      await route.continue().catch(() => {})
    }
    await page.route('**/api/data/transactions/**', holdTransactions)
    await confirm.getByRole('button', { name: 'Confirm & Pay' }).click()
    const processing = payModal(page, 'Payment Confirmation')
    await expect(processing).toBeVisible({ timeout: 20_000 })
    await checkBothSchemes(page, at('step4-processing'))
    release()
    await page.unroute('**/api/data/transactions/**', holdTransactions)

    await expect(payModal(page, 'Payment Successful')).toBeVisible({ timeout: 60_000 })
    await checkBothSchemes(page, at('step5-success'))
  })
})
