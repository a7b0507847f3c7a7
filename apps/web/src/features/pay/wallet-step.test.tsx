import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { WalletStep, type WalletStepProps } from './wallet-step'

function renderStep(overrides: Partial<WalletStepProps> = {}) {
  const props: WalletStepProps = {
    detected: [],
    pendingId: null,
    walletConnectDisabledReason: 'WalletConnect is not configured on this server.',
    onConnectDetected: () => undefined,
    onSelectCatalogue: () => undefined,
    onWalletConnect: () => undefined,
    ...overrides,
  }
  return render(<WalletStep {...props} />)
}

describe('WalletStep', () => {
  it('says when the browser has no wallet and lists the catalogue', () => {
    renderStep()
    expect(screen.getByText('No browser wallets detected.')).toBeTruthy()
    expect(screen.getByText('Detected Wallets')).toBeTruthy()
    expect(screen.getByRole('button', { name: /^MetaMask/ })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Continue with WalletConnect' })).toHaveProperty(
      'disabled',
      true,
    )
  })

  it('connects a detected wallet, named with its Detected badge', async () => {
    const user = userEvent.setup()
    const onConnectDetected = vi.fn()
    renderStep({
      detected: [{ id: 'w1', name: 'Test Wallet', rdns: 'dev.quicklinks.testwallet' }],
      onConnectDetected,
    })
    await user.click(screen.getByRole('button', { name: 'Test Wallet Detected' }))
    expect(onConnectDetected).toHaveBeenCalledWith(expect.objectContaining({ id: 'w1' }))
  })

  it('shows Connecting… on the wallet being connected', () => {
    renderStep({ detected: [{ id: 'w1', name: 'Test Wallet' }], pendingId: 'w1' })
    expect(screen.getByRole('button', { name: /Test Wallet Connecting…/ })).toHaveProperty('disabled', true)
  })

  it('filters both lists by the search', async () => {
    const user = userEvent.setup()
    renderStep({ detected: [{ id: 'w1', name: 'Test Wallet' }] })
    await user.type(screen.getByRole('searchbox', { name: 'Search wallets…' }), 'rab')
    expect(screen.getByRole('button', { name: /^Rabby/ })).toBeTruthy()
    expect(screen.queryByRole('button', { name: /^MetaMask/ })).toBeNull()
    expect(screen.getByText('No browser wallets detected.')).toBeTruthy()
  })

  it('collapses the popular wallets', async () => {
    const user = userEvent.setup()
    renderStep()
    await user.click(screen.getByRole('button', { name: 'Popular Wallets' }))
    expect(screen.queryByRole('button', { name: /^MetaMask/ })).toBeNull()
  })

  it('says why WalletConnect is off, under the disabled button and as its description', async () => {
    const user = userEvent.setup()
    const onWalletConnect = vi.fn()
    renderStep({ onWalletConnect })
    const button = screen.getByRole('button', {
      name: 'Continue with WalletConnect',
      description: 'WalletConnect is not configured on this server.',
    })
    expect(button).toHaveProperty('disabled', true)
    await user.click(button)
    expect(onWalletConnect).not.toHaveBeenCalled()
  })

  it('offers WalletConnect when configured, with no reason shown', async () => {
    const user = userEvent.setup()
    const onWalletConnect = vi.fn()
    renderStep({ walletConnectDisabledReason: null, onWalletConnect })
    const button = screen.getByRole('button', { name: 'Continue with WalletConnect' })
    expect(button).toHaveProperty('disabled', false)
    expect(screen.queryByText('WalletConnect is not configured on this server.')).toBeNull()
    await user.click(button)
    expect(onWalletConnect).toHaveBeenCalledOnce()
  })

  it('shows Connecting… on WalletConnect while it connects', () => {
    renderStep({ walletConnectDisabledReason: null, pendingId: 'walletconnect' })
    expect(screen.getByRole('button', { name: /Connecting…/ })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Continue with WalletConnect' })).toBeNull()
  })
})
