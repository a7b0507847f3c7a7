import { isCancelledError, QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { MemoryRouter } from 'react-router'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  clearCookies,
  sendJson,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../../../test/test-server'
import { linksQueryOptions } from '../links/link-queries'
import { sessionKeys, sessionQueryOptions, useLogout } from './session'

vi.mock('./wallet-session', () => ({ logoutWallet: vi.fn(async () => {}) }))

// Logout while the page is still working for the user (docs/product.md#logout): a screen whose
// code was still loading asks for the session, or the user's links are still on their way. The
// session check must not sign the page back in, and the links request must not be answered 401.

const userId = '0a4bd1d6-1111-4c51-9b35-3f8e6f1c2d7a'
let server: TestServer
let signedIn = true
/** Answers held back until the test lets them go. */
const held: (() => void)[] = []

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  signedIn = true
  held.length = 0
  setPageUrl(`${server.origin}/`)
  clearCookies()
  server.requests.length = 0
  server.handle((request, response) => {
    if (request.path === '/health') {
      sendJson(response, 200, {}, { 'Set-Cookie': 'csrf_token=token-1; Path=/' })
    } else if (request.path === '/api/auth/me') {
      if (signedIn) {
        sendJson(response, 200, {
          data: {
            id: userId,
            address: '0xabc',
            email: null,
            username: null,
            createdAt: '2026-01-01T00:00:00.000Z',
          },
        })
      } else sendJson(response, 401, { error: { code: 'UNAUTHORIZED', message: 'Sign in' } })
    } else if (request.path === '/api/auth/logout') {
      // The logout answers late, so anything the page asks meanwhile races it.
      held.push(() => {
        signedIn = false
        sendJson(response, 200, { data: { ok: true } })
      })
    } else if (request.path === '/api/links') {
      held.push(() => {
        if (signedIn) sendJson(response, 200, { data: [] })
        else sendJson(response, 401, { error: { code: 'UNAUTHORIZED', message: 'Sign in' } })
      })
    } else {
      sendJson(response, 200, { data: {} })
    }
  })
})

async function waitForRequest(path: string): Promise<void> {
  await vi.waitFor(() => expect(server.requests.map((request) => request.path)).toContain(path))
}

describe('useLogout', () => {
  it('aborts the user’s requests in flight, drops their answers and holds session checks until the logout answered', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    await queryClient.fetchQuery(sessionQueryOptions())
    expect(queryClient.getQueryData(sessionKeys.me())).toMatchObject({ id: userId })
    const links = queryClient.fetchQuery(linksQueryOptions()).catch((error: unknown) => error)
    await waitForRequest('/api/links')

    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/dashboard']}>{children}</MemoryRouter>
      </QueryClientProvider>
    )
    const { result } = renderHook(() => useLogout(), { wrapper })
    let loggedOut: Promise<void> | undefined
    act(() => {
      loggedOut = result.current()
    })
    await waitForRequest('/api/auth/logout')

    // The links request was aborted: the page never reads its answer, whatever it is.
    expect(isCancelledError(await links)).toBe(true)
    expect(queryClient.getQueryData(['links', 'list'])).toBeUndefined()
    // A screen mounting now asks for the session: it waits for the logout instead of answering the user.
    expect(queryClient.getQueryData(sessionKeys.me())).toBeNull()
    const checkedMeanwhile = queryClient.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 })
    const meBefore = server.requests.filter((request) => request.path === '/api/auth/me').length

    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(server.requests.filter((request) => request.path === '/api/auth/me')).toHaveLength(meBefore)
    for (const answer of held.splice(0)) answer()
    await act(async () => {
      await loggedOut
    })
    expect(await checkedMeanwhile).toBeNull()
    expect(queryClient.getQueryData(sessionKeys.me())).toBeNull()
  })
})
