import type { Page } from '@playwright/test'
import { linkCard } from '../fixtures/links.ts'
import { checkScreen, screenViewports } from '../fixtures/screens.ts'
import { createLinkThroughApi } from '../fixtures/share-links.ts'
import { getSessionUser, openAuthModal, signInThroughApi } from '../fixtures/sign-in.ts'
import { expect, test } from '../fixtures/test.ts'

/**
 * The offline queue on the real stack (docs/product.md#offline-queue): link writes made while the
 * browser is offline (Playwright's context.setOffline) are kept in localStorage under
 * 'offline-{timestamp}', shown pending on their cards and replayed in order once back online; a
 * failed replay stays queued and says so; one user's queued writes are never sent once another is
 * signed in. Payments and sign-in are never queued and say so offline.
 * The pending and failed cards are checked at phone and desktop widths, light and dark.
 */

type ServerLink = { id: string; alias: string; favorite: boolean }

/** The links the server holds for the page's user (Playwright's request client is not taken offline). */
async function listServerLinks(page: Page): Promise<ServerLink[]> {
  const response = await page.request.get('/api/links')
  expect(response.status(), 'GET /api/links').toBe(200)
  return ((await response.json()) as { data: ServerLink[] }).data
}

/** The queued writes as the page stores them, oldest first: 'METHOD path'. */
async function listQueuedWrites(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => /^offline-\d+$/.test(key))
      .sort((left, right) => Number(left.slice(8)) - Number(right.slice(8)))
      .map((key) => {
        const request = JSON.parse(localStorage.getItem(key) ?? '{}') as { method: string; path: string }
        return `${request.method} ${request.path}`
      }),
  )
}

/** Records the link writes the page sends, in order. */
function recordLinkWrites(page: Page): string[] {
  const writes: string[] = []
  page.on('request', (request) => {
    const { pathname } = new URL(request.url())
    if (pathname.startsWith('/api/links/') && ['PUT', 'DELETE'].includes(request.method())) {
      writes.push(`${request.method()} ${pathname}`)
    }
  })
  return writes
}

