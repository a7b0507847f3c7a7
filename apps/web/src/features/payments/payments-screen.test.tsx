import type { Payment } from '@quicklinks/core/api/payments'
import { QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  clearCookies,
  sendJson,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../../../test/test-server'
import { createQueryClient } from '../../app/query-client'
import { PaymentsScreen } from './payments-screen'

const linkA = '1f0c3a55-8b8e-4d2a-9a61-0d7f6f0c1a01'
const usdc = { address: '0x00000000000000000000000000000000000000c1', symbol: 'USDC', decimals: 6 }

function buildPayment(index: number, overrides: Partial<Payment> = {}): Payment {
  const hex = (fill: string) => `0x${String(index).padStart(64, fill)}`
  return {
    intentId: hex('1'),
    linkId: linkA,
    linkName: 'Alpha',
    invoiceId: null,
    state: 'success',
    payer: `0x${String(index).padStart(40, 'a')}`,
    sourceChainId: 43114,
    sourceTxHash: hex('b'),
    sourceTxUrl: `https://explorer.test/tx/${hex('b')}`,
    fromToken: { ...usdc, symbol: 'USDT' },
    amountIn: '3',
    destChainId: 8453,
    destTxHash: hex('c'),
    destTxUrl: `https://explorer.test/tx/${hex('c')}`,
    toToken: usdc,
    amountReceived: '2.990999',
    routeKind: 'bridge',
    provider: 'local',
    createdAt: '2026-01-02T10:00:00.000Z',
    completedAt: '2026-01-02T10:01:00.000Z',
    ...overrides,
  }
}

let server: TestServer

function renderAt(path: string) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <PaymentsScreen />
      </MemoryRouter>
    </QueryClientProvider>,
  )
}

const paymentRequests = () =>
  server.requests.filter((request) => request.path.startsWith('/api/payments')).map((request) => request.path)

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  setPageUrl(`${server.origin}/dashboard/payments`)
  clearCookies()
  server.requests.length = 0
  server.handle((request, response) => {
    const url = new URL(request.path, server.origin)
    if (url.pathname === '/api/links') {
      sendJson(response, 200, { data: [] })
    } else if (url.pathname === '/api/payments' && url.searchParams.get('cursor') === 'page-2') {
      sendJson(response, 200, {
        data: [
          buildPayment(2, { state: 'bridging', amountReceived: null, destTxHash: null, destTxUrl: null }),
        ],
        nextCursor: null,
        totals: [],
      })
    } else if (url.pathname === '/api/payments') {
      sendJson(response, 200, {
        data: [buildPayment(1)],
        nextCursor: 'page-2',
        totals: [{ chainId: 8453, token: usdc.address, symbol: 'USDC', amount: '2.990999' }],
      })
    } else {
      sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found' } })
    }
  })
})
afterEach(() => {
  cleanup()
})

describe('PaymentsScreen', () => {
  it('lists each payment with what arrived, its route, payer and both explorer links, totals, and loads more', async () => {
    renderAt('/dashboard/payments')
    const list = await screen.findByRole('list', { name: 'Payments' })
    const first = within(list).getByRole('article')
    expect(within(first).getByText('2.990999 USDC')).toBeTruthy()
    expect(within(first).getByText('Received')).toBeTruthy()
    expect(within(first).getByText('Bridge · paid 3 USDT')).toBeTruthy()
    expect(within(first).getByText('0xaaaa…aaa1')).toBeTruthy()
    const source = within(first).getByRole('link', { name: /^Source tx 0xbbbb…bbb1/ })
    expect(source.getAttribute('href')).toBe(`https://explorer.test/tx/0x${'1'.padStart(64, 'b')}`)
    expect(within(first).getByRole('link', { name: /^Destination tx/ })).toBeTruthy()
    expect(
      within(screen.getByRole('region', { name: 'Totals received' })).getByText('2.990999 USDC'),
    ).toBeTruthy()

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }))
    expect(await within(list).findByText('Not received yet')).toBeTruthy()
    expect(within(list).getAllByRole('article')).toHaveLength(2)
    expect(within(list).getByText('Bridging')).toBeTruthy()
    expect(paymentRequests()).toEqual(['/api/payments', '/api/payments?cursor=page-2'])
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
  })

  it('asks for the chosen state and dates, and downloads the CSV of the same filters', async () => {
    renderAt('/dashboard/payments')
    await screen.findByRole('list', { name: 'Payments' })
    await userEvent.selectOptions(screen.getByLabelText('State'), 'success')
    const from = screen.getByLabelText('From')
    await userEvent.type(from, '2026-01-01')
    await screen.findByRole('list', { name: 'Payments' })
    expect(paymentRequests()).toContain('/api/payments?state=success&from=2026-01-01')
    const download = screen.getByRole('link', { name: 'Download CSV' })
    expect(download.getAttribute('href')).toBe('/api/payments/export.csv?state=success&from=2026-01-01')
    expect(download.hasAttribute('download')).toBe(true)
  })

  it("shows one link's payments when opened from its card (?link=)", async () => {
    renderAt(`/dashboard/payments?link=${linkA}`)
    await screen.findByRole('list', { name: 'Payments' })
    expect(paymentRequests()[0]).toBe(`/api/payments?linkId=${linkA}`)
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
      `/api/payments/export.csv?linkId=${linkA}`,
    )
  })
})
