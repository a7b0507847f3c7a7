import { fireEvent, render, screen, within } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sendJson, setPageUrl, startTestServer, type TestServer } from '../../../test/test-server'
import { AppProviders } from '../../app/providers'
import { createQueryClient } from '../../app/query-client'
import { appRoutes } from '../../app/router'
import { DevMailScreen } from './dev-mail-screen'

const codeMail = {
  id: 'mail-2',
  to: 'ada@example.com',
  subject: 'Your Quick Links code: 493027',
  text: 'Your code is 493027. It expires in 10 minutes.',
  html: '<html><head><title>x</title></head><body><p>Your code is <strong>493027</strong>.</p><a href="http://localhost:3000/login?bundle=b">Sign in</a></body></html>',
  date: '2030-01-01T10:05:00.000Z',
}
const olderMail = {
  id: 'mail-1',
  to: 'grace@example.com',
  subject: 'Welcome',
  text: 'Plain welcome text',
  html: null,
  date: '2030-01-01T10:00:00.000Z',
}
const sms = {
  id: 'sms-1',
  to: '+14155550100',
  body: 'Quick Links code: 118822',
  date: '2030-01-01T10:06:00.000Z',
}

let server: TestServer
let isDevMode = true

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  isDevMode = true
  setPageUrl(`${server.origin}/dev/mail`)
  server.requests.length = 0
  server.handle((request, response) => {
    if (!isDevMode) sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
    else if (request.path === '/api/dev/mail') sendJson(response, 200, { data: [codeMail, olderMail] })
    else if (request.path === '/api/dev/sms') sendJson(response, 200, { data: [sms] })
    else sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
  })
})

function renderScreen() {
  render(
    <AppProviders queryClient={createQueryClient()}>
      <DevMailScreen />
    </AppProviders>,
  )
}

describe('/dev/mail', () => {
  it('lists mail newest first and shows the newest in a sandboxed frame without scripts, with its text part', async () => {
    renderScreen()
    const list = await screen.findByRole('list', { name: 'Mail' })
    const items = within(list).getAllByRole('button')
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Your Quick Links code: 493027'),
      expect.stringContaining('Welcome'),
    ])
    expect(items[0]?.textContent).toContain('ada@example.com')
    expect(items[0]?.getAttribute('aria-current')).toBe('true')

    const frame = screen.getByTitle('Mail: Your Quick Links code: 493027')
    const sandbox = frame.getAttribute('sandbox') ?? ''
    expect(frame.hasAttribute('sandbox')).toBe(true)
    expect(sandbox).not.toContain('allow-scripts')
    expect(sandbox).not.toContain('allow-same-origin')
    const srcDoc = frame.getAttribute('srcdoc') ?? ''
    expect(srcDoc).toContain('<strong>493027</strong>')
    expect(srcDoc).toContain('<head><base target="_top">')
    expect(screen.getByText('Your code is 493027. It expires in 10 minutes.')).toBeTruthy()
    expect(screen.getByRole('heading', { name: 'Mail (2)' })).toBeTruthy()
  })

  it('shows another mail when it is picked, including a text-only one', async () => {
    renderScreen()
    const list = await screen.findByRole('list', { name: 'Mail' })
    fireEvent.click(within(list).getByText('Welcome'))
    expect(screen.getByRole('heading', { name: 'Welcome' })).toBeTruthy()
    expect(screen.getByText('This mail has no HTML part.')).toBeTruthy()
    expect(screen.getByText('Plain welcome text')).toBeTruthy()
    expect(screen.queryByTitle('Mail: Your Quick Links code: 493027')).toBeNull()
  })

  it('lists the text messages of the dev SMS outbox', async () => {
    renderScreen()
    const list = await screen.findByRole('list', { name: 'Text messages' })
    expect(within(list).getByText('Quick Links code: 118822')).toBeTruthy()
    expect(within(list).getByText('+14155550100')).toBeTruthy()
  })

  it("says 'Dev mode is off' when the server answers 404", async () => {
    isDevMode = false
    renderScreen()
    expect(await screen.findByRole('heading', { name: 'Dev mode is off' })).toBeTruthy()
    expect(screen.queryByRole('list', { name: 'Mail' })).toBeNull()
  })

  it('is the page at /dev/mail', async () => {
    render(
      <AppProviders queryClient={createQueryClient()}>
        <RouterProvider router={createMemoryRouter(appRoutes, { initialEntries: ['/dev/mail'] })} />
      </AppProviders>,
    )
    expect(await screen.findByRole('heading', { name: 'Dev mail' })).toBeTruthy()
    expect(await screen.findByRole('list', { name: 'Mail' })).toBeTruthy()
  })
})
