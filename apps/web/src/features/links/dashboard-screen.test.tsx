import { onlineManager, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  clearCookies,
  type RecordedRequest,
  sendJson,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../../../test/test-server'
import { createQueryClient } from '../../app/query-client'
import { api } from '../../lib/api-client'
import { listOfflineRequests, startOfflineReplay } from '../../lib/offline-queue'
import { DashboardScreen } from './dashboard-screen'
import type { Link } from './link'
import { useLinkStore } from './link-store'

const userId = '9b2f8a43-5a0c-4c51-9b35-3f8e6f1c2d7a'
const idA = '1f0c3a55-8b8e-4d2a-9a61-0d7f6f0c1a01'
const idB = '1f0c3a55-8b8e-4d2a-9a61-0d7f6f0c1a02'

function buildLink(id: string, alias: string): Link {
  return {
    id,
    link_type: 'Crypto Payment Page',
    alias,
    alias_slug: alias.toLowerCase(),
    receiver_address: '0x1111111111111111111111111111111111111111',
    chain: 'base',
    chain_id: 8453,
    token_name: 'USDC',
    token_address: '0x00000000000000000000000000000000000000c1',
    message: '',
    amount: null,
    account_type: 'personal',
    enabled: true,
    favorite: false,
    notify_payments: true,
    settings: '{}',
    idempotency_key: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  }
}

let server: TestServer
let online = true
let serverLinks: Link[] = []
/** When set, the server answers every PUT with this status and message. */
let failPuts: { status: number; message: string } | null = null
const stops: Array<() => void> = []

const linkWrites = () =>
  server.requests
    .filter((request: RecordedRequest) => request.method === 'PUT' || request.method === 'DELETE')
    .map((request) => `${request.method} ${request.path}`)

function setOnline(value: boolean) {
  online = value
  window.dispatchEvent(new Event(value ? 'online' : 'offline'))
}

function renderDashboard() {
  const queryClient = createQueryClient()
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <DashboardScreen />
      </MemoryRouter>
    </QueryClientProvider>,
  )
}

const card = (alias: string) => screen.getByRole('article', { name: alias })

beforeAll(async () => {
  server = await startTestServer()
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online })
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  online = true
  onlineManager.setOnline(true)
  failPuts = null
  serverLinks = [buildLink(idA, 'Alpha'), buildLink(idB, 'Beta')]
  useLinkStore.getState().clear()
  setPageUrl(`${server.origin}/dashboard`)
  clearCookies()
  server.requests.length = 0
  server.handle((request, response) => {
    const id = request.path.split('/')[3]
    if (request.path === '/health') {
      sendJson(response, 200, {}, { 'Set-Cookie': 'csrf_token=token-1; Path=/' })
    } else if (request.path === '/api/auth/me') {
      sendJson(response, 200, {
        data: {
          id: userId,
          address: '0xabc',
          email: null,
          username: null,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      })
    } else if (request.method === 'GET' && request.path === '/api/links') {
      sendJson(response, 200, { data: serverLinks })
    } else if (request.method === 'PUT' && failPuts !== null) {
      sendJson(response, failPuts.status, { error: { code: 'UPSTREAM_FAILED', message: failPuts.message } })
    } else if (request.method === 'PUT') {
      const changes = JSON.parse(request.body) as Partial<Link>
      serverLinks = serverLinks.map((link) =>
        link.id === id ? { ...link, favorite: changes.favorite ?? link.favorite } : link,
      )
      sendJson(response, 200, { data: serverLinks.find((link) => link.id === id) })
    } else if (request.method === 'DELETE') {
      const exists = serverLinks.some((link) => link.id === id)
      serverLinks = serverLinks.filter((link) => link.id !== id)
      if (exists) sendJson(response, 200, { data: { id } })
      else sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Link not found' } })
    } else {
      sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found' } })
    }
  })
  // As main.tsx does: replay on 'online' (and at once when something is queued and the browser is online).
  stops.push(startOfflineReplay(() => api.replayOfflineQueue()))
})
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
  onlineManager.setOnline(true)
})

async function queueFavoriteAndDelete() {
  const user = userEvent.setup()
  renderDashboard()
  await screen.findByRole('article', { name: 'Alpha' })
  setOnline(false)
  expect(
    await screen.findByText(/You are offline\. Changes to your links are saved on this device/),
  ).toBeTruthy()

  await user.click(within(card('Alpha')).getByRole('button', { name: 'Add to favorites' }))
  await user.click(within(card('Beta')).getByRole('button', { name: 'More actions for Beta' }))
  await user.click(await screen.findByRole('menuitem', { name: 'Delete' }))
  await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }))
  return user
}

