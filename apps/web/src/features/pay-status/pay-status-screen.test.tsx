import type { PayStatus } from '@quicklinks/core/api/pay-status'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { installRefundTestWallet, type RefundTestWallet } from '../../../test/refund-test-wallet'
import {
  type RecordedRequest,
  sendJson,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../../../test/test-server'
import { PayStatusScreen } from './pay-status-screen'

/**
 * The status page against a loopback API and an in-page EIP-1193 wallet announced by EIP-6963 (as
 * the pay modal's test does): each state's words, the polling that stops when final, and the
 * refund button's path from connecting to the refunded answer.
 */

const intentId = `0x${'42'.repeat(32)}`
const payer = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const stranger = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const payRouter = `0x${'2b'.repeat(20)}`
const sourceHash = `0x${'a1'.repeat(32)}`
const destHash = `0x${'b2'.repeat(32)}`
const refundHash = `0x${'c3'.repeat(32)}`
const refundData = '0x12345678'

const baseStatus: PayStatus = {
  intentId,
  state: 'bridging',
  linkName: 'Acceptance 40024',
  fromChainId: 8453,
  toChainId: 43114,
  fromToken: { chainId: 8453, address: `0x${'3c'.repeat(20)}`, symbol: 'USDC', decimals: 6 },
  toToken: { chainId: 43114, address: `0x${'5e'.repeat(20)}`, symbol: 'USDC', decimals: 6 },
  fromAmount: '3000000',
  toAmountMin: '2950000',
  toAmountReceived: null,
  payer: payer.toLowerCase(),
  sourceTxHash: sourceHash,
  destTxHash: null,
  refundTxHash: null,
  sourceTxUrl: `https://basescan.test/tx/${sourceHash}`,
  destTxUrl: null,
  refundTxUrl: null,
  estimatedDurationMs: 120_000,
  createdAt: '2026-11-28T00:00:00.000Z',
  submittedAt: '2026-11-28T00:00:05.000Z',
  completedAt: null,
  updatedAt: '2026-11-28T00:00:06.000Z',
  refund: null,
}

let server: TestServer
/** What GET /api/pay/status/{intentId} answers next (null: 404). */
let answer: PayStatus | null = baseStatus
const statusReads: number[] = []
/** When the contract allows the refund (epoch ms); null: the answer's refund as it stands. */
let refundOpensAtMs: number | null = null

function handleApi(request: RecordedRequest, response: Parameters<Parameters<TestServer['handle']>[0]>[1]) {
  const path = request.path.split('?')[0] ?? ''
  if (path === '/health') {
    response.writeHead(200, { 'Set-Cookie': 'csrf_token=t; Path=/', 'Content-Type': 'application/json' })
    response.end('{}')
    return
  }
  if (path === '/api/config') {
    sendJson(response, 200, { data: { routingProvider: 'squid' } })
    return
  }
  if (path === '/api/squid/chains') {
    const chain = (chainId: number, networkName: string, symbol: string) => ({
      chainId,
      networkIdentifier: networkName.toLowerCase(),
      networkName,
      chainIconURI: '',
      type: 'evm',
      enabled: true,
      visible: true,
      nativeCurrency: { symbol, decimals: 18 },
      rpcUrl: `http://127.0.0.1:1/${chainId}`,
      blockExplorerUrl: '',
    })
    sendJson(response, 200, { data: [chain(8453, 'Base', 'ETH'), chain(43114, 'Avalanche', 'AVAX')] })
    return
  }
  if (path === `/api/pay/status/${intentId}`) {
    statusReads.push(Date.now())
    if (answer === null) {
      sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'No payment is known under this id.' } })
      return
    }
    // As the server does: the seconds left are counted anew on every answer.
    const refund = answer.refund
    if (refund !== null && refundOpensAtMs !== null) {
      const secondsLeft = Math.max(0, Math.ceil((refundOpensAtMs - Date.now()) / 1000))
      sendJson(response, 200, {
        data: {
          ...answer,
          refund: { ...refund, secondsUntilAvailable: secondsLeft, available: secondsLeft === 0 },
        },
      })
      return
    }
    sendJson(response, 200, { data: answer })
    return
  }
  sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
}

let wallet: RefundTestWallet

beforeAll(async () => {
  server = await startTestServer(handleApi)
  setPageUrl(`${server.origin}/pay/status/${intentId}`)
  wallet = installRefundTestWallet({ first: stranger, payer, payRouter, refundHash })
})

afterAll(async () => {
  await server.close()
})

