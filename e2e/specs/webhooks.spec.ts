import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { request as playwrightRequest } from '@playwright/test'
import { Webhook } from 'standardwebhooks'
import { checkScreen, screenViewports } from '../fixtures/screens.ts'
import { expect, expectNoSeriousAxeViolations, test } from '../fixtures/test.ts'

/**
 * Issue 32's Playwright test: a payee creates an API key and a webhook endpoint in Settings, sends a
 * test event, sees it delivered in the log, and redelivers it. An independent receiver on a
 * loopback port (allowed in dev mode, which the e2e stack runs in) records every request; each is
 * verified with the `standardwebhooks` package and the secret the screen showed once.
 */

type Received = { headers: IncomingHttpHeaders; body: string }

/** A receiver on a free loopback port that answers every POST 200 and keeps what came. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = []
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      received.push({ headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') })
      response.writeHead(200, { 'Content-Type': 'text/plain' })
      response.end('received')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Checks the request's signature as a merchant's server would; throws when it does not verify. */
function verifyWebhook(secret: string, delivery: Received): unknown {
  const header = (name: string) => String(delivery.headers[name] ?? '')
  return new Webhook(secret).verify(delivery.body, {
    'webhook-id': header('webhook-id'),
    'webhook-timestamp': header('webhook-timestamp'),
    'webhook-signature': header('webhook-signature'),
  })
}

