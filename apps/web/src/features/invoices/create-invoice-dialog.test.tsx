import type { Invoice } from '@quicklinks/core/api/invoices'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  type RecordedRequest,
  sendJson,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../../../test/test-server'
import { CreateInvoiceDialog } from './create-invoice-dialog'

const link = {
  id: '7c1e2b4a-9d3f-4e5a-8b6c-0d1e2f3a4b5c',
  alias: 'Coffee Fund',
  token_name: 'USDC',
  amount: null,
}
const invoiceUrl = 'http://localhost/pay/coffee-fund/inv_AAAAAAAAAAAAAAAAAAAAAA'

function invoiceAnswer(body: Record<string, unknown>): Invoice {
  const now = new Date().toISOString()
  return {
    id: 'inv_AAAAAAAAAAAAAAAAAAAAAA',
    linkId: link.id,
    state: 'open',
    amount: String(body.amount),
    amountPaid: '0',
    toleranceBps: Number(body.toleranceBps ?? 0),
    token: {
      chainId: 8453,
      address: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
      symbol: 'USDC',
      decimals: 6,
    },
    receiverAddress: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    reference: (body.reference as string | null) ?? null,
    memo: (body.memo as string | null) ?? null,
    expiresAt: new Date(Date.now() + Number(body.expiresInSeconds) * 1000).toISOString(),
    monitorUntil: now,
    paidAt: null,
    createdAt: now,
    updatedAt: now,
    url: invoiceUrl,
  }
}

let server: TestServer
const posts: RecordedRequest[] = []

beforeAll(async () => {
  server = await startTestServer((request, response) => {
    if (request.path === '/health') {
      response.writeHead(200, {
        'Set-Cookie': 'csrf_token=t0k3n; Path=/',
        'Content-Type': 'application/json',
      })
      response.end('{}')
    } else if (request.method === 'POST' && request.path === `/api/links/${link.id}/invoices`) {
      posts.push(request)
      const body = JSON.parse(request.body) as Record<string, unknown>
      if (body.amount === '999999') {
        sendJson(response, 422, {
          error: {
            code: 'VALIDATION_FAILED',
            message: 'amount has more decimals than USDC has (6).',
            field: 'amount',
          },
        })
      } else sendJson(response, 201, { data: invoiceAnswer(body) })
    } else sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
  })
  setPageUrl(`${server.origin}/dashboard`)
})

afterEach(() => {
  posts.length = 0
})

afterAll(async () => {
  await server.close()
})

function renderDialog(withLink: typeof link | (Omit<typeof link, 'amount'> & { amount: string }) = link) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  })
  return render(
    <QueryClientProvider client={client}>
      <CreateInvoiceDialog link={withLink} open onOpenChange={() => undefined} />
    </QueryClientProvider>,
  )
}

describe('Create invoice', () => {
  it('posts the form with the CSRF header and shows the invoice link with a copy button', async () => {
    const user = userEvent.setup()
    renderDialog()
    const dialog = screen.getByRole('dialog', { name: 'Create invoice' })
    await user.type(within(dialog).getByRole('textbox', { name: 'Amount (USDC)' }), '12.5')
    await user.type(within(dialog).getByRole('textbox', { name: 'Reference (optional)' }), 'Order #1042')
    await user.type(within(dialog).getByRole('textbox', { name: 'Memo (optional)' }), 'Two bags of beans')
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Expires in' }), '24 hours')
    await user.type(within(dialog).getByRole('textbox', { name: 'Tolerance (%)' }), '0.5')
    await user.click(within(dialog).getByRole('button', { name: 'Create invoice' }))

    const created = await screen.findByRole('dialog', { name: 'Invoice created' })
    expect(within(created).getByRole('textbox', { name: 'Invoice link' })).toHaveProperty('value', invoiceUrl)
    expect(within(created).getByRole('button', { name: 'Copy invoice link' })).toBeTruthy()
    expect(within(created).getByText('12.5 USDC')).toBeTruthy()
    expect(posts).toHaveLength(1)
    expect(posts[0]?.headers['x-csrf-token']).toBe('t0k3n')
    expect(JSON.parse(posts[0]?.body ?? '{}')).toEqual({
      amount: '12.5',
      reference: 'Order #1042',
      memo: 'Two bags of beans',
      expiresInSeconds: 86_400,
      toleranceBps: 50,
    })
  })

  it("starts from the link's amount, and sends nothing while a field is wrong", async () => {
    const user = userEvent.setup()
    renderDialog({ ...link, amount: '3' })
    const amount = screen.getByRole('textbox', { name: 'Amount (USDC)' })
    expect(amount).toHaveProperty('value', '3')
    await user.clear(amount)
    await user.type(amount, '0')
    await user.type(screen.getByRole('textbox', { name: 'Tolerance (%)' }), '200')
    await user.click(screen.getByRole('button', { name: 'Create invoice' }))
    expect(screen.getByText('Amount must be more than zero.')).toBeTruthy()
    expect(
      screen.getByText('Tolerance must be a percentage from 0 to 100 (at most two decimals).'),
    ).toBeTruthy()
    expect(posts).toHaveLength(0)
  })

  it("shows the server's refusal beside the field it names", async () => {
    const user = userEvent.setup()
    renderDialog()
    await user.type(screen.getByRole('textbox', { name: 'Amount (USDC)' }), '999999')
    await user.click(screen.getByRole('button', { name: 'Create invoice' }))
    expect(await screen.findByText('amount has more decimals than USDC has (6).')).toBeTruthy()
    expect(screen.getByRole('dialog', { name: 'Create invoice' })).toBeTruthy()
  })
})
