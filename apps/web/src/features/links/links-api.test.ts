import { AppError } from '@quicklinks/core/app-error'
import { describe, expect, it } from 'vitest'
import { createApiClient } from '../../lib/api-client'
import { listOfflineRequests, setOfflineQueueOwner } from '../../lib/offline-queue'
import type { CreateLinkInput } from './link'
import { createLink, deleteLink, isQueuedLinkWrite, listLinks, updateLink } from './links-api'

type Sent = { method: string; path: string; body: string | null }

function fakeClient(respond: (sent: Sent) => Response) {
  const sent: Sent[] = []
  const client = createApiClient({
    baseUrl: 'http://test',
    fetch: async (input, init) => {
      const request: Sent = {
        method: init?.method ?? 'GET',
        path: String(input).replace('http://test', ''),
        body: typeof init?.body === 'string' ? init.body : null,
      }
      sent.push(request)
      return respond(request)
    },
    readCookies: () => 'csrf_token=t',
    isOffline: () => false,
  })
  return { client, sent }
}

const input: CreateLinkInput = {
  link_type: 'Crypto Payment Page',
  alias: '  Coffee Fund ',
  receiver_address: ' 0x1111111111111111111111111111111111111111 ',
  chain: 'Base',
  chain_id: 8453,
  token_name: 'USDC',
  token_address: '0xABCDEFabcdefABCDEFabcdefABCDEFabcdefABCD',
  message: '',
  account_type: 'personal',
  enabled: true,
  favorite: false,
  settings: '{}',
  idempotency_key: 'key-1',
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof AppError) return error
    throw error
  }
  throw new Error('expected a rejection')
}

describe('links api', () => {
  it('creates with a trimmed alias and receiver, lowercased chain and token address, and the idempotency key', async () => {
    const { client, sent } = fakeClient(
      () => new Response(JSON.stringify({ data: { id: 'x' } }), { status: 201 }),
    )
    await rejection(createLink(input, client)) // the fake answer is not a whole link
    const body = JSON.parse(sent[0]?.body ?? '{}') as Record<string, unknown>
    expect(body).toMatchObject({
      alias: 'Coffee Fund',
      receiver_address: '0x1111111111111111111111111111111111111111',
      chain: 'base',
      token_address: '0xabcdefabcdefabcdefabcdefabcdefabcdefabcd',
      chain_id: 8453,
      idempotency_key: 'key-1',
    })
  })

  it('refuses an empty alias or receiver before sending', async () => {
    const { client, sent } = fakeClient(() => new Response('{}'))
    const error = await rejection(createLink({ ...input, alias: '   ' }, client))
    expect(error.userMessage).toBe('Alias and receiver_address are required')
    expect(sent).toHaveLength(0)
  })

  it("keeps the server's 409 with the field and suggested slug", async () => {
    const { client } = fakeClient(
      () =>
        new Response(
          JSON.stringify({
            error: {
              code: 'CONFLICT',
              field: 'alias_slug',
              message: 'The link name "coffee-fund" is taken. Try "coffee-fund-2".',
              details: { suggestion: 'coffee-fund-2' },
            },
          }),
          { status: 409 },
        ),
    )
    const error = await rejection(createLink(input, client))
    expect(error.code).toBe('CONFLICT')
    expect(error.field).toBe('alias_slug')
    expect(error.details?.suggestion).toBe('coffee-fund-2')
  })

  it('falls back to the documented messages when the answer carries no error', async () => {
    const { client } = fakeClient(() => new Response('', { status: 500 }))
    expect((await rejection(createLink(input, client))).userMessage).toBe('Create failed (500)')
    expect((await rejection(listLinks(client))).userMessage).toBe('Failed to fetch links')
    const update = {
      id: 'l1',
      alias: 'a',
      alias_slug: 'a',
      message: '',
      account_type: 'personal',
      enabled: true,
      favorite: false,
      settings: '{}',
    }
    expect((await rejection(updateLink(update, client))).userMessage).toBe('Update failed (500)')
    expect((await rejection(deleteLink('l1', client))).userMessage).toBe('Delete failed (500)')
    expect((await rejection(updateLink({ ...update, id: '' }, client))).userMessage).toBe(
      'Missing link id for update',
    )
  })

  it('queues every link write made offline and resolves it with {offline: true}, oldest first', async () => {
    // The signed-in user's session answered: the queue is theirs.
    setOfflineQueueOwner('9b2f8a43-5a0c-4c51-9b35-3f8e6f1c2d7a')
    const sent: string[] = []
    const client = createApiClient({
      baseUrl: 'http://test',
      fetch: async (input) => {
        sent.push(String(input))
        return new Response('{}')
      },
      readCookies: () => 'csrf_token=t',
      isOffline: () => true,
    })
    const update = {
      id: 'l1',
      alias: 'a',
      alias_slug: 'a',
      message: '',
      account_type: 'personal',
      enabled: true,
      favorite: true,
      settings: '{}',
    }

    const results = [
      await createLink(input, client),
      await updateLink(update, client),
      await deleteLink('l1', client),
    ]

    expect(results).toEqual([{ offline: true }, { offline: true }, { offline: true }])
    expect(results.every(isQueuedLinkWrite)).toBe(true)
    expect(sent).toEqual([])
    expect(listOfflineRequests().map(({ request }) => `${request.method} ${request.path}`)).toEqual([
      'POST /api/links',
      'PUT /api/links/l1',
      'DELETE /api/links/l1',
    ])
    // The create keeps its idempotency key, so a replay of a create that had reached the server
    // answers the same link instead of making a second one.
    expect(JSON.parse(listOfflineRequests()[0]?.request.body ?? '{}')).toMatchObject({
      idempotency_key: 'key-1',
    })
  })

  it('answers a real link online, never mistaking it for a queued write', async () => {
    const { client } = fakeClient(() => new Response(JSON.stringify({ data: { id: 'l1' } }), { status: 200 }))
    expect(isQueuedLinkWrite(await deleteLink('l1', client))).toBe(false)
    expect(listOfflineRequests()).toEqual([])
  })
})
