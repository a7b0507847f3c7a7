import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildTransactionRecordAnswer } from '../../../test/build-transaction-record-answer'
import {
  type RecordedRequest,
  sendJson,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../../../test/test-server'
import { Toaster } from '../../app/toaster'
import { dismissToast } from '../../ui/use-toast'
import type { PayLinkSummary } from './pay-link-summary'
import PayModal from './pay-modal'

/**
 * The modal against a loopback API and an in-page EIP-1193 wallet announced by EIP-6963 (what the
 * e2e test wallet does in Chromium, here without a chain: the wallet answers from memory).
 */

const payer = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const receiver = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const usdc = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const native = nativeTokenAddress
const router = '0x9A676e781A523b5d0C0e43731313A708CB607508'
const intentId = `0x${'42'.repeat(32)}`
const txHash = `0x${'ab'.repeat(32)}`

const linkId = '7c1e2b4a-9d3f-4e5a-8b6c-0d1e2f3a4b5c'
const link: PayLinkSummary = {
  id: linkId,
  alias: 'Coffee Fund',
  receiver_address: receiver,
  chain: 'base',
  chain_id: 8453,
  token_name: 'USDC',
  token_address: usdc,
}

type WalletRequest = { method: string; params?: unknown }

/** A minimal EIP-1193 wallet: accounts, chain switching, and a send that can be told to fail with 4001. */
function installTestWallet() {
  const requests: WalletRequest[] = []
  const listeners = new Map<string, Set<(value: unknown) => void>>()
  let chainId = 43114
  let isConnected = false
  let rejectNext = false
  let allowance = 0n
  const approvalHash = `0x${'cd'.repeat(32)}`
  const emit = (event: string, value: unknown) => {
    for (const listener of listeners.get(event) ?? []) listener(value)
  }
  const provider = {
    async request({ method, params }: WalletRequest): Promise<unknown> {
      requests.push({ method, params })
      switch (method) {
        case 'eth_requestAccounts':
          isConnected = true
          return [payer]
        case 'eth_accounts':
          return isConnected ? [payer] : []
        case 'eth_chainId':
          return `0x${chainId.toString(16)}`
        case 'wallet_switchEthereumChain': {
          const [{ chainId: next }] = params as [{ chainId: string }]
          chainId = Number.parseInt(next, 16)
          emit('chainChanged', next)
          return null
        }
        case 'wallet_requestPermissions':
        case 'wallet_getPermissions':
          return [{ parentCapability: 'eth_accounts' }]
        case 'wallet_revokePermissions':
          isConnected = false
          return null
        case 'eth_sendTransaction': {
          if (rejectNext) {
            rejectNext = false
            throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
          }
          const [transaction] = params as [{ data?: string }]
          if (transaction.data?.startsWith('0x095ea7b3') === true) {
            // approve(spender, amount): the amount is the second 32-byte word.
            allowance = BigInt(`0x${transaction.data.slice(74, 138)}`)
            return approvalHash
          }
          return txHash
        }
        case 'eth_call':
          // allowance(owner, spender) is the only read the modal makes through the wallet.
          return `0x${allowance.toString(16).padStart(64, '0')}`
        case 'eth_getTransactionReceipt': {
          const [hash] = params as [string]
          if (hash !== approvalHash) return null
          return {
            blockHash: `0x${'11'.repeat(32)}`,
            blockNumber: '0x10',
            contractAddress: null,
            cumulativeGasUsed: '0x5208',
            effectiveGasPrice: '0x1',
            from: payer.toLowerCase(),
            gasUsed: '0x5208',
            logs: [],
            logsBloom: `0x${'0'.repeat(512)}`,
            status: '0x1',
            to: usdc.toLowerCase(),
            transactionHash: approvalHash,
            transactionIndex: '0x0',
            type: '0x2',
          }
        }
        case 'eth_blockNumber':
          return '0x10'
        default:
          throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 })
      }
    },
    on(event: string, listener: (value: unknown) => void) {
      const set = listeners.get(event) ?? new Set()
      set.add(listener)
      listeners.set(event, set)
    },
    removeListener(event: string, listener: (value: unknown) => void) {
      listeners.get(event)?.delete(listener)
    },
  }
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: Object.freeze({
          info: {
            uuid: '6f1c1e0e-0000-4000-8000-000000000001',
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
  return {
    requests,
    rejectNext: () => {
      rejectNext = true
    },
    /** The payer disconnects in the wallet itself. */
    disconnect: () => {
      isConnected = false
      emit('accountsChanged', [])
    },
  }
}

let server: TestServer
let wallet: ReturnType<typeof installTestWallet>
let transactionStatus = 'submitted'
/** The hash the intent's record follows (another one: a bystander posted theirs first). */
let recordSourceHash = txHash
/** How long POST …/receipt takes to answer, and when it last answered (epoch ms). */
let receiptDelayMs = 0
let receiptAnsweredAtMs: number | null = null
/** When each GET /api/route-intent/{intentId} (the payment's record) arrived (epoch ms). */
const transactionPolls: number[] = []

function handleApi(request: RecordedRequest, response: Parameters<Parameters<TestServer['handle']>[0]>[1]) {
  const path = request.path.split('?')[0] ?? ''
  if (path === '/health') {
    response.writeHead(200, { 'Set-Cookie': 'csrf_token=t; Path=/', 'Content-Type': 'application/json' })
    response.end('{}')
    return
  }
  if (path === '/api/config') {
    // The modal calls the provider the server names; nothing in the bundle says 'local'.
    sendJson(response, 200, { data: { routingProvider: 'squid' } })
    return
  }
  if (path === '/api/squid/chains') {
    const chain = (chainId: number, networkIdentifier: string, networkName: string, symbol: string) => ({
      chainId,
      networkIdentifier,
      networkName,
      chainIconURI: '',
      type: 'evm',
      enabled: true,
      visible: true,
      nativeCurrency: { symbol, decimals: 18 },
      rpcUrl: `http://127.0.0.1:1/${chainId}`,
      blockExplorerUrl: '',
    })
    sendJson(response, 200, {
      data: [chain(8453, 'base', 'Base', 'ETH'), chain(43114, 'avalanche', 'Avalanche', 'AVAX')],
    })
    return
  }
  if (path === '/api/squid/tokens') {
    const token = (address: string, symbol: string, decimals: number, usdPrice: number) => ({
      chainId: 8453,
      address,
      symbol,
      name: symbol === 'ETH' ? 'Ether' : 'USD Coin',
      decimals,
      type: 'evm',
      logoURI: '',
      active: true,
      visible: true,
      usdPrice,
    })
    sendJson(response, 200, { data: [token(native, 'ETH', 18, 3000), token(usdc, 'USDC', 6, 1)] })
    return
  }
  // The chain segment is the network name (docs/api.md#balances), not the id.
  if (path.startsWith('/api/data/wallets/base/')) {
    sendJson(response, 200, {
      data: [
        {
          chainId: 8453,
          address: native,
          symbol: 'ETH',
          name: 'Ether',
          decimals: 18,
          balance: '2000000000000000000',
          native: true,
          category: 'native',
          logo_uri: '',
        },
        {
          chainId: 8453,
          address: usdc,
          symbol: 'USDC',
          name: 'USD Coin',
          decimals: 6,
          balance: '50000000',
          native: false,
          category: 'erc20',
          logo_uri: '',
        },
      ],
    })
    return
  }
  if (path === '/api/squid/route') {
    const body = JSON.parse(request.body) as { fromAmount: string; fromToken: string }
    const isNative = body.fromToken.toLowerCase() === native.toLowerCase()
    sendJson(response, 200, {
      data: {
        intentId,
        route: {
          transactionRequest: {
            to: router,
            target: router,
            data: '0xdeadbeef',
            value: isNative ? body.fromAmount : '0',
          },
          estimate: {
            fromAmount: body.fromAmount,
            toAmount: '30000000',
            toAmountMin: '29700000',
            estimatedRouteDuration: 15,
            actions: [],
          },
          spender: isNative ? null : router,
        },
      },
    })
    return
  }
  if (path === `/api/route-intent/${intentId}/receipt`) {
    setTimeout(() => {
      receiptAnsweredAtMs = Date.now()
      sendJson(response, 202, { data: { intentId, txHash, status: 'submitted' } })
    }, receiptDelayMs)
    return
  }
  if (path === `/api/route-intent/${intentId}`) {
    // The modal names its payer and the transaction its wallet sent; the server picks the record.
    const query = new URLSearchParams(request.path.split('?')[1] ?? '')
    if (query.get('payer')?.toLowerCase() !== payer.toLowerCase() || query.get('txHash') === null) {
      sendJson(response, 404, {
        error: { code: 'NOT_FOUND', message: 'This wallet has no payment for this route.' },
      })
      return
    }
    transactionPolls.push(Date.now())
    // As the server does: a record following another transaction is answered pending.
    const isOwn = recordSourceHash.toLowerCase() === query.get('txHash')?.toLowerCase()
    sendJson(response, 200, {
      data: buildTransactionRecordAnswer({
        id: 'r1',
        intent_id: intentId,
        from_chain_id: 8453,
        to_chain_id: 8453,
        source_tx_hash: isOwn ? recordSourceHash : null,
        status_raw: isOwn ? transactionStatus : null,
        // What the tracker verified the receiver got: 29.990999 USDC (6 decimals).
        to_amount_wei: isOwn && transactionStatus === 'success' ? '29990999' : null,
        from_chain_tx_url: isOwn ? `https://basescan.test/tx/${recordSourceHash}` : null,
        route_path: [],
        route_status: [],
        create_date: new Date().toISOString(),
        update_date: new Date().toISOString(),
      }),
    })
    return
  }
  sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
}

function Harness({ onClosed }: { onClosed?: () => void }) {
  const [open, setOpen] = useState(true)
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false } } }))
  return (
    <QueryClientProvider client={client}>
      <PayModal
        link={link}
        open={open}
        onOpenChange={(next) => {
          setOpen(next)
          if (!next) onClosed?.()
        }}
      />
      <Toaster />
    </QueryClientProvider>
  )
}