beforeEach(() => {
  statusReads.length = 0
})

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/pay/status/${intentId}`]}>
        <Routes>
          <Route path="/pay/status/:intentId" element={<PayStatusScreen />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  )
}

describe('PayStatusScreen', () => {
  it('shows a delivered payment with both transactions, and stops polling once final', async () => {
    answer = {
      ...baseStatus,
      state: 'delivered',
      toAmountReceived: '2990999',
      destTxHash: destHash,
      destTxUrl: `https://snowtrace.test/tx/${destHash}`,
      completedAt: '2026-11-28T00:02:00.000Z',
    }
    renderPage()
    expect(await screen.findByRole('heading', { name: 'Delivered' })).toBeTruthy()
    expect(await screen.findByText('Acceptance 40024 received 2.990999 USDC on Avalanche.')).toBeTruthy()
    expect(screen.getByText('Delivered. Nothing more to do.')).toBeTruthy()
    const transactions = within(screen.getByRole('region', { name: 'Transactions' }))
    expect(transactions.getByText('Source transaction')).toBeTruthy()
    expect(transactions.getByText('Destination transaction')).toBeTruthy()
    const hrefs = transactions.getAllByRole('link').map((link) => link.getAttribute('href'))
    expect(hrefs).toEqual([`https://basescan.test/tx/${sourceHash}`, `https://snowtrace.test/tx/${destHash}`])
    // Final: no read after the first (the poll is every 3 s).
    await new Promise((resolve) => setTimeout(resolve, 3500))
    expect(statusReads).toHaveLength(1)
  }, 10_000)

  it('keeps polling a payment on its way and shows the next state when the answer changes', async () => {
    answer = baseStatus
    renderPage()
    expect(await screen.findByRole('heading', { name: 'On its way' })).toBeTruthy()
    expect(
      screen.getByText('The bridge is delivering your payment. This usually takes about 2 minutes.'),
    ).toBeTruthy()
    answer = { ...baseStatus, state: 'failed' }
    expect(await screen.findByRole('heading', { name: 'Payment failed' }, { timeout: 5000 })).toBeTruthy()
    expect(statusReads.length).toBeGreaterThanOrEqual(2)
  }, 10_000)

  it('says so when no payment is known under the id', async () => {
    answer = null
    renderPage()
    expect(await screen.findByRole('heading', { name: 'Payment not found' })).toBeTruthy()
  })

  it('refunds an unfilled deposit from the wallet that paid: refuses another wallet, counts down, switches the chain, sends, shows refunded', async () => {
    const user = userEvent.setup()
    const refund = {
      available: false,
      availableAt: '2026-11-28T02:00:01.000Z',
      secondsUntilAvailable: 3,
      contract: payRouter,
      chainId: 8453,
      functionName: 'refund' as const,
      args: {
        intentId,
        sourceChainId: '8453',
        payer: payer.toLowerCase(),
        escrowToken: `0x${'3c'.repeat(20)}`,
        escrowAmount: '3000000',
        receiver: `0x${'4d'.repeat(20)}`,
        destinationChainId: '43114',
        destinationToken: `0x${'5e'.repeat(20)}`,
        minAmountOut: '2950000',
        fillDeadline: '1795831200',
      },
      data: refundData,
      depositor: payer.toLowerCase(),
    }
    answer = { ...baseStatus, state: 'refundable', refund }
    refundOpensAtMs = Date.now() + 3000
    renderPage()
    expect(await screen.findByRole('heading', { name: 'Not delivered' })).toBeTruthy()
    const panel = within(await screen.findByRole('region', { name: 'Take your deposit back' }))
    expect(panel.getByText('Connect the wallet that paid to take the deposit back.')).toBeTruthy()

    // Another wallet: refused with a clear sentence.
    await user.click(await panel.findByRole('button', { name: /^Test Wallet.*Detected/ }))
    expect((await panel.findByRole('alert')).textContent).toMatch(
      /^This wallet did not make the deposit\. Connect the wallet that paid \(0xf39f…2266\) to take it back\.$/i,
    )

    // The wallet that paid: the countdown, with the button off.
    act(() => wallet.useAccount(payer))
    expect(await panel.findByText(/The contract allows the refund in/)).toBeTruthy()
    expect(panel.getByRole('button', { name: 'Refund' })).toHaveProperty('disabled', true)

    // Time is up: the wallet is on Avalanche, so the page offers to switch.
    const switchButton = await panel.findByRole('button', { name: 'Switch to Base' }, { timeout: 5000 })
    expect(panel.getByText('Your wallet is on Avalanche. The deposit is on Base.')).toBeTruthy()
    await user.click(switchButton)

    const refundButton = await panel.findByRole('button', { name: 'Refund' })
    expect(refundButton).toHaveProperty('disabled', false)
    answer = { ...baseStatus, state: 'refunded', refundTxHash: refundHash, refundTxUrl: null }
    await user.click(refundButton)
    await waitFor(() =>
      expect(wallet.requests.some((request) => request.method === 'eth_sendTransaction')).toBe(true),
    )
    const sent = wallet.requests.find((request) => request.method === 'eth_sendTransaction')
    const [transaction] = (sent?.params ?? []) as [{ to: string; data: string; from: string }?]
    expect(transaction?.to.toLowerCase()).toBe(payRouter)
    expect(transaction?.data).toBe(refundData)
    expect(transaction?.from.toLowerCase()).toBe(payer.toLowerCase())

    // The receipt came back: the page reads the status again and says refunded.
    expect(await screen.findByRole('heading', { name: 'Refunded' }, { timeout: 5000 })).toBeTruthy()
    expect(
      screen.getByText('Refunded. The deposit went back to the wallet that paid. Nothing more to do.'),
    ).toBeTruthy()
    expect(screen.getByText('Refund transaction')).toBeTruthy()
  }, 20_000)
})
