import type { InvoiceState, PublicInvoice } from '@quicklinks/core/api/invoices'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendJson, setPageUrl, startTestServer, type TestServer } from '../../../test/test-server'
import { InvoiceScreen } from './invoice-screen'

const usdc = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const link = {
  id: '7c1e2b4a-9d3f-4e5a-8b6c-0d1e2f3a4b5c',
  link_type: 'Payment Link',
  alias: 'Coffee Fund',
  alias_slug: 'coffee-fund',
  receiver_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  chain: 'base',
  chain_id: 8453,
  token_name: 'USDC',
  token_address: usdc,
  message: '',
  enabled: true,
}

const inThirtyMinutes = () => new Date(Date.now() + 30 * 60_000 - 500).toISOString()
const anHourAgo = () => new Date(Date.now() - 3_600_000).toISOString()

function invoice(id: string, state: InvoiceState, fields: Partial<PublicInvoice> = {}): PublicInvoice {
  return {
    id,
    linkId: link.id,
    linkSlug: 'coffee-fund',
    linkAlias: 'Coffee Fund',
    state,
    amount: '12.5',
    amountPaid: '0',
    amountDue: '12.5',
    token: { chainId: 8453, address: usdc, symbol: 'USDC', decimals: 6 },
    receiverAddress: link.receiver_address,
    memo: 'Order #1042: two bags of beans',
    expiresAt: inThirtyMinutes(),
    url: `http://localhost/pay/coffee-fund/${id}`,
    ...fields,
  }
}

const invoiceId = (name: string) => `inv_${name.padEnd(22, 'A')}`
const invoices: Record<string, () => PublicInvoice> = {
  [invoiceId('open')]: () => invoice(invoiceId('open'), 'open'),
  [invoiceId('partly')]: () =>
    invoice(invoiceId('partly'), 'processing', { amountPaid: '5', amountDue: '7.5' }),
  [invoiceId('paid')]: () => invoice(invoiceId('paid'), 'paid', { amountPaid: '12.5', amountDue: '0' }),
  [invoiceId('late')]: () =>
    invoice(invoiceId('late'), 'paid_late', { amountPaid: '12.5', amountDue: '0', expiresAt: anHourAgo() }),
  [invoiceId('under')]: () =>
    invoice(invoiceId('under'), 'underpaid', { amountPaid: '4', amountDue: '8.5', expiresAt: anHourAgo() }),
  [invoiceId('expired')]: () => invoice(invoiceId('expired'), 'expired', { expiresAt: anHourAgo() }),
  [invoiceId('other')]: () => invoice(invoiceId('other'), 'open', { linkSlug: 'tea-fund' }),
}

let server: TestServer

beforeAll(async () => {
  server = await startTestServer((request, response) => {
    const invoiceMatch = /^\/api\/pay\/invoices\/([^/?]+)$/.exec(request.path)
    const answer = invoiceMatch?.[1] === undefined ? undefined : invoices[invoiceMatch[1]]
    if (answer !== undefined) sendJson(response, 200, { data: answer() })
    else if (request.path === '/api/pay/links/coffee-fund') sendJson(response, 200, { data: link })
    else if (request.path === '/api/config') sendJson(response, 200, { data: { routingProvider: 'local' } })
    else sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
  })
  setPageUrl(`${server.origin}/pay/coffee-fund`)
})

afterAll(async () => {
  await server.close()
})

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const router = createMemoryRouter([{ path: '/pay/:alias_slug/:invoice_id', element: <InvoiceScreen /> }], {
    initialEntries: [path],
  })
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
}

describe('the invoice page', () => {
  it('shows the amount due, memo, countdown and state of an open invoice, and opens the modal with Pay', async () => {
    const user = userEvent.setup()
    renderAt(`/pay/coffee-fund/${invoiceId('open')}`)
    expect(await screen.findByRole('heading', { name: 'Coffee Fund' })).toBeTruthy()
    expect(screen.getByText('12.5 USDC')).toBeTruthy()
    expect(screen.getByText('on Base')).toBeTruthy()
    expect(screen.getByText('Order #1042: two bags of beans')).toBeTruthy()
    expect(screen.getByText('Open')).toBeTruthy()
    expect(screen.getByText(/^Expires in 29:5\d$/)).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Pay 12.5 USDC' }))
    expect(await screen.findByRole('dialog', { name: 'Select Your Wallet' }, { timeout: 5000 })).toBeTruthy()
  }, 15_000)

  it('offers the rest of a partly paid invoice', async () => {
    renderAt(`/pay/coffee-fund/${invoiceId('partly')}`)
    expect(await screen.findByText('5 of 12.5 USDC arrived; 7.5 USDC is left to pay.')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Pay 7.5 USDC' })).toBeTruthy()
  })

  const closed = [
    ['paid', 'This invoice is paid. Nothing more is due.'],
    ['late', 'This invoice was paid in full after it expired. Nothing more is due.'],
    ['under', 'This invoice expired with 4 of 12.5 USDC paid. Ask the receiver how to settle the rest.'],
    ['expired', 'This invoice expired before it was paid: ask for a new one.'],
  ] as const
  for (const [name, sentence] of closed) {
    it(`says so instead of offering to pay (${name})`, async () => {
      renderAt(`/pay/coffee-fund/${invoiceId(name)}`)
      expect(await screen.findByText(sentence)).toBeTruthy()
      expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull()
    })
  }

  it('reads an unknown invoice, or one of another link than the path names, as not found', async () => {
    const { unmount } = renderAt(`/pay/coffee-fund/${invoiceId('nobody')}`)
    expect(await screen.findByRole('heading', { name: 'This invoice does not exist' })).toBeTruthy()
    unmount()
    renderAt(`/pay/coffee-fund/${invoiceId('other')}`)
    expect(await screen.findByRole('heading', { name: 'This invoice does not exist' })).toBeTruthy()
  })
})
