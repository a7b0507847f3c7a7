import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildEndpoint, fakeSecret, serveFakeWebhooksApi } from '../../../test/fake-webhooks-api'
import { setPageUrl, startTestServer, type TestServer } from '../../../test/test-server'
import { AppProviders } from '../../app/providers'
import { createQueryClient } from '../../app/query-client'
import { dismissToast } from '../../ui/use-toast'
import { WebhooksSection } from './webhooks-section'

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

function renderSection() {
  setPageUrl(`${server.origin}/settings`)
  render(
    <AppProviders queryClient={createQueryClient()}>
      <WebhooksSection />
    </AppProviders>,
  )
}

describe('Settings → Webhooks: endpoints', () => {
  it('adds an endpoint with the chosen events and shows its secret once', async () => {
    const api = serveFakeWebhooksApi(server)
    renderSection()
    expect(await screen.findByText('No endpoints yet.')).toBeTruthy()
    // The disable e-mail links to /settings#webhooks.
    expect(document.getElementById('webhooks')?.textContent).toContain('Webhooks')
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }))
    const dialog = await screen.findByRole('dialog', { name: 'Add endpoint' })
    fireEvent.change(within(dialog).getByLabelText('Endpoint URL'), {
      target: { value: 'https://shop.example/hooks' },
    })
    fireEvent.change(within(dialog).getByLabelText('Description (optional)'), {
      target: { value: 'Shop orders' },
    })
    const invoices = within(dialog).getByRole('group', { name: 'Invoices' })
    fireEvent.click(within(invoices).getByRole('checkbox', { name: /invoice\.paid\b/ }))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add endpoint' }))

    const shown = await screen.findByRole('dialog', { name: 'Copy your signing secret' })
    expect((within(shown).getByLabelText('Signing secret') as HTMLInputElement).value).toBe(fakeSecret)
    expect(within(shown).getByText(/will not be shown again/)).toBeTruthy()
    const post = api.seen.find((request) => request.method === 'POST')
    expect(JSON.parse(post?.body ?? '{}')).toEqual({
      url: 'https://shop.example/hooks',
      events: ['payment.succeeded', 'invoice.paid'],
      description: 'Shop orders',
    })
    expect(post?.headers['x-csrf-token']).toBe('t')

    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }))
    const item = await screen.findByRole('listitem', { name: 'Shop orders' })
    expect(within(item).getByText('https://shop.example/hooks')).toBeTruthy()
    expect(within(item).getByText('payment.succeeded, invoice.paid')).toBeTruthy()
    expect(within(item).getByText('Enabled')).toBeTruthy()
    expect(document.body.textContent).not.toContain(fakeSecret)
  })

  it('refuses an endpoint without a valid URL or any event, without sending', async () => {
    const api = serveFakeWebhooksApi(server)
    renderSection()
    fireEvent.click(await screen.findByRole('button', { name: 'Add endpoint' }))
    const dialog = await screen.findByRole('dialog', { name: 'Add endpoint' })
    fireEvent.change(within(dialog).getByLabelText('Endpoint URL'), { target: { value: 'shop.example' } })
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /payment\.succeeded/ }))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add endpoint' }))
    expect(await within(dialog).findByText('url must be an https URL without credentials')).toBeTruthy()
    expect(within(dialog).getByText('Pick at least one event.')).toBeTruthy()
    expect(within(dialog).getByLabelText('Endpoint URL').getAttribute('aria-invalid')).toBe('true')
    expect(api.seen.some((request) => request.method === 'POST')).toBe(false)
  })

  it("shows the server's refusal of the URL beside the field", async () => {
    const api = serveFakeWebhooksApi(server)
    api.createError = {
      status: 422,
      code: 'VALIDATION_FAILED',
      field: 'url',
      message: 'url must not point at 10.0.0.1, a private or local address',
    }
    renderSection()
    fireEvent.click(await screen.findByRole('button', { name: 'Add endpoint' }))
    const dialog = await screen.findByRole('dialog', { name: 'Add endpoint' })
    fireEvent.change(within(dialog).getByLabelText('Endpoint URL'), {
      target: { value: 'https://10.0.0.1/hooks' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add endpoint' }))
    expect(await within(dialog).findByText(/must not point at 10\.0\.0\.1/)).toBeTruthy()
    expect(screen.queryByRole('dialog', { name: 'Copy your signing secret' })).toBeNull()
  })

  it('shows why the server disabled an endpoint and resumes it', async () => {
    const api = serveFakeWebhooksApi(server, [
      buildEndpoint({ enabled: false, disabledReason: 'Every delivery failed for 5 days' }),
    ])
    renderSection()
    const item = await screen.findByRole('listitem', { name: 'https://shop.example/hooks' })
    expect(within(item).getByText('Disabled: Every delivery failed for 5 days')).toBeTruthy()
    fireEvent.click(within(item).getByRole('button', { name: 'Resume' }))
    expect(await screen.findByText('https://shop.example/hooks resumed.')).toBeTruthy()
    await waitFor(() => expect(within(item).getByText('Enabled')).toBeTruthy())
    const put = api.seen.find((request) => request.method === 'PUT')
    expect(JSON.parse(put?.body ?? '{}')).toEqual({ enabled: true })

    fireEvent.click(within(item).getByRole('button', { name: 'Pause' }))
    await waitFor(() => expect(within(item).getByText('Paused')).toBeTruthy())
    expect(within(item).getByRole('button', { name: 'Resume' })).toBeTruthy()
  })

  it('rotates the secret after a confirmation and shows the new one once', async () => {
    const api = serveFakeWebhooksApi(server, [buildEndpoint()])
    renderSection()
    const item = await screen.findByRole('listitem', { name: 'https://shop.example/hooks' })
    fireEvent.click(within(item).getByRole('button', { name: 'Rotate secret' }))
    const confirm = await screen.findByRole('dialog', { name: 'Rotate signing secret' })
    expect(within(confirm).getByText(/keeps working for 24 hours/)).toBeTruthy()
    expect(api.seen.some((request) => request.path.endsWith('/rotate-secret'))).toBe(false)
    fireEvent.click(within(confirm).getByRole('button', { name: 'Rotate secret' }))
    const shown = await screen.findByRole('dialog', { name: 'Copy your new signing secret' })
    expect((within(shown).getByLabelText('Signing secret') as HTMLInputElement).value).toBe(fakeSecret)
    expect(within(shown).getByText(/old secret keeps working for 24 hours/)).toBeTruthy()
    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(document.body.textContent).not.toContain(fakeSecret))
  })

  it('deletes an endpoint after the confirmation', async () => {
    const api = serveFakeWebhooksApi(server, [buildEndpoint()])
    renderSection()
    const item = await screen.findByRole('listitem', { name: 'https://shop.example/hooks' })
    fireEvent.click(within(item).getByRole('button', { name: 'Delete' }))
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete endpoint' })
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Endpoint https://shop.example/hooks deleted.')).toBeTruthy()
    expect(await screen.findByText('No endpoints yet.')).toBeTruthy()
    expect(api.seen.some((request) => request.method === 'DELETE')).toBe(true)
  })
})
