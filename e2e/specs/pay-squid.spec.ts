import { squidRouterAddress } from '@quicklinks/devnet/start-squid-stand-in'
import {
  chooseChainAndToken,
  connectTestWallet,
  enterAmount,
  expect,
  openPayPage,
  payModal,
} from '../fixtures/pay.ts'
import { test } from '../fixtures/pay-squid.ts'
import { getRoutingProvider } from '../fixtures/share-links.ts'
import { squidStack } from '../squid-stack-settings.ts'

/**
 * Production routing in the browser (issue 11): on a server with ROUTING_PROVIDER=squid, whose
 * Squid is the loopback stand-in serving the devnet's chains and tokens, the pay modal learns the
 * provider from GET /api/config, lists Squid's catalogue and builds a Squid route. The payer's
 * wallet is the e2e test wallet on the devnet's anvils (account 2; nothing is sent).
 */

test.use({ baseURL: squidStack.baseURL })

test("the pay modal lists Squid's chains and tokens and reaches 'Route ready ✓'", async ({
  page,
  squidDevnet,
  squidPayee,
  consoleErrors: _consoleErrors,
}, testInfo) => {
  expect(await getRoutingProvider(page)).toBe('squid')
  const link = await squidPayee.createLink()
  const routingCalls: string[] = []
  const routeBodies: Record<string, unknown>[] = []
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname
    if (/^\/api\/[a-z]+\/(chains|tokens|route)$/.test(path)) routingCalls.push(`${request.method()} ${path}`)
    if (path === '/api/squid/route') routeBodies.push(request.postDataJSON() as Record<string, unknown>)
  })
  await openPayPage(page, squidDevnet, link, 2)

  const chainStep = await connectTestWallet(page)
  for (const [name, chainId] of [
    ['Arbitrum', 42161],
    ['Avalanche', 43114],
    ['Base', 8453],
  ] as const) {
    await expect(chainStep.getByRole('button', { name: new RegExp(`^${name}\\b`) })).toContainText(
      `Chain ID: ${chainId}`,
    )
  }
  await chainStep.getByRole('button', { name: /^Base\b/ }).click()
  // Squid's tokens, as the stand-in names and prices them ('Ethereum' at 3000; the local provider
  // says 'Ether' at its pool's price), with the payer's devnet balances.
  const eth = chainStep.getByRole('button', { name: /^ETH\b/ })
  await expect(eth).toContainText('Ethereum · 8453')
  await expect(eth).toContainText('$3,000.00')
  await expect(chainStep.getByRole('button', { name: /^USDC\b/ })).toContainText('USD Coin · 8453')
  // The balance comes from the devnet through the server's Multicall3 read of Squid's token list.
  await expect(chainStep.getByRole('button', { name: /^USDC\b/ })).toContainText(
    /Balance: [1-9][\d,]*\.\d{4}/,
  )
  await page.screenshot({ path: testInfo.outputPath('squid-step-1-tokens.png') })

  await chooseChainAndToken(page, 'Base', 'ETH')
  const confirm = await enterAmount(page, 'ETH', '0.001')
  await expect(confirm.getByText('Route ready ✓')).toBeVisible({ timeout: 20_000 })
  // The stand-in quotes at USD prices without a fee: 0.001 ETH at 3000 is exactly 3 USDC.
  await expect(confirm.getByText('≈ 3 USDC on Base')).toBeVisible()
  await expect(confirm.getByRole('button', { name: 'Confirm & Pay' })).toBeEnabled()
  await page.screenshot({ path: testInfo.outputPath('squid-step-3-route-ready.png') })
  await expect(payModal(page, 'Confirm Payment')).toBeVisible()

  expect(routingCalls).toEqual(
    expect.arrayContaining(['GET /api/squid/chains', 'GET /api/squid/tokens', 'POST /api/squid/route']),
  )
  expect(routingCalls.filter((call) => !call.includes('/api/squid/'))).toEqual([])
  // The route names the link it pays (docs/decisions/0018).
  expect(routeBodies.at(-1)).toMatchObject({ linkId: link.id, toAddress: link.receiver, toChain: 8453 })
})

test("Squid's chain records carry axelarChainName and Squid's router and multicall, the spender's fallbacks", async ({
  page,
}) => {
  const answer = await page.request.get('/api/squid/chains')
  expect(answer.status()).toBe(200)
  const { data } = (await answer.json()) as {
    data: { chainId: number; axelarChainName?: string; contracts?: { router?: string; multicall?: string } }[]
  }
  const base = data.find((chain) => chain.chainId === 8453)
  expect(base?.axelarChainName).toBe('Base')
  expect(base?.contracts?.router).toBe(squidRouterAddress)
  expect(base?.contracts?.multicall).toMatch(/^0x[0-9a-fA-F]{40}$/)
})
