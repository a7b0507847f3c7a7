import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { sendJson, setPageUrl, startTestServer, type TestServer } from '../../../test/test-server'
import { AppProviders } from '../../app/providers'
import { createQueryClient } from '../../app/query-client'
import { dismissToast } from '../../ui/use-toast'
import type { SessionUser } from '../auth/session'
import { SettingsScreen } from './settings-screen'

// The signer user's Solana address, as the SDK's store holds it (null: an account without one).
const signer = vi.hoisted(() => ({ solanaAddress: null as string | null }))

vi.mock('../auth/wallet-session', () => ({
  logoutWallet: vi.fn(async () => {}),
  useWalletStatus: () => 'CONNECTED',
  useWalletSolanaAddress: () => signer.solanaAddress,
  exportWalletInto: vi.fn(async () => {}),
  // The signer's contacts: the e-mail was changed since the app session began.
  listWalletAuthMethods: vi.fn(async () => ({
    email: 'ada.new@example.com',
    phone: '+14155550100',
    passkeys: [],
    oauthProviders: [],
  })),
}))

const address = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F'
const createdAt = '2026-01-01T00:00:00.000Z'
let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})
afterEach(() => {
  signer.solanaAddress = null
  act(() => dismissToast())
})

/** Renders /settings for `user`, as GET /api/auth/me answers it. */
function renderSettings(user: SessionUser) {
  setPageUrl(`${server.origin}/settings`)
  server.handle((request, response) => {
    if (request.path === '/api/auth/me') sendJson(response, 200, { data: user })
    else sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
  })
  const queryClient = createQueryClient()
  const router = createMemoryRouter([{ path: '/settings', element: <SettingsScreen /> }], {
    initialEntries: ['/settings'],
  })
  render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  )
}

function accountRow(label: string): HTMLElement {
  const term = screen.getByText(label, { selector: 'dt' })
  const row = term.parentElement
  if (row === null) throw new Error(`no row for ${label}`)
  return row
}

describe('settings', () => {
  it('invites a user without a username to claim one', async () => {
    renderSettings({
      id: '5f0c7a52-3b1e-4c9a-9d2f-8e6b1a4c7d30',
      address,
      email: 'ada@example.com',
      username: null,
      createdAt,
    })
    await screen.findByText('0x71C7…976F')
    const link = within(accountRow('Username')).getByRole('link', { name: 'Claim a username' })
    expect(link.getAttribute('href')).toBe('/username')
  })

  it("shows the user's username with a way to change it, the wallet address, theme, export and logout", async () => {
    renderSettings({
      id: '5f0c7a52-3b1e-4c9a-9d2f-8e6b1a4c7d30',
      address,
      email: 'ada@example.com',
      username: 'ada_l',
      createdAt,
    })
    await screen.findByText('0x71C7…976F')
    const row = accountRow('Username')
    expect(within(row).getByText('@ada_l')).toBeTruthy()
    expect(within(row).getByRole('link', { name: 'Change username' }).getAttribute('href')).toBe('/username')
    expect(within(accountRow('Wallet address')).getByText('0x71C7…976F')).toBeTruthy()
    expect(screen.getByRole('group', { name: 'Appearance' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Export wallet' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy()
    // The account shows the signer's current e-mail, not the one the app session began with.
    expect(await within(accountRow('Email')).findByText('ada.new@example.com')).toBeTruthy()
    expect(screen.queryByText('ada@example.com')).toBeNull()
    const methods = screen.getByRole('region', { name: 'Sign-in methods' })
    expect(await within(methods).findByText('+14155550100')).toBeTruthy()
    expect(within(methods).getByRole('button', { name: 'Change phone number' })).toBeTruthy()
  })

  it("shows the user's Solana address masked 6…4, in full on hover, and copies it in full", async () => {
    const solanaAddress = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'
    signer.solanaAddress = solanaAddress
    renderSettings({
      id: '5f0c7a52-3b1e-4c9a-9d2f-8e6b1a4c7d30',
      address,
      email: 'ada@example.com',
      username: 'ada_l',
      createdAt,
    })
    await screen.findByText('0x71C7…976F')
    const row = accountRow('Solana address')
    const masked = within(row).getByText('7EcDhS…FLtV')
    expect(masked.getAttribute('title')).toBe(solanaAddress)
    // Masked on the page: the middle of the address is nowhere in the text.
    expect(document.body.textContent).not.toContain(solanaAddress.slice(6, -4))
    const copy = within(row).getByRole('button', { name: 'Copy Solana address' })
    // Screen readers hear the full address as the button's description.
    expect(copy.getAttribute('title')).toBe(solanaAddress)
    fireEvent.click(copy)
    expect(await screen.findByText('Address Copied')).toBeTruthy()
    expect(screen.getByText('Your Solana address has been copied to your clipboard.')).toBeTruthy()
    expect(await navigator.clipboard.readText()).toBe(solanaAddress)
    // The wallet (EVM) address keeps its own row and copy button.
    expect(within(accountRow('Wallet address')).getByRole('button', { name: 'Copy address' })).toBeTruthy()
  })

  it('shows no Solana row for an account without a Solana address', async () => {
    renderSettings({
      id: '5f0c7a52-3b1e-4c9a-9d2f-8e6b1a4c7d30',
      address,
      email: 'ada@example.com',
      username: 'ada_l',
      createdAt,
    })
    await screen.findByText('0x71C7…976F')
    expect(screen.queryByText('Solana address')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Copy Solana address' })).toBeNull()
  })
})
