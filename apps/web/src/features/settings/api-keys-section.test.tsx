import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
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
import { ApiKeysSection } from './api-keys-section'

const createdAt = '2026-11-01T10:00:00.000Z'
const key = `qlk_${'k'.repeat(43)}`
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

type Listed = { id: string; name: string; prefix: string; scopes: string[]; revokedAt: string | null }

/** Serves /api/api-keys from `keys`, recording every request; POST adds a key, DELETE revokes one. */
function serveKeys(keys: Listed[]): RecordedRequest[] {
  const seen: RecordedRequest[] = []
  const toAnswer = (item: Listed) => ({ ...item, createdAt, lastUsedAt: null })
  server.handle((request, response) => {
    seen.push(request)
    if (request.path === '/health') {
      sendJson(response, 200, {}, { 'Set-Cookie': 'csrf_token=t; Path=/' })
    } else if (request.path === '/api/api-keys' && request.method === 'GET') {
      sendJson(response, 200, { data: keys.map(toAnswer) })
    } else if (request.path === '/api/api-keys' && request.method === 'POST') {
      const body = JSON.parse(request.body) as { name: string; scopes: string[] }
      const made = {
        id: 'c7a5a0a8-0000-4000-8000-000000000001',
        name: body.name,
        prefix: key.slice(0, 8),
        scopes: body.scopes,
        revokedAt: null,
      }
      keys.unshift(made)
      sendJson(response, 201, { data: { ...toAnswer(made), key } })
    } else if (request.path.startsWith('/api/api-keys/') && request.method === 'DELETE') {
      const target = keys.find((item) => request.path.endsWith(item.id))
      if (target === undefined)
        return sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
      target.revokedAt = createdAt
      sendJson(response, 200, { data: toAnswer(target) })
    } else sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
  })
  return seen
}

function renderSection() {
  setPageUrl(`${server.origin}/settings`)
  render(
    <AppProviders queryClient={createQueryClient()}>
      <ApiKeysSection />
    </AppProviders>,
  )
}

describe('Settings → API keys', () => {
  it('creates a key with the chosen scopes and shows it once', async () => {
    const seen = serveKeys([])
    renderSection()
    expect(await screen.findByText('No API keys yet.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Create API key' }))
    const dialog = await screen.findByRole('dialog', { name: 'Create API key' })
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Shop server' } })
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /links:write/ }))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create key' }))

    const shown = await screen.findByRole('dialog', { name: 'Copy your API key' })
    expect((within(shown).getByLabelText('API key “Shop server”') as HTMLInputElement).value).toBe(key)
    expect(within(shown).getByText(/only time the key is shown/)).toBeTruthy()
    const post = seen.find((request) => request.method === 'POST')
    expect(JSON.parse(post?.body ?? '{}')).toEqual({
      name: 'Shop server',
      scopes: ['payments:read', 'links:write'],
    })
    // Writes carry the CSRF header like every other write of the app.
    expect(post?.headers['x-csrf-token']).toBe('t')

    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }))
    const list = await screen.findByRole('list', { name: 'API keys' })
    expect(within(list).getByText('Shop server')).toBeTruthy()
    expect(within(list).getByText('links:write, payments:read'.split(', ').reverse().join(', '))).toBeTruthy()
    // Once closed, the key is nowhere on the page.
    expect(document.body.textContent).not.toContain(key)
  })

  it('refuses a key without a name or scopes, beside the field, without sending', async () => {
    const seen = serveKeys([])
    renderSection()
    fireEvent.click(await screen.findByRole('button', { name: 'Create API key' }))
    const dialog = await screen.findByRole('dialog', { name: 'Create API key' })
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /payments:read/ }))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create key' }))
    expect(await within(dialog).findByText('name must not be empty')).toBeTruthy()
    expect(within(dialog).getByText('scopes must name at least one scope')).toBeTruthy()
    expect(seen.some((request) => request.method === 'POST')).toBe(false)
  })

  it('revokes a key after the confirmation and marks it revoked', async () => {
    const seen = serveKeys([
      {
        id: 'c7a5a0a8-0000-4000-8000-000000000009',
        name: 'Old bot',
        prefix: 'qlk_abcd',
        scopes: ['links:read'],
        revokedAt: null,
      },
    ])
    renderSection()
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke API key Old bot' }))
    const confirm = await screen.findByRole('alertdialog', { name: 'Revoke API key' })
    fireEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }))
    expect(await screen.findByText('API key Old bot revoked.')).toBeTruthy()
    await waitFor(() => expect(screen.getByText('Revoked')).toBeTruthy())
    expect(screen.queryByRole('button', { name: 'Revoke API key Old bot' })).toBeNull()
    expect(seen.some((request) => request.method === 'DELETE')).toBe(true)
  })
})
