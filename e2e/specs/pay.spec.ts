import {
  chooseChainAndToken,
  confirmAndPay,
  connectTestWallet,
  enterAmount,
  expect,
  getDevnetToken,
  openPayPage,
  payModal,
  readBaseUsdcBalance,
  resetAllowance,
  test,
  toasts,
} from '../fixtures/pay.ts'

/**
 * A payer pays a payee's Base USDC link with the injected test wallet on the devnet
 * (docs/product.md#pay-modal). Each test uses its own anvil account (3-8), so parallel
 * tests never share a nonce; each link pays a brand-new receiver, whose balance starts at 0.
 */

test.describe.configure({ timeout: 120_000 })

test('(a) pays a Base USDC link in Base USDC: Approve Exact, then Confirm & Pay', async ({
  page,
  payee,
  devnet,
  consoleErrors: _consoleErrors,
}) => {
  const accountIndex = 3
  const usdc = getDevnetToken(devnet, 8453, 'USDC')
  await resetAllowance(devnet, 8453, usdc, accountIndex)
  const link = await payee.createLink()
  await openPayPage(page, devnet, link, accountIndex)

  await connectTestWallet(page)
  await chooseChainAndToken(page, 'Base', 'USDC')
  const confirm = await enterAmount(page, 'USDC', '2.5')
  await expect(confirm.getByText('Send exactly')).toBeVisible()
  await confirm.getByRole('button', { name: 'Approve Exact' }).click()
  await expect(confirm.getByText('Allowance sufficient ✓')).toBeVisible({ timeout: 20_000 })
  await expect(confirm.getByText('Route ready ✓')).toBeVisible({ timeout: 20_000 })
  const receipt = page.waitForResponse((response) =>
    /^\/api\/route-intent\/[^/]+\/receipt$/.test(new URL(response.url()).pathname),
  )
  await confirm.getByRole('button', { name: 'Confirm & Pay' }).click()
  await receipt
  // The first poll of GET /api/route-intent/{intentId} follows the receipt at once; how soon the
  // success shows after it is measured by e2e/bench/pay-bench.ts (target 0.3 s), not timed here.
  await payModal(page, 'Payment Successful').waitFor({ state: 'visible', timeout: 10_000 })

  await expect(payModal(page, 'Payment Successful').getByText('Payment completed')).toBeVisible()
  await expect.poll(() => readBaseUsdcBalance(devnet, link.receiver)).toBe(2_500_000n)
})

test('(b) pays a Base USDC link in Base ETH through a swap', async ({
  page,
  payee,
  devnet,
  consoleErrors: _consoleErrors,
}) => {
  const link = await payee.createLink()
  await openPayPage(page, devnet, link, 4)

  await connectTestWallet(page)
  await chooseChainAndToken(page, 'Base', 'ETH')
  const confirm = await enterAmount(page, 'ETH', '0.001')
  // Native input needs no allowance.
  await expect(confirm.getByRole('button', { name: 'Approve Exact' })).toHaveCount(0)
  await confirmAndPay(page)

  // 0.001 ETH at about 3000 USDC, less the pool's fee and price impact.
  await expect.poll(() => readBaseUsdcBalance(devnet, link.receiver)).toBeGreaterThan(2_500_000n)
  expect(await readBaseUsdcBalance(devnet, link.receiver)).toBeLessThan(3_100_000n)
})

test('(c) pays a Base USDC link in Avalanche AVAX across chains', async ({
  page,
  payee,
  devnet,
  consoleErrors: _consoleErrors,
}) => {
  const link = await payee.createLink()
  // The wallet does not know Avalanche yet: the app adds it (4902, then wallet_addEthereumChain).
  const wallet = await openPayPage(page, devnet, link, 5, { knownChainIds: [8453] })

  await connectTestWallet(page)
  await chooseChainAndToken(page, 'Avalanche', 'AVAX')
  expect(wallet.chainId()).toBe(43114)
  expect(wallet.requests).toContain('wallet_addEthereumChain')
  await enterAmount(page, 'AVAX', '0.1')
  await confirmAndPay(page, { timeout: 90_000 })

  // 0.1 AVAX at about 30 USDC, filled on Base by the relayer.
  await expect.poll(() => readBaseUsdcBalance(devnet, link.receiver)).toBeGreaterThan(2_500_000n)
})

