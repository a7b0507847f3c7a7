import type { RouteResult, RoutingToken } from '@quicklinks/core/api/routing'
import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { buildFixedRouteInput, getFixedAmountUnits } from './fixed-amount'
import { QuotedLockedAmountStep } from './locked-amount-step'
import type { PayLinkSummary } from './pay-link-summary'
import type { RouteInput } from './route-builder'

const usdc = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const link: PayLinkSummary = {
  id: '7c1e2b4a-9d3f-4e5a-8b6c-0d1e2f3a4b5c',
  alias: 'Coffee Fund',
  receiver_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  chain: 'base',
  chain_id: 8453,
  token_name: 'USDC',
  token_address: usdc,
}
const eth: RoutingToken = {
  chainId: 8453,
  address: nativeTokenAddress,
  symbol: 'ETH',
  name: 'Ether',
  decimals: 18,
  type: 'evm',
  logoURI: '',
  active: true,
  visible: true,
  usdPrice: 3000,
}

/** An exact-output route answer: 0.0042 ETH for 12.5 USDC, 0.125 USDC over it. */
function quote(fromAmount = '4200000000000000'): RouteResult {
  return {
    intentId: `0x${'1'.repeat(64)}`,
    route: {
      transactionRequest: { to: usdc, target: usdc, data: '0x', value: fromAmount },
      estimate: {
        fromAmount,
        toAmount: '12625000',
        toAmountMin: '12500000',
        requestedToAmount: '12500000',
        expectedExcess: '125000',
        estimatedRouteDuration: 15,
        actions: [],
      },
      spender: null,
    },
  }
}

function renderStep(options: {
  balance: bigint | null
  build: (input: RouteInput) => Promise<RouteResult>
  onNext?: () => void
}) {
  const fixed = { text: '12.5', invoiceId: 'inv_AAAAAAAAAAAAAAAAAAAAAA', decimals: 6 }
  const due = getFixedAmountUnits(fixed, undefined)
  return render(
    <QuotedLockedAmountStep
      label="Amount due"
      due={due}
      dueToken={{ symbol: 'USDC', decimals: 6 }}
      token={{ symbol: 'ETH', decimals: 18 }}
      networkName="Base"
      balance={options.balance}
      input={buildFixedRouteInput({
        link,
        token: eth,
        address: `0x${'d'.repeat(40)}`,
        toAmount: due,
        invoiceId: fixed.invoiceId,
      })}
      build={(input) => options.build(input)}
      onBack={() => undefined}
      onNext={options.onNext ?? (() => undefined)}
    />,
  )
}

describe('the locked amount step (an invoice or a link with an amount)', () => {
  it('shows the amount due read-only and quotes it in the chosen token as exact output', async () => {
    const user = userEvent.setup()
    const build = vi.fn(async () => quote())
    const onNext = vi.fn()
    renderStep({ balance: 10n ** 18n, build, onNext })
    const due = screen.getByRole('textbox', { name: 'Amount due' })
    expect(due).toHaveProperty('value', '12.5 USDC')
    expect(due).toHaveProperty('readOnly', true)
    await user.type(due, '99')
    expect(due).toHaveProperty('value', '12.5 USDC')
    expect(await screen.findByText('≈ 0.0042 ETH')).toBeTruthy()
    expect(screen.getByText('Includes about 0.125 USDC extra to cover price movement.')).toBeTruthy()
    const [input] = build.mock.calls[0] as unknown as [RouteInput]
    expect(input).toMatchObject({
      toAmount: 12_500_000n,
      invoiceId: 'inv_AAAAAAAAAAAAAAAAAAAAAA',
      toToken: usdc,
    })
    expect(input.fromAmount).toBeUndefined()
    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(onNext).toHaveBeenCalledOnce()
  })

  it('keeps Next off while quoting and when the quote is above the balance', async () => {
    const pending: ((route: RouteResult) => void)[] = []
    const build = vi.fn(() => new Promise<RouteResult>((done) => pending.push(done)))
    renderStep({ balance: 10n ** 15n, build })
    expect(await screen.findByText('Quoting…')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true)
    await waitFor(() => expect(build).toHaveBeenCalled())
    pending[0]?.(quote())
    expect(await screen.findByText('Amount exceeds available balance.')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true)
  })

  it("shows the route's refusal instead of a quote", async () => {
    renderStep({
      balance: 10n ** 18n,
      build: async () =>
        Promise.reject(new Error('No liquidity on Base to buy 12.5 USDC: pay in another token.')),
    })
    expect(
      await screen.findByText('No liquidity on Base to buy 12.5 USDC: pay in another token.'),
    ).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true)
  })
})
