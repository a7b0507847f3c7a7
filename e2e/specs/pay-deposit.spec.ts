import { devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { createPublicClient, createWalletClient, erc20Abi, getAddress, http, parseUnits } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import {
  expect,
  getDevnetChain,
  getDevnetToken,
  openPayPage,
  readBaseUsdcBalance,
  test,
} from '../fixtures/pay.ts'

/**
 * "Send from any wallet or exchange" on the real stack (docs/product.md#send-from-any-wallet-or-exchange):
 * the QR code decodes to the payment request shown, and one plain USDC transfer on Avalanche, sent
 * from outside the app, pays the Base USDC link.
 */

/** A devnet account the app never sees: it only sends one plain transfer. */
const outsidePayerIndex = 6

test('the deposit QR code decodes to its payment request, and one plain transfer pays the link', async ({
  page,
  payee,
  devnet,
}, testInfo) => {
  const link = await payee.createLink()
  await openPayPage(page, devnet, link, 8)
  await page.getByRole('button', { name: 'Send from any wallet or exchange' }).click()
  await page.getByLabel('Refund address (optional)').fill('0x12')
  await page.getByRole('button', { name: 'Get deposit address' }).click()
  await expect(page.getByText('Enter an address of 0x and 40 hex digits, or leave it empty.')).toBeVisible()
  await page
    .getByLabel('Refund address (optional)')
    .fill(mnemonicToAccount(devnetMnemonic, { addressIndex: 7 }).address)
  await page.getByRole('button', { name: 'Get deposit address' }).click()

  const panel = page.getByRole('region', { name: 'Deposit address' })
  await expect(panel).toBeVisible()
  await panel.getByLabel('Network').selectOption({ label: 'Avalanche' })
  await panel.getByLabel('Token').selectOption({ label: 'USDC' })
  const usdc = getDevnetToken(devnet, 43114, 'USDC')
  const uri = (await panel.getByTestId('deposit-uri').textContent()) ?? ''
  const address = getAddress((await panel.getByTestId('deposit-address').textContent()) ?? '')
  expect(uri).toBe(`ethereum:${usdc}@43114/transfer?address=${address}`)
  // Read the QR code as a camera would: the pixels on screen, decoded by jsQR.
  const png = PNG.sync.read(await panel.getByRole('img', { name: `QR code for ${uri}` }).screenshot())
  expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(uri)

  const before = await readBaseUsdcBalance(devnet, link.receiver)
  const transport = http(getDevnetChain(devnet, 43114).rpcUrl)
  const wallet = createWalletClient({
    account: mnemonicToAccount(devnetMnemonic, { addressIndex: outsidePayerIndex }),
    transport,
  })
  const hash = await wallet.writeContract({
    chain: null,
    address: usdc,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [address, parseUnits('2', 6)],
  })
  await createPublicClient({ transport }).waitForTransactionReceipt({ hash })
  await expect(panel.getByText('Received 2 USDC on Avalanche: sent to the receiver.')).toBeVisible({
    timeout: 45_000,
  })
  await expect
    .poll(() => readBaseUsdcBalance(devnet, link.receiver), { timeout: 30_000 })
    .toBe(before + parseUnits('2', 6))

  // The view at a phone's width, in both schemes, for a person to look at.
  await page.setViewportSize({ width: 375, height: 900 })
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    await panel.screenshot({ path: testInfo.outputPath(`deposit-375-${colorScheme}.png`) })
  }
})