test("rejecting the transaction shows the 'Payment failed' toast", async ({ page, payee, devnet }) => {
  const link = await payee.createLink()
  const wallet = await openPayPage(page, devnet, link, 6)
  await connectTestWallet(page)
  await chooseChainAndToken(page, 'Base', 'ETH')
  const confirm = await enterAmount(page, 'ETH', '0.001')
  await expect(confirm.getByText('Route ready ✓')).toBeVisible({ timeout: 20_000 })

  wallet.rejectNext()
  await confirm.getByRole('button', { name: 'Confirm & Pay' }).click()
  await expect(toasts(page).getByText('Payment failed')).toBeVisible()
  await expect(toasts(page).getByText('Transaction was rejected by the user.')).toBeVisible()
  expect(wallet.sentTransactions).toEqual([])
  expect(await readBaseUsdcBalance(devnet, link.receiver)).toBe(0n)
})

test("an amount above the balance disables Next with 'Amount exceeds available balance.'", async ({
  page,
  payee,
  devnet,
}) => {
  const link = await payee.createLink()
  await openPayPage(page, devnet, link, 8)
  await connectTestWallet(page)
  const step = await chooseChainAndToken(page, 'Base', 'USDC')
  await step.getByRole('button', { name: 'USDC', exact: true }).click()
  await expect(step.getByText('Available')).toBeVisible()
  // Every test account holds 1,000,000 USDC.
  await step.getByLabel('Amount').fill('2000000')
  await expect(step.getByText('Amount exceeds available balance.').first()).toBeVisible()
  await expect(step.getByRole('button', { name: 'Next' })).toBeDisabled()

  await step.getByLabel('Amount').fill('1')
  await expect(step.getByRole('button', { name: 'Next' })).toBeEnabled()
  await expect(step.getByText('Amount exceeds available balance.')).toHaveCount(0)
})

test('closing does nothing while the payment is processing (step 4)', async ({ page, payee, devnet }) => {
  // The pay transaction stays pending (Arbitrum's anvil stops mining; no other test uses
  // Arbitrum), so step 4 lasts as long as the test needs.
  const arbitrum = devnet.rpcUrls[42161]
  if (arbitrum === undefined) throw new Error('no Arbitrum on the devnet')
  const setAutomine = async (on: boolean) => {
    const response = await fetch(arbitrum, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_setAutomine', params: [on] }),
    })
    expect(response.ok).toBe(true)
  }
  const link = await payee.createLink()
  const wallet = await openPayPage(page, devnet, link, 7)
  await connectTestWallet(page)
  await chooseChainAndToken(page, 'Arbitrum', 'ETH')
  const confirm = await enterAmount(page, 'ETH', '0.001')
  await expect(confirm.getByText('Route ready ✓')).toBeVisible({ timeout: 20_000 })

  await setAutomine(false)
  try {
    await confirm.getByRole('button', { name: 'Confirm & Pay' }).click()
    const processing = payModal(page, 'Payment Confirmation')
    await expect(processing).toBeVisible({ timeout: 20_000 })
    await expect(
      processing.getByText('Processing secure transaction. Do not close this window until confirmation.'),
    ).toBeVisible()
    expect(wallet.sentTransactions).toHaveLength(1)

    await page.keyboard.press('Escape')
    await expect(processing).toBeVisible()
    // The backdrop: a click outside the dialog, in the page's top-left corner.
    await page.mouse.click(5, 5)
    await expect(processing).toBeVisible()
    const close = processing.getByRole('button', { name: 'Close' })
    if ((await close.count()) > 0 && (await close.isEnabled())) await close.click()
    await expect(processing).toBeVisible()
    const back = processing.getByRole('button', { name: 'Back' })
    if ((await back.count()) > 0 && (await back.isEnabled())) await back.click()
    await expect(processing).toBeVisible()
  } finally {
    await setAutomine(true)
  }
  // Once mined, the payment goes through.
  await expect(payModal(page, 'Payment Successful')).toBeVisible({ timeout: 90_000 })
  await expect.poll(() => readBaseUsdcBalance(devnet, link.receiver)).toBeGreaterThan(0n)
})

test("disconnecting the wallet on steps 1 to 3 returns to 'Select Your Wallet'", async ({
  page,
  payee,
  devnet,
}) => {
  const link = await payee.createLink()
  const wallet = await openPayPage(page, devnet, link, 8)
  const walletStep = payModal(page, 'Select Your Wallet')

  await connectTestWallet(page)
  await wallet.disconnect()
  await expect(walletStep).toBeVisible()

  await connectTestWallet(page)
  await chooseChainAndToken(page, 'Base', 'USDC')
  await wallet.disconnect()
  await expect(walletStep).toBeVisible()

  await connectTestWallet(page)
  await chooseChainAndToken(page, 'Base', 'ETH')
  await enterAmount(page, 'ETH', '0.001')
  await wallet.disconnect()
  await expect(walletStep).toBeVisible()
  expect(wallet.sentTransactions).toEqual([])
})
