import type { WebhookAttempt } from '@quicklinks/core/api/webhooks'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildDelivery, buildEndpoint, serveFakeWebhooksApi } from '../../../test/fake-webhooks-api'
import { setPageUrl, startTestServer, type TestServer } from '../../../test/test-server'
import { AppProviders } from '../../app/providers'
import { createQueryClient } from '../../app/query-client'
import { dismissToast } from '../../ui/use-toast'
import { WebhooksSection } from './webhooks-section'

let server: TestServer
const endpoint = buildEndpoint()

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})
afterEach(() => {
  act(() => dismissToast())
})

function renderSection() {
  setPageUrl(`${server.origin}/settings`)
  render(
    <AppProviders queryClient={createQueryClient()}>
      <WebhooksSection />
    </AppProviders>,
  )
}

async function openEndpoint(): Promise<HTMLElement> {
  return screen.findByRole('listitem', { name: endpoint.url })
}

describe('Settings → Webhooks: delivery log', () => {
  it('sends a test event, opens the log, and shows the outcome once the try is made', async () => {
    const api = serveFakeWebhooksApi(server, [buildEndpoint()])
    renderSection()
    const item = await openEndpoint()
    fireEvent.click(within(item).getByRole('button', { name: 'Send test event' }))
    expect(await screen.findByText(`Test event sent to ${endpoint.url}.`)).toBeTruthy()
    const log = await within(item).findByRole('list', { name: `Deliveries to ${endpoint.url}` })
    expect(await within(log).findByText('Pending')).toBeTruthy()
    expect(within(log).getByText(/Not sent yet · 0 tries/)).toBeTruthy()
    expect(api.seen.some((request) => request.method === 'POST' && request.path.endsWith('/test'))).toBe(true)

    // The worker answers: the log, read again while a delivery is pending, shows it delivered.
    const [queued] = api.deliveries.get(endpoint.id) ?? []
    api.deliveries.set(endpoint.id, [buildDelivery({ id: queued?.id, eventId: queued?.eventId })])
    expect(await within(log).findByText('Delivered', {}, { timeout: 6_000 })).toBeTruthy()
    expect(within(log).getByText(/HTTP 200 · 42 ms · 1 try/)).toBeTruthy()
  })

  it('lists deliveries newest first and opens each try with its answer and error', async () => {
    const api = serveFakeWebhooksApi(server, [buildEndpoint()])
    api.deliveries.set(endpoint.id, [
      buildDelivery({
        id: 'd0000000-0000-4000-8000-000000000002',
        eventType: 'payment.succeeded',
        state: 'failed',
        attempts: 2,
        lastStatusCode: null,
        lastLatencyMs: 15_000,
        lastError: 'Timed out after 15 s',
        attemptLog: [
          {
            attempt: 2,
            at: '2026-11-28T10:00:05.000Z',
            statusCode: null,
            latencyMs: 15_000,
            responseExcerpt: '',
            error: 'Timed out after 15 s',
          },
          {
            attempt: 1,
            at: '2026-11-28T10:00:00.000Z',
            statusCode: 500,
            latencyMs: 80,
            responseExcerpt: 'boom: database down',
            error: null,
          },
        ],
      }),
      buildDelivery(),
    ])
    renderSection()
    const item = await openEndpoint()
    fireEvent.click(within(item).getByRole('button', { name: 'Deliveries' }))
    const log = await within(item).findByRole('list', { name: `Deliveries to ${endpoint.url}` })
    const rows = within(log)
      .getAllByRole('listitem')
      .filter((row) => row.parentElement === log)
    expect(rows.map((row) => within(row).getByText(/\./, { selector: 'code' }).textContent)).toEqual([
      'payment.succeeded',
      'webhook.test',
    ])
    const failed = rows[0] as HTMLElement
    expect(within(failed).getByText('Failed')).toBeTruthy()
    expect(within(failed).getByText(/No answer · 15000 ms · 2 tries/)).toBeTruthy()
    const details = within(failed).getByRole('button', { name: 'Details' })
    expect(details.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(details)
    expect(details.getAttribute('aria-expanded')).toBe('true')
    const tries = within(failed).getByRole('list', { name: 'Tries' })
    const [second, first] = within(tries).getAllByRole('listitem')
    expect(within(second as HTMLElement).getByText(/Try 2 .* No answer · 15000 ms/)).toBeTruthy()
    expect(within(second as HTMLElement).getByText('Timed out after 15 s')).toBeTruthy()
    expect(within(first as HTMLElement).getByText(/Try 1 .* HTTP 500 · 80 ms/)).toBeTruthy()
    expect(within(first as HTMLElement).getByText('boom: database down')).toBeTruthy()
  })

  it('redelivers a delivery and shows the new try when it comes', async () => {
    const api = serveFakeWebhooksApi(server, [buildEndpoint()])
    const first = buildDelivery()
    api.deliveries.set(endpoint.id, [first])
    renderSection()
    const item = await openEndpoint()
    fireEvent.click(within(item).getByRole('button', { name: 'Deliveries' }))
    const log = await within(item).findByRole('list', { name: `Deliveries to ${endpoint.url}` })
    fireEvent.click(await within(log).findByRole('button', { name: 'Redeliver' }))
    expect(await within(log).findByText('Pending')).toBeTruthy()
    expect(
      api.seen.some(
        (request) =>
          request.method === 'POST' &&
          request.path === `/api/webhooks/${endpoint.id}/deliveries/${first.id}/redeliver`,
      ),
    ).toBe(true)

    const secondTry = { ...first.attemptLog[0], attempt: 2, at: '2026-11-28T10:05:00.000Z' }
    api.deliveries.set(endpoint.id, [
      buildDelivery({ attempts: 2, attemptLog: [secondTry as WebhookAttempt, ...first.attemptLog] }),
    ])
    expect(await within(log).findByText(/HTTP 200 · 42 ms · 2 tries/, {}, { timeout: 6_000 })).toBeTruthy()
    expect(within(log).getByText('Delivered')).toBeTruthy()
    fireEvent.click(within(log).getByRole('button', { name: 'Details' }))
    expect(
      within(log)
        .getAllByText(/^Try \d/)
        .map((line) => line.textContent?.slice(0, 5)),
    ).toEqual(['Try 2', 'Try 1'])
  })

  it('holds a paused endpoint: no test event, and its pending deliveries are not polled', async () => {
    const api = serveFakeWebhooksApi(server, [buildEndpoint({ enabled: false })])
    api.deliveries.set(endpoint.id, [buildDelivery({ state: 'pending', attempts: 0, attemptLog: [] })])
    renderSection()
    const item = await openEndpoint()
    expect(
      (within(item).getByRole('button', { name: 'Send test event' }) as HTMLButtonElement).disabled,
    ).toBe(true)
    fireEvent.click(within(item).getByRole('button', { name: 'Deliveries' }))
    expect(await within(item).findByText(/sent when you resume the endpoint/)).toBeTruthy()
    // Longer than the 2 s poll: a paused endpoint's log is read once.
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    expect(api.seen.filter((request) => request.path.includes('/deliveries')).length).toBe(1)
  })
})
