import { act, configure, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  clearCookies,
  type RecordedRequest,
  sendJson,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../../../test/test-server'
import { AppProviders } from '../../app/providers'
import { createQueryClient } from '../../app/query-client'
import { createApiClient } from '../../lib/api-client'
import { dismissToast } from '../../ui/use-toast'
import { useAuthModalStore } from '../auth/auth-modal-store'
import { sessionKeys } from '../auth/session'
import { desiredUsernameStorageKey } from './desired-username-storage'
import { usernameLookupDebounceMs } from './use-username-availability'
import { UsernameClaimScreen } from './username-claim-screen'

// Lookups wait 350 ms before a real HTTP round trip; leave room when the machine is busy.
configure({ asyncUtilTimeout: 3000 })

let server: TestServer
let signedIn = false
/** Names the server says are taken, and per-name answer delays in ms. */
let taken = new Set<string>()
let delays = new Map<string, number>()
let failLookups = false
/** Names whose lookup the server has answered, in order (the client may have stopped listening). */
let answeredLookups: string[] = []
const user = {
  id: '5f0c7a52-3b1e-4c9a-9d2f-8e6b1a4c7d30',
  address: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
  email: null,
  username: null,
  createdAt: '2026-01-01T00:00:00.000Z',
}

const fifthOfMarch2026 = () => new Date(2026, 2, 5, 12, 0, 0)

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  signedIn = false
  taken = new Set(['ada'])
  delays = new Map()
  failLookups = false
  answeredLookups = []
  useAuthModalStore.setState({ isOpen: false, purpose: 'navigate' })
  setPageUrl(`${server.origin}/username`)
  clearCookies()
  server.requests.length = 0
  server.handle((request: RecordedRequest, response) => {
    const exists = /^\/api\/users\/username\/([^/]+)\/exists$/.exec(request.path)
    if (request.path === '/health') {
      sendJson(response, 200, {}, { 'Set-Cookie': 'csrf_token=t; Path=/' })
    } else if (request.path === '/api/auth/me') {
      if (signedIn) sendJson(response, 200, { data: user })
      else
        sendJson(response, 401, { error: { code: 'UNAUTHORIZED', message: 'Please sign in to continue.' } })
    } else if (exists !== null) {
      const name = decodeURIComponent(exists[1] ?? '')
      if (failLookups) {
        sendJson(response, 500, { error: { code: 'INTERNAL', message: 'Something went wrong.' } })
        return
      }
      const answer = () => {
        sendJson(response, 200, { exists: taken.has(name.toLowerCase()) })
        answeredLookups.push(name)
      }
      // At once unless delayed: tests that fake setTimeout for the debounce still get answers.
      const delay = delays.get(name)
      if (delay === undefined) answer()
      else setTimeout(answer, delay)
    } else if (request.method === 'POST' && request.path === '/api/users/username') {
      const { username } = JSON.parse(request.body) as { username: string }
      if (taken.has(username.toLowerCase())) {
        sendJson(response, 409, { error: { code: 'CONFLICT', message: 'That username is taken.' } })
        return
      }
      sendJson(response, 200, { data: { ...user, username } })
    } else {
      sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
    }
  })
})
afterEach(() => {
  act(() => dismissToast())
})

function renderScreen() {
  const queryClient = createQueryClient()
  const client = createApiClient({ baseUrl: server.origin })
  const router = createMemoryRouter(
    [
      { path: '/username', element: <UsernameClaimScreen client={client} now={fifthOfMarch2026} /> },
      { path: '/settings', element: <h1>Settings</h1> },
    ],
    { initialEntries: ['/username'] },
  )
  render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  )
  return { router, queryClient }
}

const lookups = () => server.requests.filter((request) => request.path.endsWith('/exists'))
const searchBox = () => screen.getByRole('searchbox', { name: 'Search for your 0x Username' })
const type = (value: string) => fireEvent.change(searchBox(), { target: { value } })
/**
 * Fakes only the debounce's clock (the test server and HTTP stay real). Testing Library's findBy*
 * and waitFor need real timers, so a test fakes them only around the steps it times.
 */
const fakeDebounceTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
const advanceBy = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))

