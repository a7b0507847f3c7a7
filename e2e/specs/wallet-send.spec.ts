import type { Locator, Page } from '@playwright/test'
import { devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  parseAbi,
  parseEther,
  parseGwei,
} from 'viem'
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { selectOptionContaining } from '../fixtures/links.ts'
import {
  chooseChainAndToken,
  confirmAndPay,
  connectTestWallet,
  type Devnet,
  enterAmount,
  expect,
  fundFreshPayer,
  getDevnetChain,
  getDevnetToken,
  readTokenBalance,
  test,
} from '../fixtures/pay.ts'
import { checkScreen, screenViewports } from '../fixtures/screens.ts'
import { getSessionUser, signUpWithEmailCode } from '../fixtures/sign-in.ts'
import { installTestWallet } from '../fixtures/test-wallet.ts'

const testTokenAbi = parseAbi([
  'function minter() view returns (address)',
  'function mint(address to, uint256 amount)',
])

/**
 * The smart account in the product (issue 16): a user signed up with an e-mail code (so the frames
 * hold the embedded wallet's key, the account's owner) finds it in Settings → Wallet, sends USDC
 * out of it with 0 ETH as a sponsored user operation through the devnet's bundler, and receives a
 * cross-chain payment into it, still undeployed, through a link made with 'Use my wallet'.
 * Balances and code are read on the devnet, not only in the UI.
 */

const accountFactoryAbi = parseAbi([
  'function getAddress(address owner, uint256 salt) view returns (address)',
])

type SmartAccountsConfig = {
  defaultPolicyId: string | null
  chains: { chainId: number; accountFactory: Address; sponsored: boolean }[]
}

async function readSmartAccountsConfig(page: Page): Promise<SmartAccountsConfig> {
  const response = await page.request.get('/api/config')
  expect(response.status(), 'GET /api/config').toBe(200)
  const { smartAccounts } = ((await response.json()) as { data: { smartAccounts?: SmartAccountsConfig } })
    .data
  if (smartAccounts === undefined) throw new Error('GET /api/config has no smartAccounts')
  return smartAccounts
}

/** Opens Settings and waits for the Wallet section's smart account; resolves with its address. */
async function openWalletSection(page: Page): Promise<{ section: Locator; address: Address }> {
  await page.goto('/settings')
  const address = page.getByTestId('smart-account-address')
  await expect(address).toBeVisible({ timeout: 30_000 })
  const section = page
    .locator('div', { has: page.getByRole('heading', { name: 'Wallet', exact: true }) })
    .last()
  return { section, address: getAddress((await address.getAttribute('data-address')) ?? '') }
}

/** The balances row of one chain in the Wallet section. */
function chainRow(page: Page, chain: string): Locator {
  return page.getByRole('listitem', { name: chain, exact: true })
}

async function readCode(devnet: Devnet, chainId: number, address: Address): Promise<Hex | undefined> {
  return createPublicClient({ transport: http(getDevnetChain(devnet, chainId).rpcUrl) }).getCode({ address })
}

async function readNativeBalance(devnet: Devnet, chainId: number, address: Address): Promise<bigint> {
  return createPublicClient({ transport: http(getDevnetChain(devnet, chainId).rpcUrl) }).getBalance({
    address,
  })
}

/** Gives `to` exactly `amount` Base USDC from a fresh funded devnet account (it buys it in the pool first). */
async function sendBaseUsdc(devnet: Devnet, to: Address, amount: bigint): Promise<void> {
  const payer = await fundFreshPayer(devnet, { native: { 8453: parseEther('10') }, baseUsdc: amount })
  const account = mnemonicToAccount(devnetMnemonic, { addressIndex: payer.accountIndex })
  const transport = http(getDevnetChain(devnet, 8453).rpcUrl)
  const hash = await createWalletClient({ account, transport }).writeContract({
    chain: null,
    address: getDevnetToken(devnet, 8453, 'USDC'),
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, amount],
  })
  const receipt = await createPublicClient({ transport }).waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
}

/** The address with the case of its first letter flipped: mixed case whose EIP-55 checksum is wrong. */
function breakChecksum(address: Address): string {
  const index = address.slice(2).search(/[a-fA-F]/) + 2
  const letter = address.charAt(index)
  const flipped = letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase()
  return `${address.slice(0, index)}${flipped}${address.slice(index + 1)}`
}

