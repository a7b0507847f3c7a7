import { payPageDataElementId } from '@quicklinks/core/api/pay-page-data'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { sendJson, setPageUrl, startTestServer, type TestServer } from '../../../test/test-server'
import { PayScreen } from './pay-screen'

const link = {
  id: '7c1e2b4a-9d3f-4e5a-8b6c-0d1e2f3a4b5c',
  link_type: 'Payment Link',
  alias: 'Coffee Fund',
  alias_slug: 'coffee-fund',
  receiver_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  chain: 'base',
  chain_id: 8453,
  token_name: 'USDC',
  token_address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  message: 'Thanks for supporting!',
  enabled: true,
}

let server: TestServer

beforeAll(async () => {
  server = await startTestServer((request, response) => {
    if (request.path === '/api/pay/links/coffee-fund') sendJson(response, 200, { data: link })
    else if (request.path === '/api/config') sendJson(response, 200, { data: { routingProvider: 'local' } })
    else if (request.path === '/api/local/chains')
      sendJson(response, 503, { error: { code: 'UNAVAILABLE', message: 'x' } })
    else sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
  })
  setPageUrl(`${server.origin}/pay/coffee-fund`)
})

afterAll(async () => {
  await server.close()
})

afterEach(() => {
  document.getElementById(payPageDataElementId)?.remove()
})

/** Puts `text` in the page as the server's link data block. */
function embedText(text: string) {
  document.getElementById(payPageDataElementId)?.remove()
  const element = document.createElement('script')
  element.type = 'application/json'
  element.id = payPageDataElementId
  element.textContent = text
  document.head.append(element)
}

/** How many times the page asked GET /api/pay/links/{slug}. */
function askedForLinks(): number {
  return server.requests.filter((request) => request.path.startsWith('/api/pay/links/')).length
}

function embedLink(embedded: typeof link) {
  embedText(JSON.stringify({ data: embedded }))
}

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const router = createMemoryRouter([{ path: '/pay/:alias_slug', element: <PayScreen /> }], {
    initialEntries: [path],
  })
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
}

describe('pay page', () => {
  it('shows the link and opens the wallet step of the modal with Pay', async () => {
    const user = userEvent.setup()
    renderAt('/pay/coffee-fund')
    expect(await screen.findByRole('heading', { name: 'Coffee Fund' })).toBeTruthy()
    expect(screen.getByText('Thanks for supporting!')).toBeTruthy()
    expect(screen.getByText('0x7099…79C8')).toBeTruthy()
    expect(screen.getByText('USDC on Base')).toBeTruthy()
    expect(screen.queryByRole('dialog')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Pay' }))
    // The chain list failed, so the modal falls back to the link's own chain and still offers wallets.
    expect(await screen.findByRole('dialog', { name: 'Select Your Wallet' }, { timeout: 5000 })).toBeTruthy()
    expect(await screen.findByRole('searchbox', { name: 'Search wallets…' })).toBeTruthy()
  }, 15_000)

  it("paints the link the server put in the page's HTML without asking the API", async () => {
    embedLink({ ...link, message: 'From the page itself' })
    const before = askedForLinks()
    renderAt('/pay/Coffee-Fund')
    expect(await screen.findByRole('heading', { name: 'Coffee Fund' })).toBeTruthy()
    expect(screen.getByText('From the page itself')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Pay' })).toBeTruthy()
    expect(askedForLinks()).toBe(before)
  })

  it("asks the API when the page's link is another one or not a link", async () => {
    const otherLink = JSON.stringify({ data: { ...link, alias_slug: 'other-jar', message: 'Not this one' } })
    for (const text of [otherLink, '{"data":{"id":1}}', '{']) {
      embedText(text)
      const before = askedForLinks()
      const view = renderAt('/pay/coffee-fund')
      expect(await screen.findByText('Thanks for supporting!')).toBeTruthy()
      expect(screen.queryByText('Not this one')).toBeNull()
      expect(askedForLinks()).toBe(before + 1)
      view.unmount()
    }
  })

  it('says an unknown link is unavailable', async () => {
    renderAt('/pay/nobody')
    expect(await screen.findByRole('heading', { name: 'This link is unavailable' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Pay' })).toBeNull()
  })
})
