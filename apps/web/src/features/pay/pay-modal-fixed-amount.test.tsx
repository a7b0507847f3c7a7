import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTransactionRecordAnswer } from '../../../test/build-transaction-record-answer'
import { sendJson, setPageUrl, startTestServer, type TestServer } from '../../../test/test-server'
import type { PayLinkSummary } from './pay-link-summary'
import PayModal from './pay-modal'

// The pay modal with a fixed amount (an invoice's amount due), against a loopback API and an
// in-page EIP-6963 wallet that pays in ETH: the amount is locked, the route asks for exact output.

const payer = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const receiver = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const usdc = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const router = '0x9A676e781A523b5d0C0e43731313A708CB607508'
const intentId = `0x${'42'.repeat(32)}`
const txHash = `0x${'ab'.repeat(32)}`
const invoiceId = 'inv_AAAAAAAAAAAAAAAAAAAAAA'
const link: PayLinkSummary = {
  id: '7c1e2b4a-9d3f-4e5a-8b6c-0d1e2f3a4b5c',
  alias: 'Coffee Fund',
  receiver_address: receiver,
  chain: 'base',
  chain_id: 8453,
  token_name: 'USDC',
  token_address: usdc,
}

/** A wallet that connects, switches chains and sends; what it was asked is kept. */
function installTestWallet() {
  const requests: { method: string; params?: unknown }[] = []
  let chainId = 8453
  let isConnected = false
  const provider = {
    async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
      requests.push({ method, params })
      switch (method) {
        case 'eth_requestAccounts':
          isConnected = true
          return [payer]
        case 'eth_accounts':
          return isConnected ? [payer] : []
        case 'eth_chainId':
          return `0x${chainId.toString(16)}`
        case 'wallet_switchEthereumChain':
          chainId = Number.parseInt((params as [{ chainId: string }])[0].chainId, 16)
          return null
        case 'wallet_requestPermissions':
        case 'wallet_getPermissions':
          return [{ parentCapability: 'eth_accounts' }]
        case 'wallet_revokePermissions':
          isConnected = false
          return null
        case 'eth_sendTransaction':
          return txHash
        case 'eth_blockNumber':
          return '0x10'
        default:
          throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 })
      }
    },
    on() {},
    removeListener() {},
  }
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: Object.freeze({
          info: {
            uuid: '6f1c1e0e-0000-4000-8000-000000000002',
            name: 'Test Wallet',
            icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
            rdns: 'dev.quicklinks.testwallet',
          },
          provider,
        }),
      }),
    )
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
  return { requests }
}

let server: TestServer
let wallet: ReturnType<typeof installTestWallet>

beforeAll(async () => {
  server = await startTestServer((request, response) => {
    const path = request.path.split('?')[0] ?? ''
    if (path === '/health') {
      response.writeHead(200, { 'Set-Cookie': 'csrf_token=t; Path=/', 'Content-Type': 'application/json' })
      response.end('{}')
    } else if (path === '/api/config') sendJson(response, 200, { data: { routingProvider: 'local' } })
    else if (path === '/api/local/chains') {
      sendJson(response, 200, {
        data: [
          {
            chainId: 8453,
            networkIdentifier: 'base',
            networkName: 'Base',
            chainIconURI: '',
            type: 'evm',
            enabled: true,
            visible: true,
            nativeCurrency: { symbol: 'ETH', decimals: 18 },
            rpcUrl: 'http://127.0.0.1:1/8453',
            blockExplorerUrl: '',
          },
        ],
      })
    } else if (path === '/api/local/tokens') {
      const token = (address: string, symbol: string, decimals: number, usdPrice: number) => ({
        chainId: 8453,
        address,
        symbol,
        name: symbol,
        decimals,
        type: 'evm',
        logoURI: '',
        active: true,
        visible: true,
        usdPrice,
      })
      sendJson(response, 200, {
        data: [token(nativeTokenAddress, 'ETH', 18, 3000), token(usdc, 'USDC', 6, 1)],
      })
    } else if (path.startsWith('/api/data/wallets/base/')) {
      sendJson(response, 200, {
        data: [
          {
            chainId: 8453,
            address: nativeTokenAddress,
            symbol: 'ETH',
            name: 'Ether',
            decimals: 18,
            balance: '2000000000000000000',
            native: true,
            category: 'native',
            logo_uri: '',
          },
        ],
      })
    } else if (path === '/api/local/route') {
      // Exact output: 12.5 USDC costs 0.0042 ETH, 0.125 USDC over it.
      sendJson(response, 200, {
        data: {
          intentId,
          route: {
            transactionRequest: { to: router, target: router, data: '0xdeadbeef', value: '4200000000000000' },
            estimate: {
              fromAmount: '4200000000000000',
              toAmount: '12625000',
              toAmountMin: '12500000',
              requestedToAmount: '12500000',
              expectedExcess: '125000',
              estimatedRouteDuration: 15,
              actions: [],
            },
            spender: null,
          },
        },
      })
    } else if (path === `/api/route-intent/${intentId}/receipt`) {
      sendJson(response, 202, { data: { intentId, txHash, status: 'submitted' } })
    } else if (path === `/api/route-intent/${intentId}`) {
      sendJson(response, 200, {
        data: buildTransactionRecordAnswer({
          id: 'r1',
          intent_id: intentId,
          from_chain_id: 8453,
          to_chain_id: 8453,
          source_tx_hash: txHash,
          status_raw: 'success',
          route_path: [],
          route_status: [],
          create_date: new Date().toISOString(),
          update_date: new Date().toISOString(),
        }),
      })
    } else sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
  })
  setPageUrl(`${server.origin}/pay/coffee-fund/${invoiceId}`)
  wallet = installTestWallet()
})

