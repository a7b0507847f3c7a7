import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { useAuthModalStore } from '../auth/auth-modal-store'
import { ExportWalletDialog } from './export-wallet-dialog'

const wallet = vi.hoisted(() => ({
  status: 'CONNECTED' as string,
  exportWalletInto: vi.fn<(container: HTMLElement, kind: string, theme: string) => Promise<void>>(),
}))
vi.mock('../auth/wallet-session', () => ({
  useWalletStatus: () => wallet.status,
  exportWalletInto: wallet.exportWalletInto,
}))

beforeEach(() => {
  wallet.status = 'CONNECTED'
  wallet.exportWalletInto.mockReset()
  useAuthModalStore.setState({ isOpen: false, purpose: 'navigate' })
})

describe('export wallet dialog', () => {
  it('exports the seed phrase by default into a container inside the dialog', async () => {
    wallet.exportWalletInto.mockImplementation(async (container) => {
      const frame = document.createElement('iframe')
      frame.title = 'Wallet export'
      container.append(frame)
    })
    render(<ExportWalletDialog open onOpenChange={() => {}} />)
    const dialog = await screen.findByRole('dialog', { name: 'Export wallet' })
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Seed phrase' }).checked).toBe(true)

    fireEvent.click(screen.getByRole('button', { name: 'Show seed phrase' }))
    await screen.findByRole('button', { name: 'Done' })
    const [container, kind, theme] = wallet.exportWalletInto.mock.calls[0] ?? []
    expect(kind).toBe('SEED_PHRASE')
    expect(theme).toBe('light')
    expect(dialog.contains(container ?? null)).toBe(true)
    expect(dialog.querySelector('iframe[title="Wallet export"]')).not.toBeNull()
  })

  it('exports the private key when chosen', async () => {
    wallet.exportWalletInto.mockResolvedValue()
    render(<ExportWalletDialog open onOpenChange={() => {}} />)
    fireEvent.click(await screen.findByRole('radio', { name: 'Private key' }))
    fireEvent.click(screen.getByRole('button', { name: 'Show private key' }))
    await waitFor(() => expect(wallet.exportWalletInto).toHaveBeenCalledTimes(1))
    expect(wallet.exportWalletInto.mock.calls[0]?.[1]).toBe('PRIVATE_KEY')
  })

  it('shows a failed export and empties the frame container', async () => {
    wallet.exportWalletInto.mockImplementation(async (container) => {
      container.append(document.createElement('iframe'))
      throw new Error('Failed to inject wallet export bundle')
    })
    render(<ExportWalletDialog open onOpenChange={() => {}} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Show seed phrase' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to inject wallet export bundle')
    expect(screen.getByRole('dialog').querySelector('iframe')).toBeNull()
  })

  it('asks to sign in again when the wallet session has ended', async () => {
    wallet.status = 'DISCONNECTED'
    const onOpenChange = vi.fn()
    render(<ExportWalletDialog open onOpenChange={onOpenChange} />)
    expect(
      await screen.findByText('Your wallet session has ended. Sign in again to export your wallet.'),
    ).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Show seed phrase' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Sign in again' }))
    expect(onOpenChange).toHaveBeenCalledWith(false)
    expect(useAuthModalStore.getState()).toMatchObject({ isOpen: true, purpose: 'stay' })
  })
})
