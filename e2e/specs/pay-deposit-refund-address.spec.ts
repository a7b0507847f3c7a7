import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import { createPublicClient, createWalletClient, erc20Abi, getAddress, http, parseUnits } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { expect, getDevnetChain, getDevnetToken, openPayPage, test } from '../fixtures/pay.ts'

/**
 * The deposit's status page (docs/product.md#deposit-status-page) on the real stack: a transfer short
 * of a fixed-amount link waits for the rest, else its refund to the sender; the page says where the refund
 * goes, loads no wallet code until the sender asks to name another address, then the sender's
 * wallet signs the message and the refund address changes. Screenshots at 375 px, light and dark.
 */

/** The sender: the Test Wallet's account, and the account that sends the transfer from outside the app. */
const senderIndex = 6
const shotsDir = fileURLToPath(new URL('../../.data/shots/', import.meta.url))
/** Chunks of the wallet stack: none may load before the sender asks for the form. */
const walletChunks = /\/assets\/(refund-address-panel|wagmi-config|connect-wallet-step|createConnector)-/

test('the sender of a refundable transfer names another refund address by signing, with no wallet code before asking', async ({
  page,
  payee,
  devnet,
}) => {
  mkdirSync(shotsDir, { recursive: true })
  const link = await payee.createLink(undefined, '10')
  await openPayPage(page, devnet, link, senderIndex)
  const scripts: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url())
  })
  await page.getByRole('button', { name: 'Send from any wallet or exchange' }).click()
  await page.getByRole('button', { name: 'Get deposit address' }).click()
  const panel = page.getByRole('region', { name: 'Deposit address' })
  const address = getAddress((await panel.getByTestId('deposit-address').textContent()) ?? '')
  await panel.getByRole('link', { name: 'Follow this deposit' }).click()
  await expect(page.getByText('Deposit status')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Waiting for your transfer' })).toBeVisible()

  // 2 of the link's 10 USDC, sent from outside the app: it waits for the rest, else goes back to its sender.
  const sender = mnemonicToAccount(devnetMnemonic, { addressIndex: senderIndex })
  const transport = http(getDevnetChain(devnet, 43114).rpcUrl)
  const hash = await createWalletClient({ account: sender, transport }).writeContract({
    chain: null,
    address: getDevnetToken(devnet, 43114, 'USDC'),
    abi: erc20Abi,
    functionName: 'transfer',
    args: [address, parseUnits('2', 6)],
  })
  await createPublicClient({ transport }).waitForTransactionReceipt({ hash })

  const transfers = page.getByRole('list', { name: 'Transfers received' })
  await expect(transfers.getByText(/Received 2 USDC on Avalanche: Less than the amount so far/)).toBeVisible({
    timeout: 45_000,
  })
  await expect(transfers.getByText(`A refund goes to ${sender.address.slice(0, 6)}`)).toBeVisible()
  await page.setViewportSize({ width: 375, height: 900 })
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    // The buttons' colour transition (150 ms) ends before the picture.
    await page.waitForTimeout(300)
    await page.screenshot({ path: `${shotsDir}deposit-status-375-${colorScheme}.png`, fullPage: true })
  }
  expect(scripts.filter((url) => walletChunks.test(url))).toEqual([])

  await page.getByRole('button', { name: /to another address$/ }).click()
  const form = page.getByRole('region', { name: 'Refund to another address' })
  await form.getByRole('button', { name: /^Test Wallet/ }).click()
  expect(scripts.some((url) => url.includes('/assets/refund-address-panel-'))).toBe(true)
  const newAddress = mnemonicToAccount(devnetMnemonic, { addressIndex: 12 }).address
  await form.getByLabel('New refund address').fill('0x12')
  await form.getByRole('button', { name: 'Sign and save' }).click()
  await expect(form.getByText('Enter an address of 0x and 40 hex digits.')).toBeVisible()
  await form.getByLabel('New refund address').fill(newAddress)
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    await page.waitForTimeout(300)
    await page.screenshot({ path: `${shotsDir}refund-address-form-375-${colorScheme}.png`, fullPage: true })
  }
  await form.getByRole('button', { name: 'Sign and save' }).click()
  await expect(form.getByText(/^Saved\. A refund of your transfer now goes to/)).toBeVisible()
  await expect(transfers.getByText(`A refund goes to ${newAddress.slice(0, 6)}`)).toBeVisible()
})