afterAll(async () => {
  await server.close()
})

function Harness() {
  const [open, setOpen] = useState(true)
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false } } }))
  return (
    <QueryClientProvider client={client}>
      <PayModal
        link={link}
        open={open}
        onOpenChange={setOpen}
        fixedAmount={{ text: '12.5', invoiceId, decimals: 6 }}
      />
    </QueryClientProvider>
  )
}

const dialogNamed = (name: string) => screen.findByRole('dialog', { name }, { timeout: 4000 })

describe('pay modal with a fixed amount (an invoice)', () => {
  it('locks the amount due, quotes it in the chosen token, and pays the exact-output route', async () => {
    const user = userEvent.setup()
    render(<Harness />)
    await dialogNamed('Select Your Wallet')
    await user.click(await screen.findByRole('button', { name: /^Test Wallet.*Detected/ }))
    await dialogNamed('Select Chain & Token')
    await user.click(await screen.findByRole('button', { name: /^Base/ }))
    await user.click(await screen.findByRole('button', { name: /^ETH/ }))
    await user.click(screen.getByRole('button', { name: 'Continue' }))

    const amountDialog = await dialogNamed('Select Amount')
    const due = within(amountDialog).getByRole('textbox', { name: 'Amount due' })
    expect(due).toHaveProperty('value', '12.5 USDC')
    expect(due).toHaveProperty('readOnly', true)
    expect(await within(amountDialog).findByText('≈ 0.0042 ETH', {}, { timeout: 3000 })).toBeTruthy()
    expect(
      within(amountDialog).getByText('Includes about 0.125 USDC extra to cover price movement.'),
    ).toBeTruthy()
    await user.click(within(amountDialog).getByRole('button', { name: 'Next' }))

    const confirm = await dialogNamed('Confirm Payment')
    expect(await within(confirm).findByText('Route ready ✓', {}, { timeout: 3000 })).toBeTruthy()
    expect(within(confirm).getByText('0.0042 ETH')).toBeTruthy()
    expect(
      within(confirm).getByText('12.5 USDC on Base (includes about 0.125 extra to cover price movement)'),
    ).toBeTruthy()
    const routeBodies = server.requests
      .filter((request) => request.path === '/api/local/route')
      .map((request) => JSON.parse(request.body) as Record<string, unknown>)
    expect(routeBodies.length).toBeGreaterThan(0)
    for (const body of routeBodies) {
      expect(body).toMatchObject({ toAmount: '12500000', invoiceId, linkId: link.id, toToken: usdc })
      expect(body.fromAmount).toBeUndefined()
    }

    await user.click(within(confirm).getByRole('button', { name: 'Confirm & Pay' }))
    await dialogNamed('Payment Successful')
    const sent = wallet.requests.filter((request) => request.method === 'eth_sendTransaction').at(-1)
    const [transaction] = (sent?.params ?? []) as [{ to: string; value: string }?]
    expect(transaction).toMatchObject({ to: router, value: '0xeebe0b40e8000' })
    await waitFor(() => expect(screen.getByText('You paid 12.5 USDC to Coffee Fund.')).toBeTruthy())
  }, 20_000)
})
