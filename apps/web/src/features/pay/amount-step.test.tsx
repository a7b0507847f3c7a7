import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { AmountStep } from './amount-step'
import type { AmountUnit } from './pay-amount'

function Harness({
  balance,
  usdPrice = 1,
  onNext = () => undefined,
}: {
  balance: bigint | null
  usdPrice?: number | null
  onNext?: () => void
}) {
  const [text, setText] = useState('')
  const [unit, setUnit] = useState<AmountUnit>('TOKEN')
  return (
    <AmountStep
      token={{ symbol: 'USDC', decimals: 6, usdPrice }}
      networkName="Base"
      balance={balance}
      text={text}
      unit={unit}
      onChange={(nextText, nextUnit) => {
        setText(nextText)
        setUnit(nextUnit)
      }}
      onBack={() => undefined}
      onNext={onNext}
    />
  )
}

describe('AmountStep', () => {
  it('says where the payer pays and what is available', () => {
    render(<Harness balance={12_500_000n} />)
    expect(screen.getByText("You'll pay in USDC on Base")).toBeTruthy()
    expect(screen.getByText('12.5 USDC')).toBeTruthy()
  })

  it('shows Loading… until the balance arrives', () => {
    render(<Harness balance={null} />)
    expect(screen.getByText('Loading…')).toBeTruthy()
  })

  it('disables Next with the documented message above the balance', async () => {
    const user = userEvent.setup()
    render(<Harness balance={10_000_000n} />)
    await user.type(screen.getByRole('textbox', { name: 'Amount' }), '11')
    expect(screen.getByRole('alert').textContent).toBe('Amount exceeds available balance.')
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true)
  })

  it('names a zero balance and an invalid amount', async () => {
    const user = userEvent.setup()
    const { unmount } = render(<Harness balance={0n} />)
    await user.type(screen.getByRole('textbox', { name: 'Amount' }), '1')
    expect(screen.getByRole('alert').textContent).toBe('Insufficient balance.')
    unmount()
    render(<Harness balance={10n} />)
    await user.type(screen.getByRole('textbox', { name: 'Amount' }), '0')
    expect(screen.getByRole('alert').textContent).toBe('Enter a valid amount.')
  })

  it('fills half the balance in the current unit and goes on with Next', async () => {
    const user = userEvent.setup()
    const onNext = vi.fn()
    render(<Harness balance={10_000_000n} onNext={onNext} />)
    await user.click(screen.getByRole('button', { name: '50%' }))
    expect(screen.getByRole('textbox', { name: 'Amount' })).toHaveProperty('value', '5')
    await user.click(screen.getByRole('button', { name: 'WEI' }))
    expect(screen.getByRole('textbox', { name: 'Amount' })).toHaveProperty('value', '5000000')
    expect(screen.getByRole('button', { name: 'WEI' }).getAttribute('aria-pressed')).toBe('true')
    await user.click(screen.getByRole('button', { name: 'USD' }))
    expect(screen.getByRole('textbox', { name: 'Amount' })).toHaveProperty('value', '5.00')
    await user.click(screen.getByRole('button', { name: 'MAX' }))
    expect(screen.getByRole('textbox', { name: 'Amount' })).toHaveProperty('value', '10.00')
    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(onNext).toHaveBeenCalledOnce()
  })

  it('offers no USD without a price', () => {
    render(<Harness balance={1n} usdPrice={null} />)
    expect(screen.getByRole('button', { name: 'USD' })).toHaveProperty('disabled', true)
  })

  it('takes digits only as wei', async () => {
    const user = userEvent.setup()
    render(<Harness balance={10_000_000n} />)
    await user.click(screen.getByRole('button', { name: 'WEI' }))
    await user.type(screen.getByRole('textbox', { name: 'Amount' }), '1.5')
    expect(screen.getByRole('alert').textContent).toBe('Enter a valid amount.')
  })
})
