import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import type { SmartSendInput, SmartSendResult } from '@quicklinks/wallet/smart-accounts/smart-wallet-types'
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { useState } from 'react'
import { decodeFunctionData, erc20Abi, type Hex, keccak256, toHex } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  clearCookies,
  type RecordedRequest,
  sendJson,
  setPageCookie,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../../../test/test-server'
import { SendDialog } from './send-dialog'
import type { SendDialogChain } from './send-dialog-state'
import { appServerRpcTransport } from './smart-account-transports'

const sender = '0x1111111111111111111111111111111111111111'
const recipient = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F'
const usdc = '0x036CbD53842c5426634e7929541eC2318f3dCF7e'
const native = nativeTokenAddress.toLowerCase()
const chainId = 8453

let server: TestServer
/** What the test server's sponsor service answers to pm_getPaymasterStubData: sponsor, or refuse with a reason. */
let sponsorAnswer: { reason: string } | 'sponsor' = 'sponsor'

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  sponsorAnswer = 'sponsor'
  server.requests.length = 0
  clearCookies()
  setPageUrl(`${server.origin}/settings`)
  setPageCookie('csrf_token', 'csrf-1')
  server.handle((request, response) => {
    if (request.method === 'POST' && request.path === `/api/paymaster/${chainId}`) {
      const body = JSON.parse(request.body) as { id: number; method: string }
      if (sponsorAnswer === 'sponsor') {
        sendJson(response, 200, { jsonrpc: '2.0', id: body.id, result: { paymasterAndData: '0x' } })
      } else {
        sendJson(response, 200, {
          jsonrpc: '2.0',
          id: body.id,
          error: { code: -32603, message: 'Sponsorship refused', data: sponsorAnswer },
        })
      }
      return
    }
    sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
  })
})

type Sent = { input: SmartSendInput }

/**
 * A send that walks the SDK's steps: preparing, then (with a policy) asks the sponsor service for
 * its stub data through the app-server transport (so a refusal arrives as viem's real error for
 * the service's JSON-RPC answer), signing, submitted, included; each included send "moves" the
 * amount out of the balance the harness keeps.
 */
function createHarness(initial: { usdc: bigint; native: bigint }) {
  const sent: Sent[] = []
  const balances = { ...initial }
  const paymaster = appServerRpcTransport(`/api/paymaster/${chainId}`)({})
  const send = async (input: SmartSendInput): Promise<SmartSendResult> => {
    sent.push({ input })
    input.onProgress?.({ step: 'preparing' })
    if (input.policyId !== undefined) {
      input.onProgress?.({ step: 'sponsoring' })
      await paymaster.request({
        method: 'pm_getPaymasterStubData',
        params: [
          { sender },
          '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
          toHex(chainId),
          { policyId: input.policyId },
        ],
      } as never)
    }
    input.onProgress?.({ step: 'signing' })
    const userOpHash = keccak256(toHex(`op-${sent.length}`))
    input.onProgress?.({ step: 'submitted', userOpHash })
    const transactionHash = keccak256(toHex(`tx-${sent.length}`))
    const call = input.calls[0]
    if (call?.data !== undefined) {
      const decoded = decodeFunctionData({ abi: erc20Abi, data: call.data })
      if (decoded.functionName === 'transfer') balances.usdc -= decoded.args[1]
    }
    input.onProgress?.({ step: 'included', userOpHash, transactionHash })
    return {
      userOpHash,
      transactionHash,
      success: true,
      actualGasCost: 1000n,
      sponsored: input.policyId !== undefined,
    }
  }
  return { sent, balances, send }
}

function toChains(balances: { usdc: bigint; native: bigint } | null): SendDialogChain[] {
  return [
    {
      chainId,
      name: 'Base',
      sponsored: true,
      nativeSymbol: 'ETH',
      tokens: [
        { address: native, symbol: 'ETH', decimals: 18, balance: balances?.native ?? null },
        { address: usdc, symbol: 'USDC', decimals: 6, balance: balances?.usdc ?? null },
      ],
    },
  ]
}

function Harness({
  harness,
  policyId = 'devnet-wallet',
  onOpenChange = () => {},
}: {
  harness: ReturnType<typeof createHarness>
  policyId?: string | null
  onOpenChange?: (open: boolean) => void
}) {
  const [shown, setShown] = useState({ ...harness.balances })
  return (
    <SendDialog
      open
      onOpenChange={onOpenChange}
      sender={sender}
      chains={toChains(shown)}
      defaultPolicyId={policyId}
      send={harness.send}
      getTransactionUrl={(id, hash: Hex) => `/api/dev/chains/${id}/tx/${hash}`}
      onSent={async () => setShown({ ...harness.balances })}
    />
  )
}

