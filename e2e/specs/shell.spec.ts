import { expect, expectNoSeriousAxeViolations, test } from '../fixtures/test.ts'

test.describe('web shell', () => {
  test('the landing page renders with the shared chrome', async ({ page, consoleErrors }) => {
    await page.goto('/')
    await expect(page.getByRole('banner').getByText('Quick Links', { exact: true })).toBeVisible()
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
    await expect(page.getByRole('contentinfo')).toContainText(/Secured by/)
    await expect(page.getByRole('contentinfo')).toContainText(/v\d+\.\d+\.\d+/)
    await expectNoSeriousAxeViolations(page)
    expect(consoleErrors).toEqual([])
  })

  test('a signed-out visitor opening /dashboard is replaced by /', async ({ page, consoleErrors }) => {
    await page.goto('/')
    const lengthBefore = await page.evaluate(() => window.history.length)
    await page.goto('/dashboard')
    await expect(page).toHaveURL(/\/$/)
    // Replace navigation: /dashboard's entry was replaced, so Back never returns to it.
    expect(await page.evaluate(() => window.history.length)).toBe(lengthBefore + 1)
    await page.goto('/settings')
    await expect(page).toHaveURL(/\/$/)
    expect(consoleErrors).toEqual([])
  })

  test('the theme persists across a reload', async ({ page, consoleErrors }) => {
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goto('/')
    await expect(page.locator('html')).not.toHaveClass(/dark/)
    await page.getByRole('button', { name: /theme/i }).click()
    await page.getByRole('menuitemradio', { name: 'Dark' }).click()
    await expect(page.locator('html')).toHaveClass(/dark/)
    await page.reload()
    await expect(page.locator('html')).toHaveClass(/dark/)
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark')
    expect(consoleErrors).toEqual([])
  })

  test('the system theme follows the OS preference', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.goto('/')
    await expect(page.locator('html')).toHaveClass(/dark/)
    await page.emulateMedia({ colorScheme: 'light' })
    await expect(page.locator('html')).not.toHaveClass(/dark/)
  })

  test('the beta banner appears after its delay and stays dismissed after a reload', async ({
    page,
    consoleErrors,
  }) => {
    // The page's clock, not the runner's: a loaded machine must not move the banner's 2.2 s.
    const start = Date.now()
    await page.clock.install({ time: start })
    await page.clock.pauseAt(start + 1000)
    await page.goto('/')
    const banner = page.getByText(
      'Quick Links is in active development. Things may change—your feedback helps us improve.',
    )
    await page.clock.runFor(1200)
    await expect(banner).toBeHidden()
    await page.clock.runFor(1100)
    await expect(banner).toBeVisible()
    await page.getByRole('button', { name: 'Dismiss beta banner' }).click()
    await expect(banner).toBeHidden()
    const closedAt = await page.evaluate(() => localStorage.getItem('beta-flag-closed-at'))
    expect(Number.isNaN(Date.parse(closedAt ?? ''))).toBe(false)
    await page.reload()
    await page.clock.runFor(3000)
    await expect(banner).toBeHidden()
    expect(consoleErrors).toEqual([])
  })

  test('auth-return parameters vanish from the address, other parameters stay', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/?bundle=abc&orgId=org-1&otpId=o1&email=a%40b.c&utm_source=mail')
    await expect(page).toHaveURL(/\/\?utm_source=mail$/)
    expect(page.url()).not.toMatch(/bundle|orgId|otpId|email/)
    expect(consoleErrors).toEqual([])
  })

  test('a top-level slug redirects to its pay page, and an unknown link says it is unavailable', async ({
    page,
  }) => {
    await page.goto('/some-unknown-link')
    await expect(page).toHaveURL(/\/pay\/some-unknown-link$/)
    await expect(page.getByRole('heading', { name: /unavailable/i })).toBeVisible()
    await expectNoSeriousAxeViolations(page)
  })
})

test.describe('server through the browser origin', () => {
  test('health sets the CSRF cookie and a write without the header is refused', async ({ request }) => {
    const health = await request.get('/health')
    expect(health.ok()).toBe(true)
    expect(health.headers()['set-cookie']).toMatch(/csrf_token=/)
    const refused = await request.post('/api/auth/logout', { data: {} })
    expect(refused.status()).toBe(403)
    const body = await refused.json()
    expect(body.error.code).toBe('CSRF_INVALID')
  })

  test('the devnet endpoint lists three chains whose RPCs answer with their chain ids', async ({
    request,
  }) => {
    const response = await request.get('/api/dev/devnet')
    expect(response.ok()).toBe(true)
    const { chains } = (await response.json()) as { chains: { chainId: number; rpcUrl: string }[] }
    expect(chains.map((chain) => chain.chainId).sort((a, b) => a - b)).toEqual([8453, 42161, 43114])
    for (const chain of chains) {
      const rpc = await request.post(chain.rpcUrl, {
        data: { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      })
      expect(Number.parseInt((await rpc.json()).result, 16)).toBe(chain.chainId)
    }
  })
})
