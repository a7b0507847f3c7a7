import { parseEther } from 'viem'
import {
  chooseChainAndToken,
  confirmAndPay,
  connectTestWallet,
  enterAmount,
  expect,
  fundFreshPayer,
  openPayPage,
  payModal,
  readBaseUsdcBalance,
  test,
} from '../fixtures/pay.ts'
import { checkAllScreens } from '../fixtures/screens.ts'

/**
 * The payer sees what happened (docs/product.md#step-result, docs/product.md#status-page): after
 * a cross-chain payment the success step names what the receiver got, both transactions and the
 * receipt and status pages; the status page shows the payment delivered. The refund of a deposit
 * nobody fills needs the chains' clocks moved past its deadline and settlement window, which the
 * parallel specs sharing this devnet cannot afford: that path is proven on the devnet in
 * apps/server/src/routes/pay-status/pay-status-routes.test.ts and in the page's own test.
 */

test.describe.configure({ timeout: 150_000 })

/** USDC's integer amount as the pages show it: at most 6 decimals, trailing zeros trimmed. */
function formatUsdc(value: bigint): string {
  const fraction = (value % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '')
  return fraction.length > 0 ? `${value / 1_000_000n}.${fraction}` : `${value / 1_000_000n}`
}

test('a payer pays across chains, reads what the receiver got, and follows the status page to Delivered', async ({
  page,
  payee,
  devnet,
  consoleErrors: _consoleErrors,
}) => {
  const payer = await fundFreshPayer(devnet, { native: { 43114: parseEther('10') } })
  const link = await payee.createLink()
  await openPayPage(page, devnet, link, payer.accountIndex)
  await connectTestWallet(page)
  await chooseChainAndToken(page, 'Avalanche', 'AVAX')
  await enterAmount(page, 'AVAX', '0.1')
  await confirmAndPay(page, { timeout: 90_000 })

  // The success step says what the chain shows the receiver got, from the verified record.
  const received = await readBaseUsdcBalance(devnet, link.receiver)
  expect(received).toBeGreaterThan(0n)
  const sentence = `${link.alias} received ${formatUsdc(received)} USDC on Base.`
  const success = payModal(page, 'Payment Successful')
  await expect(success.getByText(sentence)).toBeVisible()
  await expect(success.getByText('Source transaction')).toBeVisible()
  await expect(success.getByText('Destination transaction')).toBeVisible()
  await expect(success.getByRole('link', { name: 'Receipt' })).toHaveAttribute(
    'href',
    /^\/pay\/receipt\/0x[0-9a-f]{64}$/,
  )
  const statusLink = success.getByRole('link', { name: 'Payment status' })
  await expect(statusLink).toHaveAttribute('href', /^\/pay\/status\/0x[0-9a-f]{64}$/)
  // Keyboard reachable: Tab lands on it from the receipt link.
  await success.getByRole('link', { name: 'Receipt' }).focus()
  await page.keyboard.press('Tab')
  await expect(statusLink).toBeFocused()
  await page.keyboard.press('Enter')

  await expect(page).toHaveURL(/\/pay\/status\/0x[0-9a-f]{64}$/)
  await expect(page.getByRole('heading', { name: 'Delivered' })).toBeVisible({ timeout: 20_000 })
  await expect(page.getByText(sentence)).toBeVisible()
  await expect(page.getByText('Delivered. Nothing more to do.')).toBeVisible()
  const transactions = page.getByRole('region', { name: 'Transactions' })
  await expect(transactions.getByText('Source transaction')).toBeVisible()
  await expect(transactions.getByText('Destination transaction')).toBeVisible()
  await expect(transactions.getByRole('link')).toHaveCount(2)
  await checkAllScreens(page, 'pay-status-delivered')
})