async function shoot(page: Page, name: string): Promise<void> {
  // As screens.spec does: no colour transition half-way when axe reads the contrast after a theme switch.
  await page.emulateMedia({ reducedMotion: 'reduce' })
  for (const viewport of screenViewports) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height })
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark')
      await checkScreen(page, `${name}-${viewport.name}-${theme}`, { fullPage: false })
    }
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'))
  await page.setViewportSize(screenViewports[1])
}

test.describe.configure({ timeout: 240_000 })

test('Settings → Wallet: the smart account (same address on every chain) sends 1 USDC with 0 ETH, gas sponsored', async ({
  page,
  request,
  devnet,
  consoleErrors: _consoleErrors,
}) => {
  await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
  await signUpWithEmailCode(page, request)
  const owner = getAddress((await getSessionUser(page)).address)
  const { section, address } = await openWalletSection(page)
  expect(address).not.toBe(owner)

  // The same counterfactual address on the three chains, from each chain's factory.
  const config = await readSmartAccountsConfig(page)
  expect(config.chains.map((chain) => chain.chainId).sort()).toEqual([42161, 43114, 8453])
  for (const chain of config.chains) {
    const client = createPublicClient({ transport: http(getDevnetChain(devnet, chain.chainId).rpcUrl) })
    const onChain = await client.readContract({
      address: chain.accountFactory,
      abi: accountFactoryAbi,
      functionName: 'getAddress',
      args: [owner, 0n],
    })
    expect(onChain, `the account address on chain ${chain.chainId}`).toBe(address)
    expect(await readCode(devnet, chain.chainId, address)).toBeUndefined()
  }
  for (const name of ['Base', 'Avalanche', 'Arbitrum']) {
    await expect(chainRow(page, name)).toContainText('Not deployed yet')
    await expect(chainRow(page, name)).toContainText('No funds yet')
  }

  // 5 USDC arrive on Base; the account holds no ETH anywhere.
  await sendBaseUsdc(devnet, address, 5_000_000n)
  expect(await readNativeBalance(devnet, 8453, address)).toBe(0n)
  await page.reload()
  await expect(chainRow(page, 'Base')).toContainText('5 USDC', { timeout: 30_000 })
  await expect(chainRow(page, 'Base')).toContainText('Not deployed yet')
  await section.scrollIntoViewIfNeeded()
  await shoot(page, 'wallet-section')

  // Send 1 USDC to a brand-new address.
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Send' })
  await expect(dialog).toBeVisible()
  await selectOptionContaining(dialog.getByLabel('Token'), 'USDC on Base')
  await expect(dialog.getByText('Balance: 5 USDC')).toBeVisible()
  // Field errors first: an amount above the balance and a mistyped checksum.
  await dialog.getByLabel('Amount').fill('6')
  await dialog.getByLabel('To address').fill(breakChecksum(recipient))
  await dialog.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(dialog.getByText('Amount exceeds available balance.')).toBeVisible()
  await expect(
    dialog.getByText('This address has a wrong checksum. Copy it again from its owner.'),
  ).toBeVisible()
  await expect(dialog.getByLabel('Amount')).toBeFocused()
  await dialog.getByLabel('Amount').fill('1')
  await dialog.getByLabel('To address').fill(recipient)
  await expect(dialog.getByText('Gas is sponsored: you pay nothing extra.')).toBeVisible()
  await shoot(page, 'wallet-send-form')

  // Every step the dialog announces, in order.
  await page.evaluate(() => {
    const seen: string[] = []
    ;(window as unknown as { sendSteps: string[] }).sendSteps = seen
    new MutationObserver(() => {
      const live = document.querySelector('[role="dialog"] p[aria-live="polite"]')
      const text = live?.textContent ?? ''
      if (text.length > 0 && seen.at(-1) !== text) seen.push(text)
    }).observe(document.body, { subtree: true, childList: true, characterData: true })
  })
  await dialog.getByRole('button', { name: 'Send', exact: true }).click()
  const sent = page.getByRole('dialog', { name: 'Sent' })
  await expect(sent).toBeVisible({ timeout: 60_000 })
  await expect(sent.getByRole('status')).toHaveText('Transfer included · gas sponsored')
  const steps = await page.evaluate(() => (window as unknown as { sendSteps: string[] }).sendSteps)
  expect(steps[0]).toBe('Preparing the transfer')
  expect(steps).toContain('Getting the gas sponsored')
  expect(steps.indexOf('Signing with your wallet')).toBeGreaterThan(
    steps.indexOf('Getting the gas sponsored'),
  )
  await expect(sent.getByText('4 USDC')).toBeVisible({ timeout: 20_000 })

  // The explorer link is the devnet's: the transaction is there, included, from the bundler.
  const link = sent.getByRole('link', { name: /view in the explorer/ })
  const href = (await link.getAttribute('href')) ?? ''
  expect(href).toMatch(/^\/api\/dev\/chains\/8453\/tx\/0x[0-9a-f]{64}$/)
  const explorer = await page.request.get(href)
  expect(explorer.status()).toBe(200)
  const { receipt } = ((await explorer.json()) as { data: { receipt: { status: string } | null } }).data
  expect(receipt?.status).toBe('success')
  await shoot(page, 'wallet-send-sent')

  // The chain agrees: 1 USDC moved, the account is deployed now and still holds no ETH.
  const usdc = getDevnetToken(devnet, 8453, 'USDC')
  expect(await readTokenBalance(devnet, 8453, usdc, address)).toBe(4_000_000n)
  expect(await readTokenBalance(devnet, 8453, usdc, recipient)).toBe(1_000_000n)
  expect(await readNativeBalance(devnet, 8453, address)).toBe(0n)
  expect((await readCode(devnet, 8453, address))?.length ?? 0).toBeGreaterThan(2)

  await sent.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(chainRow(page, 'Base')).toContainText('4 USDC')
  await expect(chainRow(page, 'Base')).not.toContainText('Not deployed yet')
  await expect(chainRow(page, 'Avalanche')).toContainText('Not deployed yet')
})

