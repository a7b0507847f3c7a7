import { buildRefundAddressMessage, type DepositResponse } from '@quicklinks/core/api/deposits'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes } from 'react-router'
import { getAddress, verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installRefundTestWallet } from '../../../test/refund-test-wallet'
import {
  type RecordedRequest,
  sendJson,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../../../test/test-server'
import { DepositStatusScreen } from './deposit-status-screen'

/**
 * The deposit's status page against a loopback API and an in-page EIP-1193 wallet: where a refund
 * goes, and the sender naming another refund address: another wallet is refused, the sender's
 * wallet signs the message the server checks, and the page shows the new address.
 */

const depositId = '4f0c2a5e-1b7d-4c3e-9a8f-0123456789ab'
/** Anvil's first account: a published test key, so the wallet can really sign. */
const senderAccount = privateKeyToAccount(
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
)
const sender = senderAccount.address
const stranger = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const newAddress = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

let refundTo: string = sender
const deposit = (): DepositResponse => ({
  id: depositId,
  address: `0x${'d1'.repeat(20)}`,
  expiresAt: '2026-11-28T09:00:00.000Z',
  amount: '10',
  linkToken: { chainId: 8453, address: `0x${'ba'.repeat(20)}`, symbol: 'USDC', decimals: 6 },
  invoiceId: null,
  refundAddress: null,
  state: 'open',
  chains: [
    {
      chainId: 43114,
      name: 'Avalanche',
      tokens: [
        {
          address: `0x${'5e'.repeat(20)}`,
          symbol: 'USDC',
          decimals: 6,
          uri: 'ethereum:x',
          amountUnits: null,
        },
      ],
    },
  ],
  transfers: [
    {
      chainId: 43114,
      token: `0x${'5e'.repeat(20)}`,
      amount: '2000000',
      txHash: `0x${'a1'.repeat(32)}`,
      state: 'detected',
      sender,
      refundTo,
      intentId: null,
      actionTxHash: null,
      gasCostWei: null,
      error: null,
      note: 'Less than the amount so far.',
    },
  ],
})

let server: TestServer
const posted: Record<string, string>[] = []

function handleApi(request: RecordedRequest, response: Parameters<Parameters<TestServer['handle']>[0]>[1]) {
  const path = request.path.split('?')[0] ?? ''
  if (path === '/health') {
    response.writeHead(200, { 'Set-Cookie': 'csrf_token=t; Path=/', 'Content-Type': 'application/json' })
    response.end('{}')
    return
  }
  if (path === '/api/config') return sendJson(response, 200, { data: { routingProvider: 'squid' } })
  if (path === '/api/squid/chains') return sendJson(response, 200, { data: [] })
  if (path === `/api/pay/deposits/${depositId}` && request.method === 'GET') {
    return sendJson(response, 200, { data: deposit() })
  }
  if (path === `/api/pay/deposits/${depositId}/refund-address` && request.method === 'POST') {
    const body = JSON.parse(request.body) as Record<string, string>
    posted.push(body)
    refundTo = body.refundAddress ?? refundTo
    return sendJson(response, 200, { data: deposit() })
  }
  sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
}

let wallet: ReturnType<typeof installRefundTestWallet>

beforeAll(async () => {
  server = await startTestServer(handleApi)
  setPageUrl(`${server.origin}/pay/deposits/${depositId}`)
  wallet = installRefundTestWallet({
    first: stranger,
    payer: sender,
    payRouter: `0x${'2b'.repeat(20)}`,
    refundHash: `0x${'c3'.repeat(32)}`,
    sign: (message) => senderAccount.signMessage({ message: { raw: message } }),
  })
})

afterAll(async () => {
  await server.close()
})

describe('DepositStatusScreen', () => {
  it('shows where a refund goes, refuses another wallet, and lets the sender sign for a new refund address', async () => {
    const user = userEvent.setup()
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={[`/pay/deposits/${depositId}`]}>
          <Routes>
            <Route path="/pay/deposits/:depositId" element={<DepositStatusScreen />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    )
    expect(await screen.findByRole('heading', { name: 'Transfer received' })).toBeTruthy()
    expect(screen.getByText(/Amount: 10 USDC\./)).toBeTruthy()
    const transfers = within(screen.getByRole('list', { name: 'Transfers received' }))
    expect(transfers.getByText('Received 2 USDC on Avalanche: Less than the amount so far.')).toBeTruthy()
    expect(transfers.getByText(/A refund goes to/).textContent).toBe('A refund goes to 0xf39F…2266')

    await user.click(screen.getByRole('button', { name: "Refund 0xf39F…2266's transfer to another address" }))
    const panel = within(await screen.findByRole('region', { name: 'Refund to another address' }))
    await user.click(await panel.findByRole('button', { name: /^Test Wallet/ }))
    expect((await panel.findByRole('alert')).textContent).toBe(
      'This wallet did not send the transfer. Connect the wallet that sent it (0xf39F…2266).',
    )

    act(() => wallet.useAccount(sender))
    await user.type(await panel.findByLabelText('New refund address'), newAddress)
    await user.click(panel.getByRole('button', { name: 'Sign and save' }))
    expect(await panel.findByText(/^Saved\. A refund of your transfer now goes to/)).toBeTruthy()

    // What the server gets verifies as the sender's signature of this deposit's message.
    const [body] = posted
    expect(body).toMatchObject({ refundAddress: newAddress, signer: sender })
    const message = buildRefundAddressMessage(
      { depositId, refundAddress: newAddress, expiresAt: body?.expiresAt ?? '' },
      getAddress,
    )
    expect(
      await verifyMessage({
        address: sender,
        message,
        signature: (body?.signature ?? '0x') as `0x${string}`,
      }),
    ).toBe(true)
    const expiresInMs = Date.parse(body?.expiresAt ?? '') - Date.now()
    expect(expiresInMs).toBeGreaterThan(8 * 60_000)
    expect(expiresInMs).toBeLessThanOrEqual(10 * 60_000)
    await waitFor(() =>
      expect(transfers.getByText(/A refund goes to/).textContent).toBe('A refund goes to 0x3C44…93BC'),
    )
  }, 20_000)
})
