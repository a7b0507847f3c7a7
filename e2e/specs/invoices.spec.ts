import { readFileSync } from 'node:fs'
import { parse } from 'csv-parse/sync'
import { parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import {
  chooseChainAndToken,
  expect,
  fundFreshPayer,
  payModal,
  readBaseUsdcBalance,
  test,
} from '../fixtures/pay.ts'
import { checkAllScreens } from '../fixtures/screens.ts'
import { createLinkThroughApi } from '../fixtures/share-links.ts'
import { signInThroughApi } from '../fixtures/sign-in.ts'
import { installTestWallet } from '../fixtures/test-wallet.ts'

/**
 * A payee runs a business on it (issue 31; docs/product.md#paying-an-invoice-or-an-amount-link,
 * #payments-tab, #status-page): the payee creates an invoice from the dashboard, a payer pays it
 * with AVAX on Avalanche into the Base USDC link, the invoice page then says it is paid, the payee
 * sees the payment in the Payments tab and downloads the CSV, and the payer opens the status page.
 */

test.describe.configure({ timeout: 180_000 })

test('a payee invoices 2 USDC, a payer pays it from another chain, the payee sees it paid and exports it', async ({
  browser,
  page,
  devnet,
  consoleErrors: _consoleErrors,
}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL
  if (baseURL === undefined) throw new Error('the spec needs a baseURL')
  const payee = await browser.newContext({ baseURL, acceptDownloads: true })
  await signInThroughApi(payee, baseURL)
  const dashboard = await payee.newPage()
  const receiver = privateKeyToAccount(generatePrivateKey()).address
  const alias = `Invoice Shop ${testInfo.workerIndex}${Date.now().toString(36)}`
  await createLinkThroughApi(dashboard, alias, receiver)

  // The payee makes the invoice from the link's menu.
  await dashboard.goto('/dashboard')
  await dashboard.getByRole('button', { name: `More actions for ${alias}` }).click()
  await dashboard.getByRole('menuitem', { name: 'Create invoice' }).click()
  const create = dashboard.getByRole('dialog', { name: 'Create invoice' })
  await create.getByLabel('Amount (USDC)').fill('2')
  await create.getByLabel('Memo (optional)').fill('Order 1042')
  // A route from another chain is quoted to deliver at least the amount, so a little more arrives
  // (the 1% slippage buffer): the payee accepts 2% over as paid (without it the state is paid_over).
  await create.getByLabel('Tolerance (%)').fill('2')
  await create.getByRole('button', { name: 'Create invoice' }).click()
  const created = dashboard.getByRole('dialog', { name: 'Invoice created' })
  const invoiceUrl = await created.getByRole('textbox', { name: 'Invoice link' }).inputValue()
  expect(invoiceUrl).toMatch(/\/pay\/[^/]+\/inv_[A-Za-z0-9_-]{22}$/)

  // The payer opens it, with AVAX on Avalanche only.
  const payer = await fundFreshPayer(devnet, { native: { 43114: parseEther('10') } })
  await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
  await installTestWallet(page, { accountIndex: payer.accountIndex, chainId: 8453, rpcUrls: devnet.rpcUrls })
  await page.goto(new URL(invoiceUrl).pathname)
  await expect(page.getByText('Order 1042')).toBeVisible()
  await checkAllScreens(page, 'invoice-open')
  await page.getByRole('button', { name: 'Pay 2 USDC' }).click()
  await payModal(page, 'Select Your Wallet')
    .getByRole('button', { name: /^Test Wallet/ })
    .click()
  const amountStep = await chooseChainAndToken(page, 'Avalanche', 'AVAX')
  // The amount is the invoice's, locked; the payer only picks what to pay with.
  await expect(amountStep.getByRole('textbox', { name: 'Amount due' })).toHaveValue(/^2(\.0+)? USDC$|^2$/)
  await amountStep.getByRole('button', { name: 'Next' }).click()
  const confirm = payModal(page, 'Confirm Payment')
  await expect(confirm.getByText('Route ready ✓')).toBeVisible({ timeout: 30_000 })
  await confirm.getByRole('button', { name: 'Confirm & Pay' }).click()
  const success = payModal(page, 'Payment Successful')
  await expect(success).toBeVisible({ timeout: 90_000 })
  // The route was quoted so the receiver gets at least what was due.
  expect(await readBaseUsdcBalance(devnet, receiver)).toBeGreaterThanOrEqual(2_000_000n)
  const statusHref = await success.getByRole('link', { name: 'Payment status' }).getAttribute('href')
  const intentId = /\/pay\/status\/(0x[0-9a-f]{64})$/.exec(statusHref ?? '')?.[1]
  expect(intentId).toBeDefined()

  // The invoice worker credits the verified payment: the invoice page says it is paid.
  await expect(async () => {
    await page.goto(new URL(invoiceUrl).pathname)
    await expect(page.getByText('This invoice is paid. Nothing more is due.')).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 30_000 })
  await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0)
  await checkAllScreens(page, 'invoice-paid')

  // The payer comes back to the status page.
  await page.goto(statusHref ?? '')
  await expect(page.getByText('Delivered', { exact: false }).first()).toBeVisible({ timeout: 30_000 })

  // The payee sees it in the Payments tab and downloads the CSV.
  await dashboard.goto('/dashboard/payments')
  const payments = dashboard.getByRole('list', { name: 'Payments' })
  const item = payments.getByRole('listitem').filter({ hasText: alias })
  await expect(item).toBeVisible({ timeout: 20_000 })
  await checkAllScreens(dashboard, 'payments-tab')
  const downloading = dashboard.waitForEvent('download')
  await dashboard.getByRole('link', { name: 'Download CSV' }).click()
  const download = await downloading
  const rows = parse(readFileSync(await download.path(), 'utf8'), { columns: true }) as Record<
    string,
    string
  >[]
  const row = rows.find((entry) => Object.values(entry).includes(intentId ?? ''))
  expect(row, 'the CSV has the payment').toBeDefined()
  expect(Object.values(row ?? {})).toContain(alias)
  await payee.close()
})