test.describe('link writes offline', () => {
  test.beforeEach(async ({ page, signedInUser: _signedInUser }) => {
    // The beta banner is tested on its own; here it would cover the cards.
    await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
    await page.goto('/dashboard')
    await expect(page.getByRole('heading', { name: 'Links', level: 1 })).toBeVisible()
  })

  test('a favorite and a delete made offline are queued, shown pending, and replayed in order once online', async ({
    page,
    context,
  }) => {
    const { address } = await getSessionUser(page)
    const kept = await createLinkThroughApi(page, `Kept ${Date.now()}`, address)
    const gone = await createLinkThroughApi(page, `Gone ${Date.now()}`, address)
    await page.reload()
    const keptCard = linkCard(page, kept.alias)
    const goneCard = linkCard(page, gone.alias)
    await expect(keptCard).toBeVisible()
    await expect(goneCard).toBeVisible()

    await context.setOffline(true)
    await expect(
      page.getByText(/^You are offline\. Changes to your links are saved on this device/),
    ).toBeVisible()
    await keptCard.getByRole('button', { name: 'Add to favorites' }).click()
    await expect(keptCard.getByRole('button', { name: 'Remove from favorites' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    await expect(keptCard.getByText('Pending sync')).toBeVisible()
    await goneCard.getByRole('button', { name: `More actions for ${gone.alias}` }).click()
    await page.getByRole('menuitem', { name: 'Delete' }).click()
    await page
      .getByRole('alertdialog', { name: 'Delete Link' })
      .getByRole('button', { name: 'Delete' })
      .click()
    await expect(goneCard.getByText('Pending deletion')).toBeVisible()
    // Waiting to be deleted, the link cannot be changed meanwhile.
    await expect(goneCard.getByRole('button', { name: 'Add to favorites' })).toBeDisabled()

    // Both are in localStorage, in the order they were made, and the server has seen neither.
    expect(await listQueuedWrites(page)).toEqual([
      `PUT /api/links/${kept.id}`,
      `DELETE /api/links/${gone.id}`,
    ])
    const before = await listServerLinks(page)
    expect(before.find((link) => link.id === kept.id)?.favorite).toBe(false)
    expect(before.some((link) => link.id === gone.id)).toBe(true)

    const writes = recordLinkWrites(page)
    await context.setOffline(false)

    await expect(goneCard).toBeHidden()
    await expect(keptCard.getByText('Pending sync')).toBeHidden()
    await expect(page.getByText(/^You are offline/)).toBeHidden()
    expect(writes).toEqual([`PUT /api/links/${kept.id}`, `DELETE /api/links/${gone.id}`])
    expect(await listQueuedWrites(page)).toEqual([])
    const after = await listServerLinks(page)
    expect(after.find((link) => link.id === kept.id)?.favorite).toBe(true)
    expect(after.some((link) => link.id === gone.id)).toBe(false)

    await page.reload()
    await expect(keptCard.getByRole('button', { name: 'Remove from favorites' })).toBeVisible()
    await expect(goneCard).toBeHidden()
  })

  test("user A's writes queued offline are never sent once user B is signed in on this browser", async ({
    page,
    context,
    baseURL,
  }) => {
    const userA = await getSessionUser(page)
    const link = await createLinkThroughApi(page, `Mine ${Date.now()}`, userA.address)
    await page.reload()
    const card = linkCard(page, link.alias)
    await expect(card).toBeVisible()

    await context.setOffline(true)
    await card.getByRole('button', { name: 'Add to favorites' }).click()
    await expect(card.getByText('Pending sync')).toBeVisible()
    expect(await listQueuedWrites(page)).toEqual([`PUT /api/links/${link.id}`])

    // Meanwhile user B signs in on this browser (another tab: the cookie jar is shared).
    if (baseURL === undefined) throw new Error('no baseURL')
    await signInThroughApi(context, baseURL)
    const userB = await getSessionUser(page)
    expect(userB.id).not.toBe(userA.id)

    const writes = recordLinkWrites(page)
    const sessionChecked = page.waitForResponse((response) => response.url().endsWith('/api/auth/me'))
    await context.setOffline(false)
    await sessionChecked
    // Until the replay has either sent A's write (into B's session) or dropped it.
    await expect.poll(async () => writes.length > 0 || (await listQueuedWrites(page)).length === 0).toBe(true)
    // It asked who is signed in, found B, and dropped A's write unsent.
    expect(writes).toEqual([])
    expect(await listQueuedWrites(page)).toEqual([])
    await expect(card.getByText('Pending sync')).toBeHidden()
  })

  test('a replay the server refuses stays queued, says why on the card, survives a reload and syncs on Sync now', async ({
    page,
    context,
  }) => {
    const { address } = await getSessionUser(page)
    const link = await createLinkThroughApi(page, `Busy ${Date.now()}`, address)
    await page.reload()
    const card = linkCard(page, link.alias)
    await expect(card).toBeVisible()

    await context.setOffline(true)
    await card.getByRole('button', { name: 'Add to favorites' }).click()
    await expect(card.getByText('Pending sync')).toBeVisible()

    // Back online, the server (a proxy in front of it, here) refuses the replayed update.
    await page.route('**/api/links/*', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({
              error: { code: 'UPSTREAM_FAILED', message: 'The server is busy. Try again.' },
            }),
          })
        : route.fallback(),
    )
    await context.setOffline(false)

    const alert = card.getByRole('alert')
    await expect(alert).toContainText('Not synced: The server is busy. Try again.')
    await expect(card.getByRole('button', { name: 'Remove from favorites' })).toBeVisible()
    expect(await listQueuedWrites(page)).toEqual([`PUT /api/links/${link.id}`])
    expect((await listServerLinks(page)).find((item) => item.id === link.id)?.favorite).toBe(false)

    // A reload replays on load, fails again, and still says so.
    await page.reload()
    await expect(card.getByRole('alert')).toContainText('Not synced: The server is busy. Try again.')

    await page.unroute('**/api/links/*')
    await card.getByRole('button', { name: 'Sync now' }).click()
    await expect(card.getByRole('alert')).toBeHidden()
    await expect(card.getByText('Pending sync')).toBeHidden()
    await expect(card.getByRole('button', { name: 'Remove from favorites' })).toBeVisible()
    expect(await listQueuedWrites(page)).toEqual([])
    expect((await listServerLinks(page)).find((item) => item.id === link.id)?.favorite).toBe(true)
  })

  test('offline, the pay modal says a payment needs a connection and nothing is queued', async ({
    page,
    context,
  }) => {
    const { address } = await getSessionUser(page)
    const link = await createLinkThroughApi(page, `Top ${Date.now()}`, address)
    await page.reload()
    // Opened online: the modal's code is loaded when it opens.
    await linkCard(page, link.alias).getByRole('button', { name: 'Top Up' }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole('alert')).toBeHidden()

    await context.setOffline(true)
    await expect(dialog.getByRole('alert')).toHaveText(
      'You are offline. Payments need a connection and are never saved for later: reconnect to continue.',
    )
    await context.setOffline(false)
    await expect(dialog.getByText(/^You are offline/)).toBeHidden()
    expect(await listQueuedWrites(page)).toEqual([])
  })
})

test('offline, the sign-in says it needs a connection', async ({ page, context }) => {
  const dialog = await openAuthModal(page)
  await expect(dialog.getByText(/^You are offline/)).toBeHidden()
  await context.setOffline(true)
  await expect(dialog.getByRole('alert')).toHaveText(
    'You are offline. Signing in needs a connection: reconnect and try again.',
  )
  await context.setOffline(false)
  await expect(dialog.getByText(/^You are offline/)).toBeHidden()
})

for (const viewport of screenViewports) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`pending and failed offline changes at ${viewport.name} width in ${colorScheme}`, async ({
      page,
      context,
      signedInUser: _signedInUser,
    }) => {
      const suffix = `${viewport.name}-${colorScheme}`
      await page.setViewportSize(viewport)
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
      await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
      const { address } = await getSessionUser(page)
      const tag = `${Date.now()}`.slice(-6)
      const favorite = await createLinkThroughApi(page, `Starred ${tag}`, address)
      const deleted = await createLinkThroughApi(page, `Removed ${tag}`, address)
      await page.goto('/dashboard')
      await expect(linkCard(page, deleted.alias)).toBeVisible()

      await context.setOffline(true)
      await linkCard(page, favorite.alias).getByRole('button', { name: 'Add to favorites' }).click()
      await linkCard(page, deleted.alias)
        .getByRole('button', { name: `More actions for ${deleted.alias}` })
        .click()
      await page.getByRole('menuitem', { name: 'Delete' }).click()
      await page
        .getByRole('alertdialog', { name: 'Delete Link' })
        .getByRole('button', { name: 'Delete' })
        .click()
      await expect(linkCard(page, deleted.alias).getByText('Pending deletion')).toBeVisible()
      await checkScreen(page, `links-offline-pending-${suffix}`)

      await page.route('**/api/links/*', (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({
            error: { code: 'UPSTREAM_FAILED', message: 'The server is busy. Try again.' },
          }),
        }),
      )
      await context.setOffline(false)
      await expect(linkCard(page, deleted.alias).getByRole('alert')).toContainText('Not synced')
      await expect(linkCard(page, favorite.alias).getByRole('alert')).toContainText('Not synced')
      await checkScreen(page, `links-offline-failed-${suffix}`)
    })
  }
}
