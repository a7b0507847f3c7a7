import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { useAuthModalStore } from '../auth/auth-modal-store'
import SelfSwapDialog from './self-swap-dialog'

const wallet = vi.hoisted(() => ({
  status: 'DISCONNECTED' as string,
  getWalletAccount: vi.fn(),
}))
vi.mock('../auth/wallet-session', () => ({
  useWalletStatus: () => wallet.status,
  getWalletAccount: wallet.getWalletAccount,
}))
const base = {
  chainId: 8453,
  networkIdentifier: 'base',
  networkName: 'Base',
  chainIconURI: '',
  type: 'evm',
  enabled: true,
  visible: true,
  nativeCurrency: { symbol: 'ETH', decimals: 18 },
}
vi.mock('../routing/use-catalogue', () => ({
  useChains: () => ({ isPending: false, isSuccess: true, data: { items: [base], error: null } }),
  useTokens: () => ({ isPending: false, data: { items: [], error: null } }),
}))

function renderDialog(onClose = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SelfSwapDialog onClose={onClose} />
    </QueryClientProvider>,
  )
  return onClose
}

beforeEach(() => {
  wallet.getWalletAccount.mockReset()
  useAuthModalStore.setState({ isOpen: false, purpose: 'navigate' })
})

describe('Self Swap dialog', () => {
  it('says the wallet session ended and re-signs in on the same screen', async () => {
    wallet.status = 'DISCONNECTED'
    const onClose = renderDialog()
    await screen.findByRole('dialog', { name: 'Swap From' })
    expect(screen.getByRole('alert').textContent).toBe('Your wallet session has ended.')
    expect(wallet.getWalletAccount).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Sign in again' }))
    expect(onClose).toHaveBeenCalled()
    expect(useAuthModalStore.getState()).toMatchObject({ isOpen: true, purpose: 'stay' })
  })

  it('waits while the wallet has not read its session yet', async () => {
    wallet.status = 'INITIALIZING'
    renderDialog()
    expect(await screen.findByRole('status', { name: 'Opening your wallet' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Sign in again' })).toBeNull()
  })
})
