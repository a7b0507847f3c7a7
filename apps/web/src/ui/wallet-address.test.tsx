import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Toaster } from '../app/toaster'
import { dismissToast } from './use-toast'
import { WalletAddress } from './wallet-address'

const address = '0x71c7656ec7ab88b098defb751b7401b5f6d8976f'
const checksummed = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F'

afterEach(() => {
  act(() => dismissToast())
})

describe('wallet address', () => {
  it('shows the checksummed address masked 6…4', () => {
    render(<WalletAddress address={address} />)
    expect(screen.getByText('0x71C7…976F').getAttribute('title')).toBe(checksummed)
  })

  it('copies the full address, confirms in place, to screen readers and with the Address Copied toast', async () => {
    render(
      <>
        <WalletAddress address={address} />
        <Toaster />
      </>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Copy address' }))
    expect(await screen.findByText('Address Copied')).toBeTruthy()
    expect(await navigator.clipboard.readText()).toBe(checksummed)
    const live = screen.getByText('Address copied')
    expect(live.getAttribute('aria-live')).toBe('polite')
  })
})
