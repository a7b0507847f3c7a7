import { parseEther } from 'viem'
import { createTestEmail } from '../fixtures/dev-outbox.ts'
import {
  chooseChainAndToken,
  confirmAndPay,
  connectTestWallet,
  enterAmount,
  expect,
  fundFreshPayer,
  openPayPage,
  test,
} from '../fixtures/pay.ts'
import { checkScreen, screenViewports } from '../fixtures/screens.ts'

/**
 * The receipt page (docs/product.md#receipts): after a real devnet payment, /pay/receipt/{intentId}
 * shows who received what and checks the receipt in the browser (signature, then the chain through
 * the receipt relay) until it says 'Verified against the chain'; at phone and desktop widths, light
 * and dark.
 */

test.describe.configure({ timeout: 150_000 })

test('a paid link has a receipt page that verifies it against the chain', async ({
  page,
  payee,
  devnet,
  consoleErrors: _consoleErrors,
}) => {
  const payer = await fundFreshPayer(devnet, { native: { 8453: parseEther('1') } })
  const link = await payee.createLink()
  await openPayPage(page, devnet, link, payer.accountIndex)
  await connectTestWallet(page)
  await chooseChainAndToken(page, 'Base', 'ETH')
  await enterAmount(page, 'ETH', '0.001')
  const posted = page.waitForResponse((response) =>
    /^\/api\/route-intent\/[^/]+\/receipt$/.test(new URL(response.url()).pathname),
  )
  await confirmAndPay(page)
  const intentId = new URL((await posted).url()).pathname.split('/')[3] ?? ''
  expect(intentId).toMatch(/^0x[0-9a-f]{64}$/)

  await page.goto(`/pay/receipt/${intentId}`)
  await expect(page.getByRole('heading', { name: 'Payment receipt' })).toBeVisible()
  await expect(page.getByText('Verified against the chain')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByText(/ USDC/).first()).toBeVisible()
  await expect(page.getByRole('link', { name: /opens the transaction/ })).toHaveCount(2)

  for (const viewport of screenViewports) {
    await page.setViewportSize(viewport)
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
      await expect(page.locator('html')).toHaveClass(colorScheme === 'dark' ? /dark/ : /^(?!.*dark)/)
      await checkScreen(page, `receipt-${viewport.name}-${colorScheme}`)
    }
  }

  // An address of this test: each address takes only so many receipts a day, and the e2e data
  // folder outlives a run on a developer's machine.
  await page.getByLabel('E-mail me a receipt').fill(createTestEmail())
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByText('Sent. Check your inbox in a minute.')).toBeVisible()
})
