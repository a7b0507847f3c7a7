import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiClient } from '../../lib/api-client'
import { sendJson, setPageUrl, startTestServer, type TestServer } from '../../test/test-server'
import { getTransactions, parseTransactionRecord, pickTransaction } from './transaction-record'

const record = {
  id: 'r1',
  intent_id: '0xAB',
  from_chain_id: 43114,
  to_chain_id: 8453,
  source_tx_hash: '0x11',
  dest_tx_hash: null,
  status_raw: 'ongoing',
  route_path: [
    {
      type: 'swap',
      fromChainId: 43114,
      toChainId: 43114,
      fromToken: { symbol: 'AVAX' },
      toToken: { symbol: 'USDC' },
    },
    {
      type: 'bridge',
      fromChainId: 43114,
      toChainId: 8453,
      fromToken: { symbol: 'USDC' },
      toToken: { symbol: 'USDC' },
    },
  ],
  route_status: [
    { type: 'swap', chainId: 43114, txHash: '0x11', status: 'success' },
    { type: 'bridge', chainId: 8453, txHash: null, status: 'pending' },
  ],
  from_chain_tx_url: 'http://x/tx/0x11',
  update_date: '2026-01-02T00:00:00Z',
}

describe('parseTransactionRecord', () => {
  it('normalises the status and aligns steps with their statuses', () => {
    const parsed = parseTransactionRecord(record)
    expect(parsed?.status).toBe('bridging')
    expect(parsed?.steps.map((step) => `${step.kind}:${step.status}`)).toEqual(['swap:ok', 'bridge:pending'])
  })

  it('accepts camelCase and reads a refund as a failure', () => {
    const parsed = parseTransactionRecord({ id: 'r2', intentId: '0x1', statusRaw: 'refunded' })
    expect(parsed).toMatchObject({ intentId: '0x1', status: 'failed', isRefunded: true })
  })

  it('marks every step done on success', () => {
    expect(
      parseTransactionRecord({ ...record, status_raw: 'success' })?.steps.every(
        (step) => step.status === 'ok',
      ),
    ).toBe(true)
  })
})

describe('pickTransaction', () => {
  const older = parseTransactionRecord({ id: 'a', intent_id: '0x1', update_date: '2026-01-01T00:00:00Z' })
  const newer = parseTransactionRecord({ id: 'b', intent_id: '0x2', update_date: '2026-01-03T00:00:00Z' })
  const records = [older, newer].filter((entry) => entry !== undefined)

  it('picks the intent when known, else the most recent', () => {
    expect(pickTransaction(records, '0x1')?.id).toBe('a')
    expect(pickTransaction(records, '0x9')).toBeUndefined()
    expect(pickTransaction(records, null)?.id).toBe('b')
  })
})

describe('getTransactions', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
    setPageUrl(`${server.origin}/pay/coffee`)
  })
  afterAll(async () => {
    await server.close()
  })

  it('reads the data array, treats 404 as none and rejects other failures with the message', async () => {
    const client = createApiClient({ baseUrl: server.origin, isOffline: () => false })
    server.handle((_request, response) => sendJson(response, 200, { data: [record] }))
    expect((await getTransactions('0xabc', client)).map((entry) => entry.id)).toEqual(['r1'])
    server.handle((_request, response) =>
      sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'x' } }),
    )
    expect(await getTransactions('0xabc', client)).toEqual([])
    server.handle((_request, response) => sendJson(response, 500, {}))
    await expect(getTransactions('0xabc', client)).rejects.toMatchObject({
      userMessage: 'Failed to load transaction',
    })
    expect(server.requests.at(-1)?.path).toBe('/api/data/transactions/0xabc')
  })
})
