import { render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { lazyOnOpen } from './lazy-on-open'

type Props = { open: boolean; label: string }

function Shown({ open, label }: Props) {
  return <p>{`${label} ${open ? 'open' : 'closed'}`}</p>
}

function setUp() {
  let release: () => void = () => {}
  const arrived = new Promise<void>((done) => {
    release = done
  })
  const load = vi.fn(async () => {
    await arrived
    return { default: Shown }
  })
  return { dialog: lazyOnOpen<Props>(load, 'Opening it'), load, release }
}

describe('lazyOnOpen', () => {
  it('loads nothing until first opened, shows a named spinner meanwhile, then stays mounted', async () => {
    const { dialog, load, release } = setUp()
    const view = render(<dialog.Dialog open={false} label="Deposit" />)
    expect(load).not.toHaveBeenCalled()
    expect(view.container.innerHTML).toBe('')

    view.rerender(<dialog.Dialog open label="Deposit" />)
    expect(load).toHaveBeenCalledTimes(1)
    expect(screen.getByRole('status', { name: 'Opening it' })).toBeTruthy()
    release()
    expect(await screen.findByText('Deposit open')).toBeTruthy()

    view.rerender(<dialog.Dialog open={false} label="Deposit" />)
    expect(screen.getByText('Deposit closed')).toBeTruthy()
  })

  it('fetches the code on a pointer over, a finger on, or focus on its button, without opening', () => {
    for (const handler of ['onPointerEnter', 'onPointerDown', 'onFocus'] as const) {
      const { dialog, load } = setUp()
      dialog.intentHandlers[handler]()
      expect(load, handler).toHaveBeenCalledTimes(1)
    }
    const { dialog, load } = setUp()
    dialog.preload()
    expect(load).toHaveBeenCalledTimes(1)
  })
})
