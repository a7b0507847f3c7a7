import type { Page } from '@playwright/test'
import { expect, openPayPage, payModal, test } from '../fixtures/pay.ts'
import { test as squidTest } from '../fixtures/pay-squid.ts'
import { squidStack } from '../squid-stack-settings.ts'

/**
 * WalletConnect is a server setting, read at run time (docs/api.md#config): the main e2e stack has
 * no WALLETCONNECT_PROJECT_ID, so step 0's 'Continue with WalletConnect' is off and says why; the
 * Squid-configured stack has one, so the same build offers it and the connector starts with that
 * id. Nothing leaves the machine: WalletConnect's relay socket is answered here and its HTTP origins
 * are refused.
 */

/** Opens step 0 of the pay modal on the current pay page. */
async function openWalletStep(page: Page) {
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  const walletStep = payModal(page, 'Select Your Wallet')
  await expect(walletStep).toBeVisible({ timeout: 20_000 })
  return walletStep
}

test('without a project id on the server, WalletConnect is off and says why', async ({
  page,
  payee,
  devnet,
  consoleErrors: _consoleErrors,
}, testInfo) => {
  const config = await page.request.get('/api/config')
  expect((await config.json()).data.walletConnectProjectId).toBeNull()
  const link = await payee.createLink()
  const sockets: string[] = []
  page.on('websocket', (socket) => sockets.push(socket.url()))
  await openPayPage(page, devnet, link, 7)
  const csp = (await page.request.get(link.url, { headers: { accept: 'text/html' } })).headers()[
    'content-security-policy'
  ]
  expect(csp).toContain("connect-src 'self'")
  expect(csp).not.toContain('walletconnect')

  const walletStep = await openWalletStep(page)
  const button = walletStep.getByRole('button', { name: 'Continue with WalletConnect' })
  await expect(button).toBeDisabled()
  await expect(button).toHaveAccessibleDescription('WalletConnect is not configured on this server.')
  await button.scrollIntoViewIfNeeded()
  await expect(walletStep.getByText('WalletConnect is not configured on this server.')).toBeVisible()
  await page.screenshot({ path: testInfo.outputPath('walletconnect-off-1280.png') })
  await page.setViewportSize({ width: 375, height: 812 })
  await button.scrollIntoViewIfNeeded()
  await page.screenshot({ path: testInfo.outputPath('walletconnect-off-375.png') })
  // The other wallets are unaffected.
  await expect(walletStep.getByRole('button', { name: /^Test Wallet/ })).toBeEnabled()
  expect(sockets).toEqual([])
})

squidTest.describe('on a server with WALLETCONNECT_PROJECT_ID', () => {
  squidTest.use({ baseURL: squidStack.baseURL })

  squidTest(
    "the button is on and the connector starts with the server's project id",
    async ({ page, squidDevnet, squidPayee }, testInfo) => {
      const config = await page.request.get('/api/config')
      expect((await config.json()).data.walletConnectProjectId).toBe(squidStack.walletConnectProjectId)
      // WalletConnect's relay, answered here: every request it sends is acknowledged.
      const relayUrls: string[] = []
      const relayMethods: string[] = []
      await page.routeWebSocket(/^wss:\/\/relay\.walletconnect\.(org|com)\//, (socket) => {
        relayUrls.push(socket.url())
        socket.onMessage((message) => {
          const request = JSON.parse(String(message)) as { id?: number | string; method?: string }
          if (request.method === undefined || request.id === undefined) return
          relayMethods.push(request.method)
          socket.send(JSON.stringify({ id: request.id, jsonrpc: '2.0', result: true }))
        })
      })
      const walletConnectRequests: string[] = []
      await page.route(/^https:\/\/([a-z-]+\.)*(walletconnect|web3modal|reown)\.(org|com)\//, (route) => {
        walletConnectRequests.push(route.request().url())
        return route.abort('internetdisconnected')
      })
      const link = await squidPayee.createLink()
      await openPayPage(page, squidDevnet, link, 2)
      const csp = (await page.request.get(link.url, { headers: { accept: 'text/html' } })).headers()[
        'content-security-policy'
      ]
      expect(csp).toMatch(/connect-src 'self'[^;]* wss:\/\/relay\.walletconnect\.org/)
      expect(csp).toMatch(/frame-src [^;]*https:\/\/verify\.walletconnect\.org/)

      const walletStep = await openWalletStep(page)
      const button = walletStep.getByRole('button', { name: 'Continue with WalletConnect' })
      await expect(button).toBeEnabled()
      await expect(walletStep.getByText('WalletConnect is not configured on this server.')).toHaveCount(0)
      // Nothing of WalletConnect runs (no relay, no call to Reown) until the payer picks it.
      await page.waitForLoadState('networkidle')
      expect(relayUrls).toEqual([])
      expect(walletConnectRequests).toEqual([])

      await button.click()
      await expect.poll(() => relayUrls.length, { timeout: 20_000 }).toBeGreaterThan(0)
      const relayUrl = new URL(relayUrls[0] ?? '')
      expect(relayUrl.searchParams.get('projectId')).toBe(squidStack.walletConnectProjectId)
      await expect.poll(() => relayMethods.length, { timeout: 20_000 }).toBeGreaterThan(0)
      // WalletConnect's QR modal opens over the pay modal with the pairing URI for a phone wallet.
      await expect(page.getByText('Scan this QR Code with your phone')).toBeVisible({ timeout: 20_000 })
      await page.screenshot({ path: testInfo.outputPath('walletconnect-qr.png') })
      const qr = page.locator('wui-qr-code')
      await expect(qr).toHaveAttribute('uri', /^wc:[0-9a-f]{64}@2\?/, { timeout: 20_000 })
    },
  )
})