// Each test renders the dashboard and goes through a real HTTP server: a few seconds on a loaded runner.
describe('the dashboard offline', { timeout: 20_000 }, () => {
  it('queues a favorite and a delete made offline, shows both pending, and replays them in order once online', async () => {
    await queueFavoriteAndDelete()

    // Nothing reached the server; the favorite shows toggled and pending, the delete pending deletion.
    await waitFor(() => expect(within(card('Beta')).getByText('Pending deletion')).toBeTruthy())
    expect(
      within(card('Alpha'))
        .getByRole('button', { name: 'Remove from favorites' })
        .getAttribute('aria-pressed'),
    ).toBe('true')
    expect(within(card('Alpha')).getByText('Pending sync')).toBeTruthy()
    // A link waiting to be deleted cannot be changed meanwhile.
    expect(within(card('Beta')).getByRole('button', { name: 'Add to favorites' })).toHaveProperty(
      'disabled',
      true,
    )
    expect(linkWrites()).toEqual([])
    expect(listOfflineRequests().map(({ request }) => `${request.method} ${request.path}`)).toEqual([
      `PUT /api/links/${idA}`,
      `DELETE /api/links/${idB}`,
    ])

    setOnline(true)

    await waitFor(() => expect(screen.queryByRole('article', { name: 'Beta' })).toBeNull())
    await waitFor(() => expect(within(card('Alpha')).queryByText('Pending sync')).toBeNull())
    expect(within(card('Alpha')).getByRole('button', { name: 'Remove from favorites' })).toBeTruthy()
    expect(linkWrites()).toEqual([`PUT /api/links/${idA}`, `DELETE /api/links/${idB}`])
    expect(serverLinks.map((link) => [link.alias, link.favorite])).toEqual([['Alpha', true]])
    expect(listOfflineRequests()).toEqual([])
  })

  it('shows queued writes again after a reload and replays them on load', async () => {
    await queueFavoriteAndDelete()
    await waitFor(() => expect(listOfflineRequests()).toHaveLength(2))
    for (const stop of stops.splice(0)) stop()

    // A reload: a fresh page and query cache; only localStorage is left. The pending state is
    // back from the queue before any replay.
    cleanup()
    online = true
    onlineManager.setOnline(true)
    renderDashboard()
    await waitFor(() => expect(within(card('Beta')).getByText('Pending deletion')).toBeTruthy())
    expect(within(card('Alpha')).getByText('Pending sync')).toBeTruthy()
    expect(within(card('Alpha')).getByRole('button', { name: 'Remove from favorites' })).toBeTruthy()
    expect(linkWrites()).toEqual([])

    // main.tsx starts the replay on load: the browser is online and something is queued.
    stops.push(startOfflineReplay(() => api.replayOfflineQueue()))
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Beta' })).toBeNull())
    expect(listOfflineRequests()).toEqual([])
    expect(linkWrites()).toEqual([`PUT /api/links/${idA}`, `DELETE /api/links/${idB}`])
    expect(serverLinks.map((link) => [link.alias, link.favorite])).toEqual([['Alpha', true]])
  })

  it('keeps a write whose replay fails queued, says why on its card, and syncs it on Sync now', async () => {
    const user = userEvent.setup()
    renderDashboard()
    await screen.findByRole('article', { name: 'Alpha' })
    setOnline(false)
    await user.click(within(card('Alpha')).getByRole('button', { name: 'Add to favorites' }))
    await waitFor(() => expect(within(card('Alpha')).getByText('Pending sync')).toBeTruthy())

    failPuts = { status: 503, message: 'The server is busy. Try again.' }
    setOnline(true)

    const alert = await within(card('Alpha')).findByRole('alert')
    expect(alert.textContent).toContain('Not synced: The server is busy. Try again.')
    expect(listOfflineRequests().map(({ request }) => request.lastError)).toEqual([
      'The server is busy. Try again.',
    ])
    expect(within(card('Alpha')).getByRole('button', { name: 'Remove from favorites' })).toBeTruthy()
    expect(serverLinks[0]?.favorite).toBe(false)

    failPuts = null
    await user.click(within(card('Alpha')).getByRole('button', { name: 'Sync now' }))

    await waitFor(() => expect(listOfflineRequests()).toEqual([]))
    await waitFor(() => expect(within(card('Alpha')).queryByRole('alert')).toBeNull())
    expect(serverLinks[0]?.favorite).toBe(true)
  })

  it('drops a failed write on Discard and shows the server’s link again', async () => {
    const user = userEvent.setup()
    renderDashboard()
    await screen.findByRole('article', { name: 'Alpha' })
    setOnline(false)
    await user.click(within(card('Alpha')).getByRole('button', { name: 'Add to favorites' }))
    failPuts = { status: 409, message: 'Conflict.' }
    setOnline(true)
    await within(card('Alpha')).findByRole('alert')

    await user.click(within(card('Alpha')).getByRole('button', { name: 'Discard' }))

    expect(listOfflineRequests()).toEqual([])
    await waitFor(() =>
      expect(
        within(card('Alpha')).getByRole('button', { name: 'Add to favorites' }).getAttribute('aria-pressed'),
      ).toBe('false'),
    )
    expect(within(card('Alpha')).queryByRole('alert')).toBeNull()
  })

  it("opens Create invoice from a link's menu, by keyboard too", async () => {
    const user = userEvent.setup()
    renderDashboard()
    await screen.findByRole('article', { name: 'Alpha' })
    within(card('Alpha')).getByRole('button', { name: 'More actions for Alpha' }).focus()
    await user.keyboard('{Enter}')
    const item = await screen.findByRole('menuitem', { name: 'Create invoice' })
    item.focus()
    await user.keyboard('{Enter}')
    const dialog = await screen.findByRole('dialog', { name: 'Create invoice' })
    expect(within(dialog).getByRole('textbox', { name: /^Amount/ })).toBeTruthy()
  })
})
