import { describe, expect, it } from 'vitest'
import { createApiClient } from '../../lib/api-client'
import { createRoutingProviderSource, fetchRoutingProvider } from './routing-provider'

function fakeClient(handler: (path: string) => Response | Promise<Response>) {
  const paths: string[] = []
  const client = createApiClient({
    baseUrl: 'http://test',
    fetch: async (input) => {
      const path = String(input).replace('http://test', '')
      paths.push(path)
      return handler(path)
    },
    readCookies: () => '',
    isOffline: () => false,
  })
  return { client, paths }
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

describe('routing provider name', () => {
  it('reads the name GET /api/config gives', async () => {
    const { client, paths } = fakeClient(() => json({ data: { routingProvider: 'squid' } }))
    expect(await fetchRoutingProvider(client)).toBe('squid')
    expect(paths).toEqual(['/api/config'])
  })

  it('refuses an answer that names no usable provider', async () => {
    for (const body of [
      {},
      { data: {} },
      { data: { routingProvider: '../auth' } },
      { routingProvider: 'squid' },
    ]) {
      const { client } = fakeClient(() => json(body))
      await expect(fetchRoutingProvider(client)).rejects.toMatchObject({ code: 'INTERNAL' })
    }
  })

  it('asks once for concurrent and later callers', async () => {
    // The answer waits until every caller has asked, so they all ask while it is in flight.
    let answer = (): void => {}
    const isAnswered = new Promise<void>((resolve) => (answer = resolve))
    const { client, paths } = fakeClient(async () => {
      await isAnswered
      return json({ data: { routingProvider: 'local' } })
    })
    const getProvider = createRoutingProviderSource(client)
    const asked = Promise.all([getProvider(), getProvider(), getProvider()])
    answer()
    expect(await asked).toEqual(['local', 'local', 'local'])
    expect(await getProvider()).toBe('local')
    expect(paths).toEqual(['/api/config'])
  })

  it('does not keep a failure: the next caller asks again', async () => {
    let isDown = true
    const { client, paths } = fakeClient(() =>
      isDown
        ? json({ error: { code: 'SERVICE_UNAVAILABLE', message: 'Starting.' } }, 503)
        : json({ data: { routingProvider: 'squid' } }),
    )
    const getProvider = createRoutingProviderSource(client)
    await expect(getProvider()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
    isDown = false
    expect(await getProvider()).toBe('squid')
    expect(await getProvider()).toBe('squid')
    expect(paths).toEqual(['/api/config', '/api/config'])
  })
})
