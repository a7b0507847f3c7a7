import { render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { lazyOnIntent, MountOnFirstOpen } from './lazy-on-open'

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
  return { dialog: lazyOnIntent<Props>(load), load, release }
}

describe('lazyOnIntent and MountOnFirstOpen', () => {
  it('load nothing until first opened, show a named spinner meanwhile, then stay mounted', async () => {
    const { dialog, load, release } = setUp()
    const Lazy = dialog.Component
    const at = (open: boolean) => (
      <MountOnFirstOpen open={open} loadingLabel="Opening it">
        <Lazy open={open} label="Deposit" />
      </MountOnFirstOpen>
    )
    const view = render(at(false))
    expect(load).not.toHaveBeenCalled()
    expect(view.container.innerHTML).toBe('')

    view.rerender(at(true))
    expect(load).toHaveBeenCalledTimes(1)
    expect(screen.getByRole('status', { name: 'Opening it' })).toBeTruthy()
    release()
    expect(await screen.findByText('Deposit open')).toBeTruthy()

    view.rerender(at(false))
    expect(screen.getByText('Deposit closed')).toBeTruthy()
  })

  it('fetch the code on a pointer over, a finger on, or focus on its button, without opening', () => {
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