test('a link made with “Use my wallet” is paid across chains into the undeployed smart account', async ({
  page,
  request,
  browser,
  baseURL,
  devnet,
  consoleErrors: _consoleErrors,
}) => {
  await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
  await signUpWithEmailCode(page, request)
  const { address } = await openWalletSection(page)

  // The payee makes a Base USDC link into their smart account in one click.
  await page.goto('/dashboard')
  await page.getByRole('button', { name: 'New link' }).first().click()
  const typeDialog = page.getByRole('dialog', { name: 'Receiving Method' })
  await typeDialog.getByRole('radio', { name: /Crypto Payment Page/ }).click()
  await typeDialog.getByRole('button', { name: 'Continue' }).click()
  const details = page.getByRole('dialog', { name: 'Crypto Payment Page' })
  const alias = `Wallet Fund ${Date.now().toString(36)}`
  await details.getByLabel('Payment Page Name').fill(alias)
  await details.getByRole('button', { name: 'Use my wallet' }).click()
  await expect(details.getByLabel('Wallet Address')).toHaveValue(address)
  await expect(details.getByText('Payments will land in your smart account.')).toBeVisible()
  await shoot(page, 'link-use-my-wallet')
  await selectOptionContaining(details.getByLabel('Receive Chain'), 'Base')
  await selectOptionContaining(details.getByLabel('Receive Token'), 'USDC')
  await details.getByRole('button', { name: 'Create' }).click()
  const ready = page.getByRole('dialog', { name: 'Your Link is Ready to Share' })
  await expect(ready).toBeVisible()
  const shown = (await ready.getByTitle('Payment link').textContent()) ?? ''
  const path = /\/pay\/[\w-]+/.exec(shown)?.[0]
  if (path === undefined) throw new Error(`no pay path in ${shown}`)

  // A payer pays it in Avalanche AVAX, in a browser of their own.
  const payer = await fundFreshPayer(devnet, { native: { 43114: parseEther('10') } })
  const payerContext = await browser.newContext(baseURL === undefined ? {} : { baseURL })
  const payerPage = await payerContext.newPage()
  await payerPage.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
  await installTestWallet(payerPage, {
    accountIndex: payer.accountIndex,
    chainId: 8453,
    rpcUrls: devnet.rpcUrls,
  })
  await payerPage.goto(path)
  await expect(payerPage.getByRole('heading', { name: alias })).toBeVisible()
  await connectTestWallet(payerPage)
  await chooseChainAndToken(payerPage, 'Avalanche', 'AVAX')
  await enterAmount(payerPage, 'AVAX', '0.1')
  await confirmAndPay(payerPage, { timeout: 90_000 })
  await payerContext.close()

  // The account holds the USDC on Base and has no code there (nor anywhere): it was never deployed.
  const usdc = getDevnetToken(devnet, 8453, 'USDC')
  await expect
    .poll(() => readTokenBalance(devnet, 8453, usdc, address), { timeout: 60_000 })
    .toBeGreaterThan(2_500_000n)
  for (const chainId of [8453, 43114, 42161]) expect(await readCode(devnet, chainId, address)).toBeUndefined()
  await page.goto('/settings')
  await expect(chainRow(page, 'Base')).toContainText('USDC', { timeout: 30_000 })
  await expect(chainRow(page, 'Base')).toContainText('Not deployed yet')
})

