import { type Address, createPublicClient, createTestClient, http, parseEther } from 'viem'
import { fetchDevnet, getDevnetChain, getDevnetToken, readTokenBalance } from '../fixtures/pay.ts'
import { checkScreen, screenViewports } from '../fixtures/screens.ts'
import { getSessionUser, signUpWithEmailCode } from '../fixtures/sign-in.ts'
import { expect, test } from '../fixtures/test.ts'

/**
 * Self Swap (docs/product.md#self-swap): a payee signed up with an e-mail code (so the frames hold
 * the embedded wallet's session key) swaps Base ETH for Base USDC in that wallet, through the
 * routing provider with the payee as receiver, then some USDC back (approving it first); the
 * balances are read on the devnet, not the UI.
 */
test('a Self Swap of Base ETH to USDC on the devnet changes the payee’s balances', async ({
  page,
  request,
  playwright,
  baseURL,
  consoleErrors,
}) => {
  // A sign-up, a swap through the signer and two screenshots: room for a loaded runner.
  test.slow()
  await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
  const devnet = await fetchDevnet(playwright, baseURL)
  const base = getDevnetChain(devnet, 8453)
  const usdc = getDevnetToken(devnet, 8453, 'USDC')
  await signUpWithEmailCode(page, request)
  const address = (await getSessionUser(page)).address as Address
  // The brand-new embedded wallet gets 2 ETH on the devnet's Base.
  await createTestClient({ mode: 'anvil', transport: http(base.rpcUrl) }).setBalance({
    address,
    value: parseEther('2'),
  })
  const chain = createPublicClient({ transport: http(base.rpcUrl) })
  const ethBefore = await chain.getBalance({ address })
  const usdcBefore = await readTokenBalance(devnet, 8453, usdc, address)
  expect(usdcBefore).toBe(0n)

  await page.goto('/dashboard')
  await page.getByRole('button', { name: 'Self Swap' }).click()

  const from = page.getByRole('dialog', { name: 'Swap From' })
  await from.getByRole('button', { name: /^Base\b/ }).click()
  await expect(from.getByRole('tab', { name: 'Tokens' })).toHaveAttribute('aria-selected', 'true')
  const ethRow = from.getByRole('button', { name: /^ETH\b/ })
  await expect(ethRow).toContainText('Balance: 2')
  await ethRow.click()
  await from.getByRole('button', { name: 'Continue' }).click()

  const to = page.getByRole('dialog', { name: 'Swap To' })
  // The target starts on the source's chain, and never offers the source token itself.
  await to.getByRole('tab', { name: 'Tokens' }).click()
  await expect(to.getByRole('button', { name: /^ETH\b/ })).toHaveCount(0)
  await to.getByRole('button', { name: /^USDC\b/ }).click()
  await to.getByRole('button', { name: 'Continue' }).click()

  const amount = page.getByRole('dialog', { name: 'Swap Amount' })
  const unit = amount.getByRole('button', { name: 'ETH', exact: true })
  await unit.click()
  await expect(unit).toHaveAttribute('aria-pressed', 'true')
  await amount.getByLabel('Amount').fill('0.5')
  await amount.getByRole('button', { name: 'Next' }).click()

  const confirm = page.getByRole('dialog', { name: 'Confirm Swap' })
  await expect(confirm.getByText('Route ready ✓')).toBeVisible({ timeout: 20_000 })
  // The receiver is the payee's own wallet.
  await expect(confirm).toContainText(new RegExp(`${address.slice(0, 6)}…${address.slice(-4)}`, 'i'))
  for (const viewport of screenViewports) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height })
    await checkScreen(page, `self-swap-confirm-${viewport.name}-light`, { fullPage: false })
  }
  await page.setViewportSize(screenViewports[1])
  await confirm.getByRole('button', { name: 'Confirm & Swap' }).click()

  const done = page.getByRole('dialog', { name: 'Swap Complete' })
  await expect(done).toBeVisible({ timeout: 60_000 })
  await expect(done).toContainText('You swapped 0.5 ETH for USDC on Base.')
  for (const viewport of screenViewports) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height })
    await page.evaluate(() => document.documentElement.classList.add('dark'))
    await checkScreen(page, `self-swap-success-${viewport.name}-dark`, { fullPage: false })
  }

  // On chain: 0.5 ETH and gas went out, USDC came in.
  const ethAfter = await chain.getBalance({ address })
  const usdcAfter = await readTokenBalance(devnet, 8453, usdc, address)
  expect(ethBefore - ethAfter).toBeGreaterThanOrEqual(parseEther('0.5'))
  expect(ethBefore - ethAfter).toBeLessThan(parseEther('0.51'))
  expect(usdcAfter).toBeGreaterThan(0n)

  await done.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)

  // And back: an ERC-20 source needs an allowance first ('Approve Exact', then the swap).
  await page.getByRole('button', { name: 'Self Swap' }).click()
  const from2 = page.getByRole('dialog', { name: 'Swap From' })
  await from2.getByRole('button', { name: /^Base\b/ }).click()
  await from2.getByRole('button', { name: /^USDC\b/ }).click()
  await from2.getByRole('button', { name: 'Continue' }).click()
  const to2 = page.getByRole('dialog', { name: 'Swap To' })
  await to2.getByRole('tab', { name: 'Tokens' }).click()
  await to2.getByRole('button', { name: /^ETH\b/ }).click()
  await to2.getByRole('button', { name: 'Continue' }).click()
  const amount2 = page.getByRole('dialog', { name: 'Swap Amount' })
  const usdcUnit = amount2.getByRole('button', { name: 'USDC', exact: true })
  await usdcUnit.click()
  await expect(usdcUnit).toHaveAttribute('aria-pressed', 'true')
  await amount2.getByLabel('Amount').fill('100')
  await amount2.getByRole('button', { name: 'Next' }).click()
  const confirm2 = page.getByRole('dialog', { name: 'Confirm Swap' })
  await expect(confirm2.getByText('Route ready ✓')).toBeVisible({ timeout: 20_000 })
  await confirm2.getByRole('button', { name: 'Approve Exact' }).click()
  await expect(confirm2.getByText('Allowance sufficient ✓')).toBeVisible({ timeout: 30_000 })
  await confirm2.getByRole('button', { name: 'Confirm & Swap' }).click()
  await expect(page.getByRole('dialog', { name: 'Swap Complete' })).toBeVisible({ timeout: 60_000 })
  expect(usdcAfter - (await readTokenBalance(devnet, 8453, usdc, address))).toBe(100_000_000n)
  expect(await chain.getBalance({ address })).toBeGreaterThan(ethAfter)
  expect(consoleErrors).toEqual([])
})
