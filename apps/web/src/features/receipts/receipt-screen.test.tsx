import {
  receiptDomain,
  receiptPrimaryType,
  receiptTypes,
  type SignedReceipt,
  toReceiptMessageJson,
} from '@quicklinks/core/api/receipts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  sendJson,
  setPageCookie,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../../../test/test-server'
import { ReceiptScreen } from './receipt-screen'

const signer = privateKeyToAccount(`0x${'5a'.repeat(32)}`)
const intentId = `0x${'12'.repeat(32)}`
const pendingId = `0x${'34'.repeat(32)}`
const message = {
  linkId: '7c1e2b4a-9d3f-4e5a-8b6c-0d1e2f3a4b5c',
  invoiceId: '',
  receiver: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  destinationChainId: 8453n,
  destinationToken: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  amountReceived: 12_500_000n,
  sourceChainId: 8453n,
  sourceTxHash: `0x${'ab'.repeat(32)}`,
  destinationTxHash: `0x${'cd'.repeat(32)}`,
  payer: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  issuedAt: 1_790_000_000n,
} as const
let tampered: SignedReceipt
let server: TestServer

beforeAll(async () => {
  const signature = await signer.signTypedData({
    domain: receiptDomain,
    types: receiptTypes,
    primaryType: receiptPrimaryType,
    message,
  })
  // The amount doubled after signing: the page must refuse it before asking any chain.
  tampered = {
    domain: { ...receiptDomain },
    types: { Receipt: receiptTypes.Receipt.map((field) => ({ ...field })) },
    primaryType: receiptPrimaryType,
    message: toReceiptMessageJson({ ...message, amountReceived: 25_000_000n }),
    signature,
    signer: signer.address,
  }
  server = await startTestServer((request, response) => {
    if (request.path === `/api/receipts/${intentId}`) sendJson(response, 200, { data: tampered })
    else if (request.path === `/api/receipts/${pendingId}`)
      sendJson(response, 409, {
        error: {
          code: 'CONFLICT',
          message:
            'This payment is not verified yet: its receipt is issued once the payment is final on chain.',
        },
      })
    else if (request.path === '/health')
      sendJson(response, 200, { status: 'ok' }, { 'Set-Cookie': `csrf_token=${'c'.repeat(43)}; Path=/` })
    else if (request.path === `/api/receipts/${intentId}/email`)
      sendJson(response, 202, { data: { queued: true } })
    else if (request.path === '/api/config') sendJson(response, 200, { data: { routingProvider: 'local' } })
    else sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
  })
  setPageUrl(`${server.origin}/pay/receipt/${intentId}`)
})

afterAll(async () => {
  await server.close()
})

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const router = createMemoryRouter([{ path: '/pay/receipt/:intentId', element: <ReceiptScreen /> }], {
    initialEntries: [path],
  })
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
}

describe('receipt page', () => {
  it('shows who received what from whom, and says "Signature invalid" for an edited receipt without asking a chain', async () => {
    renderAt(`/pay/receipt/${intentId}`)
    expect(await screen.findByRole('heading', { name: 'Payment receipt' })).toBeTruthy()
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      expect.stringContaining(`Signature invalid: this receipt was not signed by ${signer.address}.`),
    )
    expect(screen.getByText('Received by')).toBeTruthy()
    expect(screen.getByText('0x7099…79C8')).toBeTruthy()
    expect(screen.queryByText('Verified against the chain')).toBeNull()
    expect(server.requests.some((request) => request.path.startsWith('/api/receipts/rpc/'))).toBe(false)
  })

  it('says a payment is not verified yet while its receipt answers 409', async () => {
    renderAt(`/pay/receipt/${pendingId}`)
    expect(await screen.findByText(/not verified yet/)).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy()
  })

  it('sends the payer a copy with "E-mail me a receipt", with the CSRF header', async () => {
    const user = userEvent.setup()
    setPageCookie('csrf_token', 'c'.repeat(43))
    renderAt(`/pay/receipt/${intentId}`)
    const field = await screen.findByLabelText('E-mail me a receipt')
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(await screen.findByText('Enter an e-mail address.')).toBeTruthy()
    await user.type(field, 'payer@example.com')
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(await screen.findByText('Sent. Check your inbox in a minute.')).toBeTruthy()
    const posted = server.requests.find((request) => request.path === `/api/receipts/${intentId}/email`)
    expect(JSON.parse(posted?.body ?? '{}')).toEqual({ email: 'payer@example.com' })
    expect(posted?.headers['x-csrf-token']).toBe('c'.repeat(43))
  }, 15_000)
})