test('a payee creates a key and an endpoint, sends a test event, sees it in the log, and redelivers it', async ({
  page,
  baseURL,
  signedInUser: _signedInUser,
  consoleErrors: _consoleErrors,
}) => {
  // Two dialogs, two deliveries and four screenshots with axe: more than the default minute on a
  // loaded 2-core runner.
  test.slow()
  const receiver = await startReceiver()
  try {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' })
    await page.goto('/settings#webhooks')
    const section = page.locator('#webhooks')
    await expect(section.getByRole('heading', { name: 'Webhooks' })).toBeVisible()
    await expect(section.getByText('No endpoints yet.')).toBeVisible()
    // The disable e-mail's link lands on the section.
    await expect(section).toBeInViewport()

    // An API key for the shop's server, shown once.
    await page.getByRole('button', { name: 'Create API key' }).click()
    const keyDialog = page.getByRole('dialog', { name: 'Create API key' })
    await keyDialog.getByLabel('Name').fill('Shop server')
    await keyDialog.getByRole('checkbox', { name: /webhooks:write/ }).check()
    await keyDialog.getByRole('button', { name: 'Create key' }).click()
    const keyShown = page.getByRole('dialog', { name: 'Copy your API key' })
    const apiKey = await keyShown.getByLabel('API key “Shop server”').inputValue()
    expect(apiKey).toMatch(/^qlk_/)
    await keyShown.getByRole('button', { name: 'Done' }).click()
    await expect(page.getByRole('list', { name: 'API keys' }).getByText('Shop server')).toBeVisible()

    // The endpoint, pointing at the receiver; its secret is shown once.
    await section.getByRole('button', { name: 'Add endpoint' }).click()
    const addDialog = page.getByRole('dialog', { name: 'Add endpoint' })
    await addDialog.getByLabel('Endpoint URL').fill(receiver.url)
    await addDialog.getByLabel('Description (optional)').fill('Shop orders')
    await addDialog
      .getByRole('group', { name: 'Invoices' })
      .getByRole('checkbox', { name: /invoice\.paid\b/ })
      .check()
    await addDialog.getByRole('button', { name: 'Add endpoint' }).click()
    const secretShown = page.getByRole('dialog', { name: 'Copy your signing secret' })
    await expect(secretShown.getByText(/will not be shown again/)).toBeVisible()
    const secret = await secretShown.getByLabel('Signing secret').inputValue()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/)
    await secretShown.getByRole('button', { name: 'Done' }).click()
    const endpoint = section.getByRole('listitem', { name: 'Shop orders' })
    await expect(endpoint.getByText(receiver.url)).toBeVisible()
    await expect(endpoint.getByText('payment.succeeded, invoice.paid')).toBeVisible()

    // The key reaches the same endpoint without the browser's session.
    const server = await playwrightRequest.newContext({ baseURL })
    const listed = await server.get('/api/webhooks', { headers: { Authorization: `Bearer ${apiKey}` } })
    expect(listed.status(), await listed.text()).toBe(200)
    expect(((await listed.json()) as { data: { url: string }[] }).data.map((item) => item.url)).toEqual([
      receiver.url,
    ])
    await server.dispose()

    // A test event: the log shows it delivered with the receiver's 200.
    await endpoint.getByRole('button', { name: 'Send test event' }).click()
    await expect(section.getByText(`Test event sent to ${receiver.url}.`)).toBeVisible()
    const log = endpoint.getByRole('list', { name: `Deliveries to ${receiver.url}` })
    const delivery = log.getByRole('listitem', { name: /^webhook\.test,/ })
    await expect(delivery.getByText('Delivered')).toBeVisible({ timeout: 20_000 })
    await expect(delivery.getByText(/HTTP 200 · \d+ ms · 1 try/)).toBeVisible()
    expect(receiver.received).toHaveLength(1)
    const [first] = receiver.received
    if (first === undefined) throw new Error('the receiver got nothing')
    expect(verifyWebhook(secret, first)).toMatchObject({ type: 'webhook.test' })
    // A wrong secret does not verify: the check above is a real one.
    expect(() => verifyWebhook(`whsec_${Buffer.from('not the secret').toString('base64')}`, first)).toThrow()

    // Redeliver: a second try with the same webhook-id, shown in the log.
    await delivery.getByRole('button', { name: 'Redeliver' }).click()
    await expect(delivery.getByText(/HTTP 200 · \d+ ms · 2 tries/)).toBeVisible({ timeout: 20_000 })
    await delivery.getByRole('button', { name: 'Details' }).click()
    const tries = delivery.getByRole('list', { name: 'Tries' }).getByRole('listitem')
    await expect(tries).toHaveCount(2)
    await expect(tries.first()).toContainText(/Try 2 · .* HTTP 200/)
    await expect(tries.first()).toContainText('received')
    expect(receiver.received).toHaveLength(2)
    const [, second] = receiver.received
    if (second === undefined) throw new Error('the receiver got no second request')
    expect(verifyWebhook(secret, second)).toMatchObject({ type: 'webhook.test' })
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id'])
    expect(second.body).toBe(first.body)

    // The section at a phone's width and a desktop's, light and dark, for a person to look at.
    for (const viewport of screenViewports) {
      await page.setViewportSize({ width: viewport.width, height: viewport.height })
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
        await expect(page.locator('html')).toHaveClass(colorScheme === 'dark' ? /dark/ : /^(?!.*dark)/)
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        expect(overflow, `horizontal overflow at ${viewport.name} in ${colorScheme}`).toBeLessThanOrEqual(0)
        await expectNoSeriousAxeViolations(page)
        // A full-page shot clipped to the section: the fixed header and tab bar stay off it.
        await page.evaluate(() => window.scrollTo(0, 0))
        const box = await section.boundingBox()
        if (box === null) throw new Error('the Webhooks section is not on the page')
        await page.screenshot({
          path: join(
            import.meta.dirname,
            '..',
            '.artifacts',
            'screens',
            `webhooks-${viewport.name}-${colorScheme}.png`,
          ),
          fullPage: true,
          clip: box,
        })
        // The 'Add endpoint' dialog over it (a bottom sheet on the phone).
        await section.getByRole('button', { name: 'Add endpoint' }).click()
        await expect(page.getByRole('dialog', { name: 'Add endpoint' })).toBeVisible()
        await checkScreen(page, `webhooks-add-${viewport.name}-${colorScheme}`, { fullPage: false })
        await page.keyboard.press('Escape')
        await expect(page.getByRole('dialog', { name: 'Add endpoint' })).toBeHidden()
      }
    }
  } finally {
    await receiver.close()
  }
})
