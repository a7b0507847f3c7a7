import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { Dialog, DialogClose } from './dialog'

function Harness() {
  const [open, setOpen] = useState(true)
  return (
    <Dialog open={open} onOpenChange={setOpen} title="Share link" description="Anyone with the link can pay.">
      <DialogClose>
        <button type="button">Done</button>
      </DialogClose>
    </Dialog>
  )
}

describe('dialog', () => {
  it('is named by its title and described by its description', async () => {
    render(<Harness />)
    const dialog = await screen.findByRole('dialog', { name: 'Share link' })
    const descriptionId = dialog.getAttribute('aria-describedby')
    expect(descriptionId && document.getElementById(descriptionId)?.textContent).toBe(
      'Anyone with the link can pay.',
    )
  })

  it('closes on Escape', async () => {
    render(<Harness />)
    fireEvent.keyDown(await screen.findByRole('dialog'), { key: 'Escape' })
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('closes from its close button and from a DialogClose inside it', async () => {
    const { unmount } = render(<Harness />)
    fireEvent.click(await screen.findByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    unmount()
    render(<Harness />)
    fireEvent.click(await screen.findByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })
})
