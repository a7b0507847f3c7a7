import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { type Hex, verifyMessage } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { parseSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  clearCookies,
  sendJson,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../../../test/test-server'
import { AppProviders } from '../../app/providers'
import { createQueryClient } from '../../app/query-client'
import { appRoutes } from '../../app/router'
import { useAuthModalStore } from './auth-modal-store'
import { useAuthReturnStore } from './auth-return-params'
import { newUserStorageKey } from './post-sign-in'

const wallet = vi.hoisted(() => ({
  startEmailSignIn: vi.fn<(email: string, mode: 'otp' | 'magicLink') => Promise<void>>(),
  startSmsSignIn: vi.fn<(phone: string) => Promise<void>>(),
  submitSignInCode: vi.fn<(code: string) => Promise<{ isNewUser: boolean }>>(),
  completeMagicLinkSignIn: vi.fn<(bundle: string, orgId: string) => Promise<{ isNewUser: boolean }>>(),
  getWalletAccount: vi.fn(),
  logoutWallet: vi.fn(async () => {}),
  exportWalletInto: vi.fn(),
}))
vi.mock('./wallet-session', () => ({
  ...wallet,
  useWalletStatus: () => 'DISCONNECTED',
  WalletSessionError: class WalletSessionError extends Error {},
}))

const account = privateKeyToAccount(generatePrivateKey())
let server: TestServer
let signedIn = false
let logins: { message: string; signature: Hex }[] = []

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  signedIn = false
  logins = []
  sessionStorage.clear()
  useAuthReturnStore.setState({ params: {} })
  // /login opens the (global) auth modal: each test starts with it closed.
  useAuthModalStore.setState({ isOpen: false, hasOpened: false, purpose: 'navigate' })
  for (const mock of Object.values(wallet)) mock.mockReset()
  wallet.getWalletAccount.mockResolvedValue(account)
  setPageUrl(`${server.origin}/login`)
  clearCookies()
  server.handle((request, response) => {
    const user = {
      id: '5f0c7a52-3b1e-4c9a-9d2f-8e6b1a4c7d30',
      address: account.address.toLowerCase(),
      email: 'ada@example.com',
      username: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    }
    if (request.path === '/health') sendJson(response, 200, {}, { 'Set-Cookie': 'csrf_token=t; Path=/' })
    else if (request.path === '/api/auth/me') {
      if (signedIn) sendJson(response, 200, { data: user })
      else
        sendJson(response, 401, { error: { code: 'UNAUTHORIZED', message: 'Please sign in to continue.' } })
    } else if (request.path === '/api/auth/nonce') sendJson(response, 200, { data: { nonce: 'n0nce12345' } })
    else if (request.path === '/api/auth/login' && request.method === 'POST') {
      logins.push(JSON.parse(request.body) as { message: string; signature: Hex })
      signedIn = true
      sendJson(response, 200, { data: user })
    } else sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
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

async function sendCodeTo(email: string) {
  const user = userEvent.setup()
  await user.type(await screen.findByLabelText('Email'), email)
  await user.click(screen.getByRole('button', { name: 'Continue with email' }))
  return user
}

describe('sign-in flow', () => {
  it('explains an invalid e-mail beside the field and sends nothing', async () => {
    renderAt('/login')
    await sendCodeTo('ada@example')
    const field = screen.getByLabelText('Email')
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Enter a valid email address, like name@example.com.',
    )
    expect(field.getAttribute('aria-invalid')).toBe('true')
    expect(wallet.startEmailSignIn).not.toHaveBeenCalled()
  })

  it('signs a new user up with a pasted code, opens the app session with SIWE and shows onboarding', async () => {
    wallet.startEmailSignIn.mockResolvedValue()
    wallet.submitSignInCode.mockResolvedValue({ isNewUser: true })
    const router = renderAt('/login')
    const user = await sendCodeTo(' ada@example.com ')

    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy()
    expect(wallet.startEmailSignIn).toHaveBeenCalledWith('ada@example.com', 'otp')
    expect(screen.getByRole('button', { name: /Resend code/ }).hasAttribute('disabled')).toBe(true)
    expect(screen.getByRole('button', { name: /Resend code/ }).textContent).toContain('(0:30)')

    await user.click(screen.getByLabelText('Code'))
    await user.paste('123 456')
    expect(wallet.submitSignInCode).toHaveBeenCalledWith('123456')

    expect(await screen.findByRole('heading', { name: 'Welcome to Quick Links' })).toBeTruthy()
    expect(router.state.location.pathname).toBe('/onboarding')
    expect(logins).toHaveLength(1)
    const login = logins[0]
    if (login === undefined) throw new Error('no login')
    const message = parseSiweMessage(login.message)
    expect(message).toMatchObject({
      address: account.address,
      nonce: 'n0nce12345',
      domain: new URL(server.origin).host,
    })
    expect(
      await verifyMessage({ address: account.address, message: login.message, signature: login.signature }),
    ).toBe(true)
    expect(sessionStorage.getItem(newUserStorageKey)).toBe(account.address.toLowerCase())
  })

  it('sends a returning user to the dashboard', async () => {
    wallet.startEmailSignIn.mockResolvedValue()
    wallet.submitSignInCode.mockResolvedValue({ isNewUser: false })
    const router = renderAt('/login')
    const user = await sendCodeTo('ada@example.com')
    await user.click(await screen.findByLabelText('Code'))
    await user.keyboard('654321')
    await screen.findByRole('heading', { name: 'Links' })
    expect(router.state.location.pathname).toBe('/dashboard')
  })

  it('shows the signer’s wrong-code message next to the code and accepts a retry', async () => {
    wallet.startEmailSignIn.mockResolvedValue()
    wallet.submitSignInCode
      .mockRejectedValueOnce(
        new Error(
          '{"error":{"code":"OTP_INVALID","message":"That code is not right. You have 2 tries left."}}',
        ),
      )
      .mockResolvedValueOnce({ isNewUser: false })
    renderAt('/login')
    const user = await sendCodeTo('ada@example.com')
    const code = await screen.findByLabelText('Code')
    await user.click(code)
    await user.keyboard('111111')

    expect((await screen.findByRole('alert')).textContent).toBe(
      'That code is not right. You have 2 tries left.',
    )
    expect(code.getAttribute('aria-invalid')).toBe('true')
    expect(code.getAttribute('aria-describedby')).toContain(screen.getByRole('alert').id)

    await user.clear(code)
    await user.keyboard('222222')
    await screen.findByRole('heading', { name: 'Links' })
    expect(wallet.submitSignInCode).toHaveBeenLastCalledWith('222222')
  })

  it('offers Resend code after 30 s, sends again, and shows a refused resend beside the code', async () => {
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setTimeout', 'setInterval', 'clearInterval', 'Date'],
    })
    try {
      wallet.startEmailSignIn
        .mockResolvedValueOnce()
        .mockResolvedValueOnce()
        .mockRejectedValueOnce(
          new Error('Too many codes were sent to this address. Wait 3 minutes, then try again.'),
        )
      renderAt('/login')
      // /login shows the flow in the modal; happy-dom does not see the pointer-events Radix gives
      // the modal's layer over the body's 'none'.
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime, pointerEventsCheck: 0 })
      await user.type(await screen.findByLabelText('Email'), 'ada@example.com')
      await user.click(screen.getByRole('button', { name: 'Continue with email' }))
      const resend = await screen.findByRole('button', { name: /Resend code/ })
      expect(resend.hasAttribute('disabled')).toBe(true)

      await act(() => vi.advanceTimersByTimeAsync(30_000))
      expect(resend.hasAttribute('disabled')).toBe(false)
      expect(resend.textContent).toBe('Resend code')
      await user.click(resend)
      expect(await screen.findByText('We sent a new code.')).toBeTruthy()
      expect(wallet.startEmailSignIn).toHaveBeenCalledTimes(2)
      expect(screen.getByRole('button', { name: /Resend code/ }).textContent).toContain('(0:30)')

      await act(() => vi.advanceTimersByTimeAsync(30_000))
      await user.click(screen.getByRole('button', { name: /Resend code/ }))
      expect((await screen.findByRole('alert')).textContent).toBe(
        'Too many codes were sent to this address. Wait 3 minutes, then try again.',
      )
      expect(screen.getByRole('heading', { name: 'Check your email' })).toBeTruthy()
    } finally {
      vi.useRealTimers()
    }
  })

  it('shows a refused send (429) with the server’s message on the e-mail step', async () => {
    wallet.startEmailSignIn.mockRejectedValue(
      new Error('Too many codes were sent to this address. Wait 3 minutes, then try again.'),
    )
    renderAt('/login')
    await sendCodeTo('ada@example.com')
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many codes were sent to this address. Wait 3 minutes, then try again.',
    )
    expect(screen.getByLabelText('Email')).toBeTruthy()
  })

  it('offers a magic link, then says to check the email', async () => {
    wallet.startEmailSignIn.mockResolvedValue()
    renderAt('/login')
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com')
    await user.click(screen.getByRole('radio', { name: 'A sign-in link' }))
    await user.click(screen.getByRole('button', { name: 'Continue with email' }))
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy()
    expect(wallet.startEmailSignIn).toHaveBeenCalledWith('ada@example.com', 'magicLink')
    expect(screen.getByText(/We sent a sign-in link to/)).toBeTruthy()
  })

  it('signs in by SMS with an E.164 number', async () => {
    wallet.startSmsSignIn.mockResolvedValue()
    wallet.submitSignInCode.mockResolvedValue({ isNewUser: false })
    renderAt('/login')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Use a phone number instead' }))
    const phone = screen.getByLabelText('Phone number')
    await user.type(phone, '7700 900123')
    await user.click(screen.getByRole('button', { name: 'Send code' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Start with \+ and your country code/)
    expect(wallet.startSmsSignIn).not.toHaveBeenCalled()

    await user.clear(phone)
    await user.type(phone, '+44 7700 900123')
    await user.click(screen.getByRole('button', { name: 'Send code' }))
    expect(await screen.findByRole('heading', { name: 'Check your phone' })).toBeTruthy()
    expect(wallet.startSmsSignIn).toHaveBeenCalledWith('+447700900123')
    await user.click(screen.getByLabelText('Code'))
    await user.paste('424242')
    await screen.findByRole('heading', { name: 'Links' })
  })

  it('completes a magic link captured from the address', async () => {
    wallet.completeMagicLinkSignIn.mockResolvedValue({ isNewUser: false })
    useAuthReturnStore.setState({ params: { bundle: 'bundle-1', orgId: 'org-1' } })
    const router = renderAt('/login')
    await screen.findByRole('heading', { name: 'Links' })
    expect(wallet.completeMagicLinkSignIn).toHaveBeenCalledTimes(1)
    expect(wallet.completeMagicLinkSignIn).toHaveBeenCalledWith('bundle-1', 'org-1')
    expect(router.state.location.pathname).toBe('/dashboard')
    expect(useAuthReturnStore.getState().params).toEqual({})
  })

  it('says so when a magic link no longer works, and goes back to the form', async () => {
    wallet.completeMagicLinkSignIn.mockRejectedValue(
      new Error('This code no longer works. Request a new code.'),
    )
    useAuthReturnStore.setState({ params: { bundle: 'bundle-1', orgId: 'org-1' } })
    renderAt('/login')
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This code no longer works. Request a new code.',
    )
    fireEvent.click(screen.getByRole('button', { name: 'Back to sign in' }))
    expect(await screen.findByLabelText('Email')).toBeTruthy()
  })

  it('explains a magic link opened in another browser', async () => {
    wallet.completeMagicLinkSignIn.mockRejectedValue(new Error('Failed to inject credential bundle'))
    useAuthReturnStore.setState({ params: { bundle: 'bundle-1', orgId: 'org-1' } })
    renderAt('/login')
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This sign-in link could not be opened here. Open it in the browser where you asked for it, or request a new one.',
    )
  })

  it('sends a new user from a magic link marked as a signup to onboarding', async () => {
    wallet.completeMagicLinkSignIn.mockResolvedValue({ isNewUser: false })
    useAuthReturnStore.setState({ params: { bundle: 'bundle-1', orgId: 'org-1', isSignup: 'true' } })
    const router = renderAt('/login')
    await screen.findByRole('heading', { name: 'Welcome to Quick Links' })
    expect(router.state.location.pathname).toBe('/onboarding')
  })

  it('opens as a modal from the header and the landing page', async () => {
    setPageUrl(`${server.origin}/`)
    renderAt('/')
    fireEvent.click(await screen.findByRole('button', { name: 'Get started' }))
    await screen.findByRole('dialog', { name: 'Sign in' })
    // Passkeys work now: both buttons are there and enabled.
    expect(screen.getByRole('button', { name: 'Sign in with passkey' }).hasAttribute('disabled')).toBe(false)
    expect(screen.getByRole('button', { name: 'Create an account with a passkey' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('dialog', { name: 'Sign in' })).toBeTruthy()
  })
})
