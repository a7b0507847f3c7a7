import { AppError } from '@quicklinks/core/app-error'
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AppProviders } from '../../app/providers'
import { createQueryClient } from '../../app/query-client'
import type { WalletAuthMethods } from '../auth/wallet-session'
import { PasskeysSection } from './passkeys-section'

// The wallet's doors (wallet-session.ts, wallet-passkeys.ts) stand in for the signer and the
// browser's WebAuthn here; the whole path runs in e2e/specs/auth-passkey.spec.ts.
type Passkey = { id: string; name: string | null; createdAt: string }
const wallet = vi.hoisted(() => ({
  passkeys: [] as { id: string; name: string | null; createdAt: string }[],
  listWalletAuthMethods: vi.fn<() => Promise<WalletAuthMethods>>(),
  addPasskey:
    vi.fn<(stepUp: unknown) => Promise<{ authenticatorId: string; name: string; createdAt: string }>>(),
  removePasskey: vi.fn<(id: string, stepUp: unknown) => Promise<void>>(),
}))
vi.mock('../auth/wallet-mfa', () => ({ listTwoFactorApps: async () => [] }))
vi.mock('../auth/wallet-session', () => ({
  useWalletStatus: () => 'CONNECTED',
  listWalletAuthMethods: wallet.listWalletAuthMethods,
}))
vi.mock('../auth/wallet-passkeys', () => ({
  addPasskey: wallet.addPasskey,
  removePasskey: wallet.removePasskey,
  describePasskeyError: () => undefined,
}))

const lastMethod = 'This is your only way to sign in. Add another one before you remove it.'

beforeEach(() => {
  wallet.passkeys = [{ id: 'cred-1', name: 'passkey-1764000000000', createdAt: '2026-01-02T10:00:00.000Z' }]
  wallet.listWalletAuthMethods.mockReset().mockImplementation(async () => ({
    email: null,
    phone: null,
    passkeys: [...wallet.passkeys],
    oauthProviders: [],
  }))
  wallet.addPasskey.mockReset().mockImplementation(async () => {
    const added: Passkey = { id: 'cred-2', name: 'Laptop', createdAt: '2026-01-03T10:00:00.000Z' }
    wallet.passkeys.push(added)
    return { authenticatorId: added.id, name: 'Laptop', createdAt: added.createdAt }
  })
  wallet.removePasskey.mockReset().mockImplementation(async (id) => {
    if (wallet.passkeys.length === 1) {
      throw new AppError('CONFLICT', { userMessage: lastMethod })
    }
    wallet.passkeys = wallet.passkeys.filter((passkey) => passkey.id !== id)
  })
})
afterEach(cleanup)

function renderSection() {
  render(
    <AppProviders queryClient={createQueryClient()}>
      <PasskeysSection />
    </AppProviders>,
  )
}

/** The step-up dialog (docs/signer.md#step-up), confirmed with one of the account's passkeys. */
async function confirmWithPasskey() {
  const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Use a passkey' }))
}

async function removeThrough(name: string) {
  fireEvent.click(screen.getByRole('button', { name: `Remove passkey ${name}` }))
  const dialog = await screen.findByRole('alertdialog', { name: 'Remove passkey' })
  fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
  await confirmWithPasskey()
}

describe('Passkeys section', () => {
  it('lists the passkeys, adds one, removes one behind the confirmation, and shows the refusal of the last', async () => {
    renderSection()
    const list = await screen.findByRole('list', { name: 'Passkeys' })
    expect(within(list).getAllByRole('listitem')).toHaveLength(1)
    expect(list.textContent).toContain('passkey-1764000000000')
    expect(list.textContent).toMatch(/Added .*2026/)

    fireEvent.click(screen.getByRole('button', { name: 'Add passkey' }))
    await confirmWithPasskey()
    expect((await screen.findByRole('status')).textContent).toBe('Passkey Laptop added.')
    expect(wallet.addPasskey).toHaveBeenCalledWith({ usePasskey: true, passkeyIds: ['cred-1'] })
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2))

    await removeThrough('passkey-1764000000000')
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1))
    expect(wallet.removePasskey).toHaveBeenCalledWith('cred-1', {
      usePasskey: true,
      passkeyIds: ['cred-1', 'cred-2'],
    })

    await removeThrough('Laptop')
    expect((await screen.findByRole('alert')).textContent).toBe(lastMethod)
    expect(within(list).getAllByRole('listitem')).toHaveLength(1)
  })
})
