import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ConfirmStep, type ConfirmStepProps } from './confirm-step'

const ready: ConfirmStepProps['route'] = {
  status: 'ready',
  key: 'k',
  intentId: `0x${'1'.repeat(64)}`,
  route: {
    transactionRequest: {
      to: `0x${'a'.repeat(40)}`,
      target: `0x${'a'.repeat(40)}`,
      data: '0x12',
      value: '0',
    },
    estimate: { fromAmount: '5', toAmount: '5', toAmountMin: '5', estimatedRouteDuration: 0, actions: [] },
    spender: null,
  },
}

function renderStep(overrides: Partial<ConfirmStepProps> = {}) {
  const props: ConfirmStepProps = {
    amount: 5_000_000n,
    token: { symbol: 'USDC', decimals: 6 },
    usdValue: 5,
    networkName: 'Base',
    receiverAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    receives: 'USDC on Base',
    isNative: false,
    spender: `0x${'a'.repeat(40)}`,
    allowance: 0n,
    isCheckingAllowance: false,
    approving: null,
    route: ready,
    messages: [],
    secondsLeft: 60,
    canConfirm: false,
    isConfirming: false,
    onApprove: () => undefined,
    onBack: () => undefined,
    onConfirm: () => undefined,
    ...overrides,
  }
  return render(<ConfirmStep {...props} />)
}

describe('ConfirmStep', () => {
  it('shows the amount, the masked receiver, the route and the countdown', () => {
    renderStep()
    expect(screen.getByText('Review the details before confirming.')).toBeTruthy()
    expect(screen.getByText('Send exactly')).toBeTruthy()
    expect(screen.getByText('5 USDC')).toBeTruthy()
    expect(screen.getByText('0x7099…79C8')).toBeTruthy()
    expect(screen.getByText('Route ready ✓')).toBeTruthy()
    expect(screen.getByText('Time left to complete payment')).toBeTruthy()
    expect(screen.getByText('1:00')).toBeTruthy()
  })

  it('says the exact amount when six decimals do not show all of it', () => {
    renderStep({ amount: 166_666_666_666_666_666n, token: { symbol: 'AVAX', decimals: 18 }, isNative: true })
    expect(screen.getByText('0.166666 AVAX')).toBeTruthy()
    expect(screen.getByText('Exactly 0.166666666666666666 AVAX')).toBeTruthy()
  })

  it('shows no extra line when the amount is shown in full', () => {
    renderStep()
    expect(screen.queryByText(/^Exactly/)).toBeNull()
  })

  it('offers both approvals when the allowance is short, and blocks the payment', () => {
    renderStep()
    expect(screen.getByRole('button', { name: 'Approve Exact' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Approve Max' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Confirm & Pay' })).toHaveProperty('disabled', true)
  })

  it('says the allowance suffices when it covers the amount', () => {
    renderStep({ allowance: 5_000_000n, canConfirm: true })
    expect(screen.getByText('Allowance sufficient ✓')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Approve Exact' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Confirm & Pay' })).toHaveProperty('disabled', false)
  })

  it('has no allowance box for the native token', () => {
    renderStep({ isNative: true, spender: null, allowance: null, token: { symbol: 'ETH', decimals: 18 } })
    expect(screen.queryByText('Spender')).toBeNull()
  })

  it('words a building and a failed route, with the other messages', () => {
    const { unmount } = renderStep({ route: { status: 'building', key: 'k' }, messages: ['Building route…'] })
    expect(screen.getByText('Building route…')).toBeTruthy()
    unmount()
    renderStep({
      route: { status: 'error', key: 'k', message: 'No liquidity.' },
      messages: ['Insufficient balance.', 'No liquidity.'],
    })
    expect(screen.getByText('Route error: No liquidity.')).toBeTruthy()
    expect(screen.getByText('Insufficient balance.')).toBeTruthy()
    expect(screen.getAllByText(/No liquidity\./)).toHaveLength(1)
  })

  it('shows the all-zero receiver as zeros', () => {
    renderStep({ receiverAddress: '0x0000000000000000000000000000000000000000' })
    expect(screen.getByText('0x0000000000000000000000000000000000000000')).toBeTruthy()
  })
})