test('a spent sponsorship is said clearly, and the account then pays its own gas', async ({
  page,
  request,
  devnet,
  consoleErrors: _consoleErrors,
}) => {
  await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
  await signUpWithEmailCode(page, request)
  const { address } = await openWalletSection(page)

  // On Arbitrum the account holds 3 USDC and 2 ETH. Gas costs 1000 gwei there now: one operation
  // would take more than the devnet policy's daily 0.05 ETH a user, so the sponsor refuses it.
  const arbitrum = getDevnetChain(devnet, 42161)
  const transport = http(arbitrum.rpcUrl)
  const chain = createPublicClient({ transport })
  const anvil = createTestClient({ mode: 'anvil', transport })
  const usdc = getDevnetToken(devnet, 42161, 'USDC')
  await anvil.setBalance({ address, value: parseEther('2') })
  const minter = await chain.readContract({ address: usdc, abi: testTokenAbi, functionName: 'minter' })
  await anvil.impersonateAccount({ address: minter })
  const mint = await createWalletClient({ account: minter, transport }).writeContract({
    chain: null,
    address: usdc,
    abi: testTokenAbi,
    functionName: 'mint',
    args: [address, 3_000_000n],
  })
  await chain.waitForTransactionReceipt({ hash: mint })
  await anvil.stopImpersonatingAccount({ address: minter })
  await anvil.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('1000') })
  await anvil.mine({ blocks: 1 })
  try {
    // This one runs on a 375 px phone (the first test sends at desktop width).
    await page.setViewportSize(screenViewports[0])
    await page.reload()
    await expect(chainRow(page, 'Arbitrum')).toContainText('3 USDC', { timeout: 30_000 })
    await expect(chainRow(page, 'Arbitrum')).toContainText('2 ETH')

    const recipient = privateKeyToAccount(generatePrivateKey()).address
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Send' })
    await selectOptionContaining(dialog.getByLabel('Token'), 'USDC on Arbitrum')
    await dialog.getByLabel('Amount').fill('1')
    await dialog.getByLabel('To address').fill(recipient)
    await dialog.getByRole('button', { name: 'Send', exact: true }).click()

    const refused = page.getByRole('dialog', { name: 'Gas not sponsored' })
    await expect(refused).toBeVisible({ timeout: 60_000 })
    await expect(refused.getByRole('alert')).toHaveText('Gas sponsorship for today is used up.')
    await expect(refused.getByText('You can pay the gas from this account in ETH instead.')).toBeVisible()
    expect(await readTokenBalance(devnet, 42161, usdc, recipient)).toBe(0n)
    await shoot(page, 'wallet-send-policy-spent')

    const ethBefore = await chain.getBalance({ address })
    await page.setViewportSize(screenViewports[0])
    await refused.getByRole('button', { name: 'Pay gas from this account' }).click()
    const sent = page.getByRole('dialog', { name: 'Sent' })
    await expect(sent).toBeVisible({ timeout: 60_000 })
    await expect(sent.getByRole('status')).toHaveText('Transfer included')
    await expect(sent.getByText('2 USDC')).toBeVisible({ timeout: 20_000 })
    expect(await readTokenBalance(devnet, 42161, usdc, recipient)).toBe(1_000_000n)
    expect(await readTokenBalance(devnet, 42161, usdc, address)).toBe(2_000_000n)
    // The account paid the gas itself.
    expect(await chain.getBalance({ address })).toBeLessThan(ethBefore)
    expect((await readCode(devnet, 42161, address))?.length ?? 0).toBeGreaterThan(2)
    // Escape closes it once the operation is included (while it is on its way, it stays open).
    await page.keyboard.press('Escape')
    await expect(page.getByRole('dialog')).toHaveCount(0)
  } finally {
    // The devnet keeps its state between runs: gas back to its usual price.
    await anvil.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('1') })
    await anvil.mine({ blocks: 1 })
  }
})
