import {
  chooseChainAndToken,
  enterAmount,
  expect,
  openPayPage,
  payModal,
  readBaseUsdcBalance,
  test,
  toasts,
} from '../fixtures/pay.ts'

/**
 * How the pay modal meets wallets that are not the announced test wallet: a legacy injected
 * provider named by its flags, and a wallet that adds a chain but refuses to switch to it
 * (docs/product.md#step-wallet, docs/product.md#errors-wallet).
 */

test.describe.configure({ timeout: 120_000 })

test('a legacy window.ethereum that says isMetaMask is listed and connects as MetaMask', async ({
  page,
  payee,
  devnet,
}) => {
  const link = await payee.createLink()
  await openPayPage(page, devnet, link, 7, { legacyFlags: { isMetaMask: true } })
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  const walletStep = payModal(page, 'Select Your Wallet')
  const detected = walletStep.getByRole('region', { name: 'Detected Wallets' })
  await expect(detected.getByRole('button', { name: /^MetaMask/ })).toBeVisible({ timeout: 20_000 })
  await expect(walletStep.getByText('Browser Wallet')).toHaveCount(0)

  await detected.getByRole('button', { name: /^MetaMask/ }).click()
  await expect(payModal(page, 'Select Chain & Token')).toBeVisible()
})

test("a wallet that adds the chain but stays off it fails with 'User rejected switch after adding network.'", async ({
  page,
  payee,
  devnet,
}) => {
  const link = await payee.createLink()
  const wallet = await openPayPage(page, devnet, link, 7, {
    knownChainIds: [8453],
    isRefusingSwitchAfterAdd: true,
  })
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await payModal(page, 'Select Your Wallet')
    .getByRole('button', { name: /^Test Wallet/ })
    .click()
  await chooseChainAndToken(page, 'Avalanche', 'AVAX')
  const confirm = await enterAmount(page, 'AVAX', '0.1')
  await expect(confirm.getByText('Route ready ✓')).toBeVisible({ timeout: 30_000 })

  await confirm.getByRole('button', { name: 'Confirm & Pay' }).click()
  await expect(toasts(page).getByText('Payment failed')).toBeVisible()
  await expect(toasts(page).getByText('User rejected switch after adding network.')).toBeVisible()
  expect(wallet.requests).toContain('wallet_addEthereumChain')
  expect(wallet.chainId()).toBe(8453)
  expect(wallet.sentTransactions).toEqual([])
  expect(await readBaseUsdcBalance(devnet, link.receiver)).toBe(0n)
})

test('balances are read under the chain’s name (/api/data/wallets/base/…), and shown', async ({
  page,
  payee,
  devnet,
}) => {
  const link = await payee.createLink()
  await openPayPage(page, devnet, link, 7)
  const balancesRead = page.waitForResponse((response) =>
    new URL(response.url()).pathname.startsWith('/api/data/wallets/base/'),
  )
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await payModal(page, 'Select Your Wallet')
    .getByRole('button', { name: /^Test Wallet/ })
    .click()
  const step = payModal(page, 'Select Chain & Token')
  await step.getByRole('tab', { name: 'Chains' }).click()
  await step.getByRole('button', { name: /^Base\b/ }).click()
  expect((await balancesRead).status()).toBe(200)
  // The devnet's funded account holds ETH on Base: its row shows a balance above zero.
  await expect(step.getByRole('button', { name: /^ETH\b/ })).toContainText(/Balance: [1-9]/)
})