beforeAll(async () => {
  server = await startTestServer(handleApi)
  setPageUrl(`${server.origin}/pay/coffee-fund`)
  wallet = installTestWallet()
})

afterAll(async () => {
  await server.close()
})

afterEach(() => {
  act(() => dismissToast())
  recordSourceHash = txHash
  receiptDelayMs = 0
})

const dialogNamed = (name: string) => screen.findByRole('dialog', { name }, { timeout: 4000 })

describe('pay modal', () => {
  it('pays in the native token: wallet, chain and token, amount, confirm, processing, success', async () => {
    const user = userEvent.setup()
    transactionStatus = 'submitted'
    render(<Harness />)
    await dialogNamed('Select Your Wallet')
    await user.click(await screen.findByRole('button', { name: /^Test Wallet.*Detected/ }))
    await dialogNamed('Select Chain & Token')
    // Focus follows the step: the new title is where a screen reader lands.
    expect(document.activeElement?.textContent).toBe('Select Chain & Token')

    await user.click(await screen.findByRole('button', { name: /^Base/ }))
    await waitFor(() =>
      expect(wallet.requests.some((request) => request.method === 'wallet_switchEthereumChain')).toBe(true),
    )
    await user.click(await screen.findByRole('button', { name: /^ETH/ }))
    expect(await screen.findByText('Balance: 2.0000')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Continue' }))

    const amountDialog = await dialogNamed('Select Amount')
    expect(await screen.findByText('2 ETH')).toBeTruthy()
    await user.type(screen.getByRole('textbox', { name: 'Amount' }), '3')
    expect(within(amountDialog).getByText('Amount exceeds available balance.')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true)
    await user.clear(screen.getByRole('textbox', { name: 'Amount' }))
    await user.type(screen.getByRole('textbox', { name: 'Amount' }), '0.01')
    await user.click(screen.getByRole('button', { name: 'Next' }))

    await dialogNamed('Confirm Payment')
    expect(await screen.findByText('Route ready ✓', {}, { timeout: 3000 })).toBeTruthy()
    expect(screen.getByText('≈ 30 USDC on Base')).toBeTruthy()
    const routeRequest = server.requests.find((request) => request.path === '/api/squid/route')
    expect(JSON.parse(routeRequest?.body ?? '{}')).toMatchObject({
      fromChain: 8453,
      toChain: 8453,
      fromToken: native,
      toToken: usdc,
      fromAmount: '10000000000000000',
      fromAddress: payer,
      toAddress: receiver,
      slippage: 1,
      linkId,
    })

    // A rejection stays on step 3 with the documented toast.
    wallet.rejectNext()
    await user.click(screen.getByRole('button', { name: 'Confirm & Pay' }))
    // The toast stays reachable by role while the modal hides the rest of the page.
    const notifications = screen.getByRole('region', { name: /Notifications/ })
    expect(await within(notifications).findByText('Transaction was rejected by the user.')).toBeTruthy()
    expect(within(notifications).getByText('Payment failed')).toBeTruthy()
    expect(screen.getByRole('dialog', { name: 'Confirm Payment' })).toBeTruthy()

    await user.click(screen.getByRole('button', { name: 'Confirm & Pay' }))
    await dialogNamed('Payment Confirmation')
    const sent = wallet.requests.filter((request) => request.method === 'eth_sendTransaction').at(-1)
    const [sentTransaction] = (sent?.params ?? []) as [{ to: string; data: string; value: string }?]
    expect(sentTransaction).toMatchObject({
      to: router,
      data: '0xdeadbeef',
      value: '0x2386f26fc10000',
    })
    await waitFor(() =>
      expect(server.requests.some((request) => request.path.endsWith('/receipt'))).toBe(true),
    )
    // Escape and the absent Close do nothing during processing.
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' })
    expect(screen.getByRole('dialog', { name: 'Payment Confirmation' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull()

    transactionStatus = 'success'
    const success = await dialogNamed('Payment Successful')
    expect(screen.getByText('Payment completed')).toBeTruthy()
    // The sentence comes from the verified record, in the link token's decimals.
    expect(within(success).getByText('Coffee Fund received 29.990999 USDC on Base.')).toBeTruthy()
    // A same-chain payment: one transaction, linked to its explorer.
    const transaction = within(success).getByRole('link', { name: /0x.*opens in a new tab/ })
    expect(transaction.getAttribute('href')).toMatch(/^https:\/\/basescan\.test\/tx\/0x/)
    expect(within(success).getByText('Transaction')).toBeTruthy()
    expect(within(success).getByRole('link', { name: 'Receipt' }).getAttribute('href')).toBe(
      `/pay/receipt/${intentId}`,
    )
    expect(within(success).getByRole('link', { name: 'Payment status' }).getAttribute('href')).toBe(
      `/pay/status/${intentId}`,
    )
    // Closing from the result disconnects the wallet.
    await user.click(screen.getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  }, 20_000)

  it('goes back to the wallets (disconnecting) from step 1, and closes from step 0', async () => {
    const user = userEvent.setup()
    let closed = false
    render(
      <Harness
        onClosed={() => {
          closed = true
        }}
      />,
    )
    await dialogNamed('Select Your Wallet')
    await user.click(await screen.findByRole('button', { name: /^Test Wallet.*Detected/ }))
    await dialogNamed('Select Chain & Token')
    await user.click(screen.getByRole('button', { name: 'Back' }))
    await dialogNamed('Select Your Wallet')
    // No automatic advance while the wallet is still disconnecting: by the time the disconnect
    // reaches the wallet, Back has rendered the wallet step with the wallet still connected.
    await waitFor(() =>
      expect(wallet.requests.map((request) => request.method)).toContain('wallet_revokePermissions'),
    )
    expect(screen.getByRole('dialog', { name: 'Select Your Wallet' })).toBeTruthy()
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' })
    await waitFor(() => expect(closed).toBe(true))
  }, 20_000)

  it('approves the exact amount of a token, then pays; a failed payment ends on Payment Failed', async () => {
    const user = userEvent.setup()
    transactionStatus = 'submitted'
    render(<Harness />)
    await dialogNamed('Select Your Wallet')
    await user.click(await screen.findByRole('button', { name: /^Test Wallet.*Detected/ }))
    await dialogNamed('Select Chain & Token')
    await user.click(await screen.findByRole('button', { name: /^Base/ }))
    await user.click(await screen.findByRole('button', { name: /^USDC/ }))
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await dialogNamed('Select Amount')
    await user.type(screen.getByRole('textbox', { name: 'Amount' }), '5')
    await user.click(screen.getByRole('button', { name: 'Next' }))

    await dialogNamed('Confirm Payment')
    await user.click(await screen.findByRole('button', { name: 'Approve Exact' }, { timeout: 3000 }))
    expect(await screen.findByText('Allowance sufficient ✓', {}, { timeout: 4000 })).toBeTruthy()
    const approval = wallet.requests.find(
      (request) =>
        request.method === 'eth_sendTransaction' &&
        ((request.params as [{ data?: string }])[0].data ?? '').startsWith('0x095ea7b3'),
    )
    const [approvalTransaction] = (approval?.params ?? []) as [{ data: string }?]
    expect(BigInt(`0x${approvalTransaction?.data.slice(74, 138)}`)).toBe(5_000_000n)

    transactionStatus = 'failed'
    const confirm = screen.getByRole('button', { name: 'Confirm & Pay' })
    await waitFor(() => expect(confirm).toHaveProperty('disabled', false))
    await user.click(confirm)
    const failed = await dialogNamed('Payment Failed')
    expect(screen.getByText('Your payment failed. You can close this window.')).toBeTruthy()
    expect(
      await screen.findByText('This payment did not complete. You can close the modal and try again.'),
    ).toBeTruthy()
    await user.click(within(failed).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  }, 20_000)

  it("polls right after the receipt post, and ends only on the record of the wallet's own transaction", async () => {
    const user = userEvent.setup()
    render(<Harness />)
    await dialogNamed('Select Your Wallet')
    await user.click(await screen.findByRole('button', { name: /^Test Wallet.*Detected/ }))
    await dialogNamed('Select Chain & Token')
    await user.click(await screen.findByRole('button', { name: /^Base/ }))
    await user.click(await screen.findByRole('button', { name: /^ETH/ }))
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await dialogNamed('Select Amount')
    await user.type(screen.getByRole('textbox', { name: 'Amount' }), '0.01')
    await user.click(screen.getByRole('button', { name: 'Next' }))
    await dialogNamed('Confirm Payment')
    expect(await screen.findByText('Route ready ✓', {}, { timeout: 3000 })).toBeTruthy()

    // A bystander posted another hash for this intent first; the tracker failed it.
    recordSourceHash = `0x${'ee'.repeat(32)}`
    transactionStatus = 'failed'
    receiptDelayMs = 400
    receiptAnsweredAtMs = null
    transactionPolls.length = 0
    await user.click(screen.getByRole('button', { name: 'Confirm & Pay' }))
    const processing = await dialogNamed('Payment Confirmation')

    // No poll races the receipt post; the first follows its answer without waiting for the interval.
    await waitFor(() => expect(transactionPolls.length).toBeGreaterThanOrEqual(1), { timeout: 3000 })
    const answeredAt = receiptAnsweredAtMs as number | null
    if (answeredAt === null) throw new Error('the receipt post never answered')
    expect(transactionPolls[0]).toBeGreaterThanOrEqual(answeredAt)
    expect((transactionPolls[0] ?? 0) - answeredAt).toBeLessThan(1500)

    // The other transaction's failure is not this payer's: still confirming after another poll. A
    // third poll is sent only once the second answer has been handled, so it was not taken as final.
    await waitFor(() => expect(transactionPolls.length).toBeGreaterThanOrEqual(3), { timeout: 6000 })
    expect(screen.getByRole('dialog', { name: 'Payment Confirmation' })).toBeTruthy()
    expect(within(processing).getByText('Confirming...')).toBeTruthy()
    expect(
      screen.queryByText('This payment did not complete. You can close the modal and try again.'),
    ).toBeNull()

    // The record now follows the wallet's transaction (the server spells the hash in capitals).
    recordSourceHash = `0x${'AB'.repeat(32)}`
    transactionStatus = 'success'
    await dialogNamed('Payment Successful')
    await user.click(screen.getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  }, 20_000)

  it('returns to the wallets when the wallet disconnects on the amount step', async () => {
    const user = userEvent.setup()
    render(<Harness />)
    await dialogNamed('Select Your Wallet')
    await user.click(await screen.findByRole('button', { name: /^Test Wallet.*Detected/ }))
    await dialogNamed('Select Chain & Token')
    await user.click(await screen.findByRole('button', { name: /^Base/ }))
    await user.click(await screen.findByRole('button', { name: /^ETH/ }))
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await dialogNamed('Select Amount')
    act(() => wallet.disconnect())
    await dialogNamed('Select Your Wallet')
  }, 20_000)
})
