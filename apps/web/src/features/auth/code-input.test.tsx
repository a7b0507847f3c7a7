import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { CodeInput, sanitizeCode } from './code-input'

function Harness({ onComplete, initial = '' }: { onComplete: (code: string) => void; initial?: string }) {
  const [value, setValue] = useState(initial)
  return (
    <>
      <label htmlFor="code">Code</label>
      <CodeInput id="code" value={value} onChange={setValue} onComplete={onComplete} />
    </>
  )
}

const field = () => screen.getByLabelText<HTMLInputElement>('Code')

describe('code input', () => {
  it('is a one-time-code field with a numeric keypad', () => {
    render(<Harness onComplete={vi.fn()} />)
    expect(field().getAttribute('autocomplete')).toBe('one-time-code')
    expect(field().getAttribute('inputmode')).toBe('numeric')
  })

  it('submits by itself once the sixth digit is typed, and not before', async () => {
    const onComplete = vi.fn()
    const user = userEvent.setup()
    render(<Harness onComplete={onComplete} />)
    await user.click(field())
    await user.keyboard('12345')
    expect(onComplete).not.toHaveBeenCalled()
    await user.keyboard('6')
    expect(onComplete).toHaveBeenCalledTimes(1)
    expect(onComplete).toHaveBeenCalledWith('123456')
    expect(field().value).toBe('123456')
  })

  it('ignores letters and stops at six digits', async () => {
    const onComplete = vi.fn()
    const user = userEvent.setup()
    render(<Harness onComplete={onComplete} />)
    await user.click(field())
    await user.keyboard('1a2b3-4 5')
    expect(field().value).toBe('12345')
    await user.keyboard('678')
    expect(field().value).toBe('123456')
    expect(onComplete).toHaveBeenCalledTimes(1)
  })

  it('fills the whole code from a paste (spaces and a label around it) and submits it', async () => {
    const onComplete = vi.fn()
    const user = userEvent.setup()
    render(<Harness onComplete={onComplete} initial="98" />)
    await user.click(field())
    await user.paste('Your code: 482 913')
    expect(field().value).toBe('482913')
    expect(onComplete).toHaveBeenCalledTimes(1)
    expect(onComplete).toHaveBeenCalledWith('482913')
  })

  it('shows each digit in its own box', async () => {
    const user = userEvent.setup()
    const { container } = render(<Harness onComplete={vi.fn()} />)
    await user.click(field())
    await user.paste('123456')
    const boxes = container.querySelectorAll('[aria-hidden="true"] > div')
    expect([...boxes].map((box) => box.textContent)).toEqual(['1', '2', '3', '4', '5', '6'])
  })

  it('submits a complete code again on Enter (a retry after an error)', async () => {
    const onComplete = vi.fn()
    const user = userEvent.setup()
    render(<Harness onComplete={onComplete} initial="123456" />)
    await user.click(field())
    await user.keyboard('{Enter}')
    expect(onComplete).toHaveBeenCalledWith('123456')
  })
})

describe('sanitizeCode', () => {
  it('keeps the first six digits', () => {
    expect(sanitizeCode(' 12-34 56 78')).toBe('123456')
    expect(sanitizeCode('abc')).toBe('')
  })
})