describe('username claim screen', () => {
  it('looks a name up once, 350 ms after the last keystroke', async () => {
    renderScreen()
    await screen.findByRole('heading', { name: 'Claim Your Username' })
    fakeDebounceTimers()
    try {
      for (const value of ['gr', 'gra', 'grac', 'grace']) {
        type(value)
        await advanceBy(100)
      }
      // A lookup shows Checking… the moment it starts, before its request leaves.
      await advanceBy(usernameLookupDebounceMs - 101)
      expect(screen.queryByText('Checking…')).toBeNull()
      expect(lookups()).toHaveLength(0)
      await advanceBy(1)
      expect(screen.getByText('Checking…')).toBeTruthy()
    } finally {
      // Testing Library's findBy* waits on real timers.
      vi.useRealTimers()
    }
    expect(await screen.findByText('@grace is available!')).toBeTruthy()
    expect(lookups().map((request) => request.path)).toEqual(['/api/users/username/grace/exists'])
  })

  it('saves an available name, shows it with the reserve countdown from 72:56:27, and ticks', async () => {
    renderScreen()
    type('grace')
    await screen.findByText('@grace is available!')
    // Saved by the effect that follows the render showing the message.
    await waitFor(() => expect(localStorage.getItem(desiredUsernameStorageKey)).toBe('grace'))
    const reserved = await screen.findByRole('region', { name: 'Selected username' })
    expect(reserved.textContent).toContain('@grace')
    expect(reserved.textContent).toContain('Reserve expires in72:56:27')
    await waitFor(() => expect(reserved.textContent).toContain('72:56:26'), { timeout: 2000 })
  })

  it('offers suggestions for a taken name and forgets the saved name', async () => {
    localStorage.setItem(desiredUsernameStorageKey, 'older')
    taken.add('older')
    renderScreen()
    await screen.findByText('That handle is taken. Try one:')
    type('ada')
    await waitFor(() => expect(lookups().at(-1)?.path).toBe('/api/users/username/ada/exists'))
    const chips = await screen.findByRole('list', { name: 'Suggestions' })
    await waitFor(() => expect(chips.textContent).toBe('@ada2026@ada123@ada_official@ada0305'))
    await waitFor(() => expect(localStorage.getItem(desiredUsernameStorageKey)).toBeNull())
    expect(screen.queryByRole('region', { name: 'Selected username' })).toBeNull()
  })

  it('selects a suggestion directly when clicked', async () => {
    renderScreen()
    type('ada')
    fireEvent.click(await screen.findByRole('button', { name: '@ada123' }))
    expect((await screen.findByRole('region', { name: 'Selected username' })).textContent).toContain(
      '@ada123',
    )
    expect(localStorage.getItem(desiredUsernameStorageKey)).toBe('ada123')
    expect((searchBox() as HTMLInputElement).value).toBe('ada123')
    expect(await screen.findByText('@ada123 is available!')).toBeTruthy()
  })

  it('lets the newest lookup win when an older answer arrives later', async () => {
    delays.set('slowname', 400)
    taken.add('fastname')
    renderScreen()
    type('slowname')
    fireEvent.submit(searchBox())
    await waitFor(() => expect(lookups()).toHaveLength(1))
    type('fastname')
    fireEvent.submit(searchBox())
    expect(await screen.findByText('That handle is taken. Try one:')).toBeTruthy()
    // The server sends the older answer; a later round trip to the same server ends after it would
    // have arrived, and act lets React apply whatever it would have set.
    await waitFor(() => expect(answeredLookups).toContain('slowname'))
    await act(async () => {
      await fetch(`${server.origin}/health`)
    })
    expect(screen.queryByText('@slowname is available!')).toBeNull()
    expect(screen.getByText('That handle is taken. Try one:')).toBeTruthy()
  })

  it('clears everything under 3 characters', async () => {
    renderScreen()
    type('grace')
    await screen.findByText('@grace is available!')
    fakeDebounceTimers()
    try {
      type('gr')
      expect(screen.queryByText('@grace is available!')).toBeNull()
      expect(screen.queryByRole('region', { name: 'Selected username' })).toBeNull()
      // Past the debounce no lookup starts: one would show Checking… before its request leaves.
      await advanceBy(usernameLookupDebounceMs)
      expect(screen.queryByText('Checking…')).toBeNull()
      expect(lookups()).toHaveLength(1)
    } finally {
      vi.useRealTimers()
    }
  })

  it('says when availability cannot be checked', async () => {
    failLookups = true
    renderScreen()
    type('grace')
    expect(await screen.findByText('Could not check availability. Please try again.')).toBeTruthy()
  })

  it('needs the terms box before Claim Now; signed in it claims and goes to Settings', async () => {
    signedIn = true
    const { router } = renderScreen()
    type('grace')
    await screen.findByText('@grace is available!')
    const claimNow = (await screen.findByRole('button', { name: 'Claim Now' })) as HTMLButtonElement
    expect(claimNow.disabled).toBe(true)
    fireEvent.click(screen.getByRole('checkbox', { name: /Terms of Service/ }))
    expect(claimNow.disabled).toBe(false)
    fireEvent.click(claimNow)
    expect(await screen.findByText('Username claimed')).toBeTruthy()
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'))
    const claim = server.requests.find((request) => request.path === '/api/users/username')
    expect(claim?.method).toBe('POST')
    expect(JSON.parse(claim?.body ?? '{}')).toEqual({ username: 'grace' })
    expect(localStorage.getItem(desiredUsernameStorageKey)).toBeNull()
  })

  it('shows the server refusal when the name was taken meanwhile', async () => {
    signedIn = true
    renderScreen()
    type('grace')
    await screen.findByText('@grace is available!')
    taken.add('grace')
    fireEvent.click(screen.getByRole('checkbox', { name: /Terms of Service/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Claim Now' }))
    expect((await screen.findByRole('alert')).textContent).toBe('That username is taken.')
  })

  it('signed out, Claim Now opens sign-in and claims the saved name once signed in', async () => {
    const { router, queryClient } = renderScreen()
    type('grace')
    await screen.findByText('@grace is available!')
    fireEvent.click(screen.getByRole('checkbox', { name: /Terms of Service/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Claim Now' }))
    expect(useAuthModalStore.getState().isOpen).toBe(true)
    expect(screen.getByRole('button', { name: 'Opening…' })).toBeTruthy()
    expect(server.requests.some((request) => request.path === '/api/users/username')).toBe(false)

    // The sign-in completes on this screen (the modal's 'stay' purpose sets the session).
    signedIn = true
    act(() => {
      queryClient.setQueryData(sessionKeys.me(), user)
      useAuthModalStore.getState().close()
    })
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'))
    const claim = server.requests.find((request) => request.path === '/api/users/username')
    expect(JSON.parse(claim?.body ?? '{}')).toEqual({ username: 'grace' })
  })

  it('gives Claim Now back when the sign-in is closed without signing in', async () => {
    renderScreen()
    type('grace')
    await screen.findByText('@grace is available!')
    fireEvent.click(screen.getByRole('checkbox', { name: /Terms of Service/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Claim Now' }))
    await screen.findByRole('button', { name: 'Opening…' })
    act(() => useAuthModalStore.getState().close())
    expect(await screen.findByRole('button', { name: 'Claim Now' })).toBeTruthy()
  })
})
