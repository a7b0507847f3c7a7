import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  clearCookies,
  type RecordedRequest,
  sendJson,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../../test/test-server'
import { useAuthModalStore } from '../features/auth/auth-modal-store'
import { markNewUser, newUserStorageKey } from '../features/auth/post-sign-in'
import { AppProviders } from './providers'
import { createQueryClient } from './query-client'
import { appRoutes } from './router'

const wallet = vi.hoisted(() => ({ logoutWallet: vi.fn(async () => {}) }))
vi.mock('../features/auth/wallet-session', () => ({
  ...wallet,
  useWalletStatus: () => 'DISCONNECTED',
  useWalletSolanaAddress: () => null,
  WalletSessionError: class WalletSessionError extends Error {},
  // Settings' sign-in methods and the sign-in panel's providers read the wallet; none here.
  listWalletAuthMethods: vi.fn(async () => ({ email: null, phone: null, passkeys: [], oauthProviders: [] })),
  loadSignerStore: vi.fn(() => new Promise(() => {})),
}))

let server: TestServer
let signedIn = false
const user = {
  id: '5f0c7a52-3b1e-4c9a-9d2f-8e6b1a4c7d30',
  address: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
  email: 'ada@example.com',
  username: null,
  createdAt: '2026-01-01T00:00:00.000Z',
}

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  signedIn = false
  // /login opens the (global) auth modal: each test starts with it closed.
  useAuthModalStore.setState({ isOpen: false, hasOpened: false, purpose: 'navigate' })
  sessionStorage.clear()
  wallet.logoutWallet.mockClear()
  setPageUrl(`${server.origin}/`)
  clearCookies()
  server.requests.length = 0
  server.handle((request: RecordedRequest, response) => {
    if (request.path === '/health') {
      sendJson(response, 200, {}, { 'Set-Cookie': 'csrf_token=t; Path=/' })
    } else if (request.path === '/api/auth/me') {
      if (signedIn) sendJson(response, 200, { data: user })
      else
        sendJson(response, 401, { error: { code: 'UNAUTHORIZED', message: 'Please sign in to continue.' } })
    } else if (request.path === '/api/auth/logout') {
      signedIn = false
      sendJson(response, 200, { data: { ok: true } })
    } else {
      sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
    }
  })
})

function renderAt(path: string) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] })
  render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  )
  return router
}

describe('routes and guards', () => {
  it('sends a signed-out visitor from /dashboard to / (replace)', async () => {
    const router = renderAt('/dashboard')

    await screen.findByRole('heading', { name: 'Get paid in crypto with a simple link.' })
    expect(router.state.location.pathname).toBe('/')
    expect(router.state.historyAction).toBe('REPLACE')
    expect(server.requests.some((request) => request.path === '/api/auth/me')).toBe(true)
    expect(screen.queryByRole('heading', { name: 'Links' })).toBeNull()
  })

  it('sends a signed-out visitor from /settings and /onboarding to /', async () => {
    const settings = renderAt('/settings')
    await waitFor(() => expect(settings.state.location.pathname).toBe('/'))
    const onboarding = renderAt('/onboarding')
    await waitFor(() => expect(onboarding.state.location.pathname).toBe('/'))
  })

  it('shows the signed-out chrome: Sign in, footer with version, no bottom navigation', async () => {
    renderAt('/')
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy()
    expect(screen.getByText('Secured by Quick Links · v0.0.0-test')).toBeTruthy()
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull()
  })

  it('sends a signed-in user from / to /dashboard, with the bottom navigation', async () => {
    signedIn = true
    const router = renderAt('/')

    await screen.findByRole('heading', { name: 'Links' })
    expect(router.state.location.pathname).toBe('/dashboard')
    const nav = screen.getByRole('navigation', { name: 'Main' })
    expect(nav.querySelector('[aria-current="page"]')?.textContent).toBe('Links')
  })

  it('shows /login as the landing page under the sign-in modal, and leaves for / when it closes', async () => {
    const router = renderAt('/login')
    expect(await screen.findByRole('dialog', { name: 'Sign in' })).toBeTruthy()
    expect(router.state.location.pathname).toBe('/login')
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
  })

  it('sends a signed-in user from /login to the caller-supplied target', async () => {
    signedIn = true
    const router = renderAt('/login?next=%2Fsettings')

    await screen.findByRole('heading', { name: 'Settings' })
    expect(router.state.location.pathname).toBe('/settings')
  })

  it('ignores a target outside the app', async () => {
    signedIn = true
    const router = renderAt('/login?next=%2F%2Fevil.example')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
  })

  it('shows /onboarding to a user who has just signed up in this tab', async () => {
    signedIn = true
    markNewUser(user.address)
    const router = renderAt('/onboarding')
    await screen.findByRole('heading', { name: 'Welcome to Quick Links' })
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Continue to dashboard' }))
    await screen.findByRole('heading', { name: 'Links' })
    expect(router.state.location.pathname).toBe('/dashboard')
    expect(sessionStorage.getItem(newUserStorageKey)).toBeNull()
  })

  it('sends any other signed-in user from /onboarding to /dashboard', async () => {
    signedIn = true
    markNewUser('0x0000000000000000000000000000000000000001')
    const router = renderAt('/onboarding')
    await screen.findByRole('heading', { name: 'Links' })
    expect(router.state.location.pathname).toBe('/dashboard')
    expect(router.state.historyAction).toBe('REPLACE')
  })

  it('logs out: wallet first, then POST /api/auth/logout with the CSRF token, then back to / signed out', async () => {
    signedIn = true
    markNewUser(user.address)
    const router = renderAt('/dashboard')
    fireEvent.click(await screen.findByRole('button', { name: 'Logout' }))

    await screen.findByRole('heading', { name: 'Get paid in crypto with a simple link.' })
    expect(router.state.location.pathname).toBe('/')
    // The page reads signed out before the server is told (docs/product.md#logout).
    const logout = await vi.waitFor(() => {
      const sent = server.requests.find((request) => request.path === '/api/auth/logout')
      expect(sent?.method).toBe('POST')
      return sent
    })
    expect(logout?.headers['x-csrf-token']).toBe('t')
    expect(wallet.logoutWallet).toHaveBeenCalledTimes(1)
    expect(sessionStorage.getItem(newUserStorageKey)).toBeNull()
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull()
  })

  it('redirects a top-level slug to its pay page, which says an unknown link is unavailable', async () => {
    const router = renderAt('/My%20Shop')

    await screen.findByRole('heading', { name: 'This link is unavailable' })
    expect(router.state.location.pathname).toBe('/pay/my-shop')
    expect(server.requests.some((request) => request.path === '/api/pay/links/my-shop')).toBe(true)
  })

  it('shows a pay page for a link the server returns', async () => {
    server.handle((request, response) => {
      if (request.path === '/api/pay/links/coffee') {
        sendJson(response, 200, {
          data: {
            id: '7c1e2b4a-9d3f-4e5a-8b6c-0d1e2f3a4b5c',
            link_type: 'Payment Link',
            alias: 'Coffee Fund',
            alias_slug: 'coffee',
            receiver_address: user.address,
            chain: 'base',
            chain_id: 8453,
            token_name: 'USDC',
            token_address: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
            message: 'Thanks for supporting!',
          },
        })
      } else sendJson(response, 401, {})
    })
    renderAt('/pay/coffee')

    expect(await screen.findByRole('heading', { name: 'Coffee Fund' })).toBeTruthy()
    expect(screen.getByText('USDC on Base')).toBeTruthy()
    expect(screen.getByText('0x71C7…976F')).toBeTruthy()
  })
})
