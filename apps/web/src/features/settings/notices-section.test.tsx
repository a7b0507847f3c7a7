import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  type RecordedRequest,
  sendJson,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../../../test/test-server'
import { AppProviders } from '../../app/providers'
import { createQueryClient } from '../../app/query-client'
import { dismissToast } from '../../ui/use-toast'
import { NoticesSection } from './notices-section'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})
afterEach(() => {
  act(() => dismissToast())
})

/** Serves /api/users/notices from `stored`, recording every request; `failPut` answers a PUT 500. */
function serveNotices(
  stored: { paymentDigest: string },
  options: { failPut?: boolean } = {},
): RecordedRequest[] {
  const seen: RecordedRequest[] = []
  server.handle((request, response) => {
    seen.push(request)
    if (request.path === '/health') {
      sendJson(response, 200, {}, { 'Set-Cookie': 'csrf_token=t; Path=/' })
    } else if (request.path === '/api/users/notices' && request.method === 'GET') {
      sendJson(response, 200, { data: stored })
    } else if (request.path === '/api/users/notices' && request.method === 'PUT') {
      if (options.failPut) {
        sendJson(response, 500, { error: { code: 'INTERNAL', message: 'Something went wrong.' } })
        return
      }
      stored.paymentDigest = (JSON.parse(request.body) as { paymentDigest: string }).paymentDigest
      sendJson(response, 200, { data: stored })
    } else sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
  })
  return seen
}

function renderSection() {
  setPageUrl(`${server.origin}/settings`)
  render(
    <AppProviders queryClient={createQueryClient()}>
      <NoticesSection />
    </AppProviders>,
  )
}

const digestSwitch = () => screen.findByRole('checkbox', { name: /Daily payment digest/ })

describe('Settings → E-mail notices', () => {
  it('shows the stored digest setting and saves a change at once, with the CSRF header', async () => {
    const stored = { paymentDigest: 'off' }
    const seen = serveNotices(stored)
    renderSection()
    const box = (await digestSwitch()) as HTMLInputElement
    expect(box.checked).toBe(false)
    fireEvent.click(box)
    expect(await screen.findByText('Daily digest on.')).toBeTruthy()
    await waitFor(async () => expect(((await digestSwitch()) as HTMLInputElement).checked).toBe(true))
    const put = seen.find((request) => request.method === 'PUT')
    expect(JSON.parse(put?.body ?? '{}')).toEqual({ paymentDigest: 'daily' })
    expect(put?.headers['x-csrf-token']).toBe('t')
    expect(stored.paymentDigest).toBe('daily')

    fireEvent.click(await digestSwitch())
    expect(await screen.findByText('Daily digest off.')).toBeTruthy()
    expect(stored.paymentDigest).toBe('off')
  })

  it('keeps the stored setting and says why when the save fails', async () => {
    serveNotices({ paymentDigest: 'daily' }, { failPut: true })
    renderSection()
    const box = (await digestSwitch()) as HTMLInputElement
    expect(box.checked).toBe(true)
    fireEvent.click(box)
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong.')
    expect(((await digestSwitch()) as HTMLInputElement).checked).toBe(true)
  })
})
