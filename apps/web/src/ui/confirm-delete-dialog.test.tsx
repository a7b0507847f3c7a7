import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { ConfirmDeleteDialog } from './confirm-delete-dialog'

function Harness({ onConfirm }: { onConfirm: () => Promise<void> }) {
  const [open, setOpen] = useState(true)
  return (
    <ConfirmDeleteDialog
      open={open}
      onOpenChange={setOpen}
      title="Delete Link"
      description="Are you sure you want to delete this link? This action cannot be undone."
      onConfirm={onConfirm}
    />
  )
}

describe('delete-confirm dialog', () => {
  it('shows the caller title and description with Cancel and Delete, focus on Cancel', async () => {
    render(<Harness onConfirm={vi.fn(async () => {})} />)
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Link' })
    expect(dialog.textContent).toContain(
      'Are you sure you want to delete this link? This action cannot be undone.',
    )
    expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }))
  })

  it('closes on Escape without deleting', async () => {
    const onConfirm = vi.fn(async () => {})
    render(<Harness onConfirm={onConfirm} />)
    const dialog = await screen.findByRole('alertdialog')
    fireEvent.keyDown(dialog, { key: 'Escape' })
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(onConfirm).not.toHaveBeenCalled()
  })

  it('runs the delete on Delete and then closes', async () => {
    const onConfirm = vi.fn(async () => {})
    render(<Harness onConfirm={onConfirm} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(onConfirm).toHaveBeenCalledTimes(1)
  })
})