function fill(amount: string, to: string) {
  const select = screen.getByLabelText<HTMLSelectElement>('Token')
  const option = [...select.options].find((item) => item.textContent === 'USDC on Base')
  fireEvent.change(select, { target: { value: option?.value } })
  fireEvent.change(screen.getByLabelText('Amount'), { target: { value: amount } })
  fireEvent.change(screen.getByLabelText('To address'), { target: { value: to } })
}

function fieldMessage(label: string): string {
  const input = screen.getByLabelText(label)
  const id = input.getAttribute('aria-describedby') ?? ''
  return document.getElementById(id)?.textContent ?? ''
}

describe('send dialog', () => {
  it('starts on the funded token and shows its balance', async () => {
    render(<Harness harness={createHarness({ usdc: 5_000_000n, native: 0n })} />)
    const select = await screen.findByLabelText<HTMLSelectElement>('Token')
    expect(select.selectedOptions[0]?.textContent).toBe('USDC on Base')
    expect(fieldMessage('Token')).toBe('Balance: 5 USDC')
    expect(screen.getByText('Gas is sponsored: you pay nothing extra.')).toBeTruthy()
  })

  it('says what is wrong with each field, focuses the first one and sends nothing', async () => {
    const harness = createHarness({ usdc: 5_000_000n, native: 0n })
    render(<Harness harness={harness} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Send' }))
    expect(fieldMessage('Amount')).toBe('Enter an amount.')
    expect(fieldMessage('To address')).toBe('Enter the address to send to.')
    expect(document.activeElement).toBe(screen.getByLabelText('Amount'))
    expect(screen.getByLabelText('Amount').getAttribute('aria-invalid')).toBe('true')

    fill('5.000001', '0x71c7656ec7ab88b098defb751b7401b5f6d8976f'.replace('71c', '71C'))
    fireEvent.click(screen.getByRole('button', { name: 'Send' }))
    expect(fieldMessage('Amount')).toBe('Amount exceeds available balance.')
    expect(fieldMessage('To address')).toBe(
      'This address has a wrong checksum. Copy it again from its owner.',
    )

    fill('1.0000001', 'not an address')
    expect(fieldMessage('Amount')).toBe('USDC has at most 6 decimals.')
    expect(fieldMessage('To address')).toBe('Enter a valid address: 0x followed by 40 hex characters.')

    fill('0', sender)
    expect(fieldMessage('Amount')).toBe('Enter a valid amount.')
    expect(fieldMessage('To address')).toBe('This is this wallet’s own address.')

    // An all-lowercase address has no checksum to check: it is accepted.
    fill('abc', recipient.toLowerCase())
    fireEvent.click(screen.getByRole('button', { name: 'Send' }))
    expect(fieldMessage('Amount')).toBe('Enter a valid amount.')
    expect(fieldMessage('To address')).toBe('')
    expect(harness.sent).toHaveLength(0)
  })

  it('refuses any amount while the account holds none of the token', async () => {
    render(<Harness harness={createHarness({ usdc: 0n, native: 0n })} />)
    fill('1', recipient)
    fireEvent.click(await screen.findByRole('button', { name: 'Send' }))
    expect(fieldMessage('Amount')).toBe('Insufficient balance.')
  })

  it('sends a sponsored ERC-20 transfer, shows its progress, the explorer link and the new balance', async () => {
    const harness = createHarness({ usdc: 5_000_000n, native: 0n })
    render(<Harness harness={harness} />)
    fill('1.5', recipient)
    fireEvent.click(await screen.findByRole('button', { name: 'Send' }))

    const done = await screen.findByRole('status')
    expect(done.textContent).toBe('Transfer included · gas sponsored')
    expect(screen.getByRole('heading', { name: 'Sent' })).toBeTruthy()
    const [sent] = harness.sent
    expect(sent?.input.policyId).toBe('devnet-wallet')
    expect(sent?.input.chainId).toBe(chainId)
    const call = sent?.input.calls[0]
    expect(call?.to).toBe(usdc)
    const decoded = decodeFunctionData({ abi: erc20Abi, data: call?.data ?? '0x' })
    expect(decoded.functionName).toBe('transfer')
    expect(decoded.args).toEqual([recipient, 1_500_000n])

    const link = screen.getByRole('link', { name: /view in the explorer/ })
    expect(link.getAttribute('href')).toBe(`/api/dev/chains/${chainId}/tx/${keccak256(toHex('tx-1'))}`)
    await waitFor(() => expect(screen.getByText('3.5 USDC')).toBeTruthy())
    // The sponsor service was asked once, with the CSRF header the app server requires.
    const sponsorCalls = server.requests.filter(
      (request: RecordedRequest) => request.path === `/api/paymaster/${chainId}`,
    )
    expect(sponsorCalls).toHaveLength(1)
    expect(sponsorCalls[0]?.headers['x-csrf-token']).toBe('csrf-1')
  })

  it('shows each step while the operation is on its way', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const harness = createHarness({ usdc: 5_000_000n, native: 0n })
    const send = async (input: SmartSendInput) => {
      await gate
      return harness.send(input)
    }
    const closes: boolean[] = []
    render(<Harness harness={{ ...harness, send }} onOpenChange={(open) => closes.push(open)} />)
    fill('1', recipient)
    fireEvent.click(await screen.findByRole('button', { name: 'Send' }))
    const progress = await screen.findByRole('list', { name: 'Progress' })
    expect(
      within(progress)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Preparing the transfer (in progress)',
      'Getting the gas sponsored (waiting)',
      'Signing with your wallet (waiting)',
      'Submitted to the network (waiting)',
      'Included in a block (waiting)',
    ])
    // Escape does not close it while the operation is on its way; once it is included, Done does.
    fireEvent.keyDown(progress, { key: 'Escape' })
    expect(closes).toEqual([])
    await act(async () => release())
    await screen.findByRole('heading', { name: 'Sent' })
    fireEvent.click(screen.getByRole('button', { name: 'Done' }))
    expect(closes).toEqual([false])
  })

  it('says when today’s sponsorship is spent and then pays the gas from the account', async () => {
    sponsorAnswer = { reason: 'POLICY_SPENT' }
    const harness = createHarness({ usdc: 5_000_000n, native: 10n ** 16n })
    render(<Harness harness={harness} />)
    await screen.findByRole('dialog')
    fill('1', recipient)
    fireEvent.click(screen.getByRole('button', { name: 'Send' }))

    expect((await screen.findByRole('alert')).textContent).toBe('Gas sponsorship for today is used up.')
    expect(screen.getByText('You can pay the gas from this account in ETH instead.')).toBeTruthy()
    expect(harness.balances.usdc).toBe(5_000_000n)

    fireEvent.click(screen.getByRole('button', { name: 'Pay gas from this account' }))
    expect((await screen.findByRole('status')).textContent).toBe('Transfer included')
    expect(harness.sent).toHaveLength(2)
    expect(harness.sent[1]?.input.policyId).toBeUndefined()
    expect(harness.sent[1]?.input.calls).toEqual(harness.sent[0]?.input.calls)
    await waitFor(() => expect(screen.getByText('4 USDC')).toBeTruthy())
  })

  it('cannot pay the gas itself without the native token', async () => {
    sponsorAnswer = { reason: 'POLICY_SPENT' }
    render(<Harness harness={createHarness({ usdc: 5_000_000n, native: 0n })} />)
    fill('1', recipient)
    fireEvent.click(await screen.findByRole('button', { name: 'Send' }))
    await screen.findByRole('alert')
    expect(screen.getByText('To pay the gas yourself, this account needs ETH on Base.')).toBeTruthy()
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Pay gas from this account' }).disabled,
    ).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    expect(screen.getByLabelText<HTMLInputElement>('Amount').value).toBe('1')
  })

  it('says a token or contract outside the policy is not covered', async () => {
    sponsorAnswer = { reason: 'NOT_SPONSORED' }
    render(<Harness harness={createHarness({ usdc: 5_000_000n, native: 0n })} />)
    fill('1', recipient)
    fireEvent.click(await screen.findByRole('button', { name: 'Send' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Gas sponsorship does not cover this token or contract.',
    )
  })

  it('shows another failure beside the form, keeping what was typed', async () => {
    sponsorAnswer = { reason: 'SOMETHING_ELSE' }
    render(<Harness harness={createHarness({ usdc: 5_000_000n, native: 0n })} />)
    fill('1', recipient)
    fireEvent.click(await screen.findByRole('button', { name: 'Send' }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).not.toBe('')
    expect(screen.queryByRole('button', { name: 'Pay gas from this account' })).toBeNull()
    expect(screen.getByLabelText<HTMLInputElement>('To address').value).toBe(recipient)
  })

  it('sends without a policy, paying its own gas, when none is configured', async () => {
    const harness = createHarness({ usdc: 5_000_000n, native: 10n ** 16n })
    render(<Harness harness={harness} policyId={null} />)
    expect(await screen.findByText('Gas is paid from this account in ETH.')).toBeTruthy()
    // The first token with a balance comes first: here the native one.
    expect(screen.getByLabelText<HTMLSelectElement>('Token').selectedOptions[0]?.textContent).toBe(
      'ETH on Base',
    )
    fill('2', recipient)
    fireEvent.click(screen.getByRole('button', { name: 'Send' }))
    expect((await screen.findByRole('status')).textContent).toBe('Transfer included')
    expect(harness.sent[0]?.input.policyId).toBeUndefined()
    expect(server.requests.some((request) => request.path.startsWith('/api/paymaster'))).toBe(false)
  })
})
