import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTransactionRecordAnswer } from '../../../test/build-transaction-record-answer'
import { sendJson, setPageUrl, startTestServer, type TestServer } from '../../../test/test-server'
import { createApiClient } from '../../lib/api-client'
import {
  getPaymentOutcome,
  getPaymentRecord,
  postRouteReceipt,
  receiptRetryDelaysMs,
  toTransactionRecord,
} from './transaction-record'

/** A record as the client reads it: the contract's answer, then the modal's view. */
const parseTransactionRecord = (raw: Record<string, unknown>) =>
  toTransactionRecord(buildTransactionRecordAnswer(raw))

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

describe('toTransactionRecord', () => {
  it('normalises the status and aligns steps with their statuses', () => {
    const parsed = parseTransactionRecord(record)
    expect(parsed?.status).toBe('bridging')
    expect(parsed?.steps.map((step) => `${step.kind}:${step.status}`)).toEqual(['swap:ok', 'bridge:pending'])
  })

  it('reads a refund as a failure', () => {
    const parsed = parseTransactionRecord({ id: 'r2', intent_id: '0x1', status_raw: 'refunded' })
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

describe("a payment's outcome comes only from the record of the wallet's own transaction", () => {
  const sent = `0x${'ab'.repeat(32)}`
  const bystander = `0x${'ee'.repeat(32)}`
  const recordOf = (sourceTxHash: string | null, status: string, extra: Record<string, unknown> = {}) => {
    const parsed = parseTransactionRecord({
      ...record,
      source_tx_hash: sourceTxHash,
      status_raw: status,
      error_message: status === 'failed' ? 'execution reverted' : null,
      ...extra,
    })
    if (parsed === undefined) throw new Error('not a record')
    return parsed
  }

  it('ends on success or failure of the same hash, in any case', () => {
    expect(getPaymentOutcome(recordOf(sent, 'success'), sent)).toBe('success')
    expect(getPaymentOutcome(recordOf(sent.toUpperCase().replace('0X', '0x'), 'success'), sent)).toBe(
      'success',
    )
    expect(getPaymentOutcome(recordOf(sent, 'failed'), sent.toUpperCase())).toBe('failed')
    expect(getPaymentOutcome(recordOf(sent, 'refunded'), sent)).toBe('failed')
    expect(getPaymentOutcome(recordOf(sent, 'ongoing'), sent)).toBeNull()
    expect(getPaymentOutcome(undefined, sent)).toBeNull()
  })

  it('keeps waiting on a final status of another hash, or of no hash yet', () => {
    expect(getPaymentOutcome(recordOf(bystander, 'failed'), sent)).toBeNull()
    expect(getPaymentOutcome(recordOf(bystander, 'success'), sent)).toBeNull()
    expect(getPaymentOutcome(recordOf(null, 'failed'), sent)).toBeNull()
    expect(getPaymentOutcome(recordOf(null, 'success'), sent)).toBeNull()
  })

  it("reads the server's pending answer (another transaction's record) as pending steps that end nothing", () => {
    // GET /api/route-intent/{intentId} keeps only the route of a record that follows another hash.
    const shown = recordOf(null, '', { status: 'submitted', route_status: [], from_chain_tx_url: null })
    expect(shown).toMatchObject({
      status: 'submitted',
      sourceTxHash: null,
      fromChainTxUrl: null,
      errorMessage: null,
    })
    expect(shown.steps.map((step) => `${step.kind}:${step.status}:${step.txHash}`)).toEqual([
      'swap:pending:null',
      'bridge:pending:null',
    ])
    expect(getPaymentOutcome(shown, sent)).toBeNull()
  })
})

describe('getPaymentRecord', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
    setPageUrl(`${server.origin}/pay/coffee`)
  })
  afterAll(async () => {
    await server.close()
  })

  const payment = {
    intentId: `0x${'cd'.repeat(32)}`,
    payer: `0x${'d'.repeat(40)}`,
    txHash: `0x${'ab'.repeat(32)}`,
  }

  it("asks the server for this payer's payment, treats 404 as none yet and rejects other failures with the message", async () => {
    const client = createApiClient({ baseUrl: server.origin, isOffline: () => false })
    server.handle((_request, response) =>
      sendJson(response, 200, { data: buildTransactionRecordAnswer(record) }),
    )
    expect((await getPaymentRecord(payment, client))?.id).toBe('r1')
    expect(server.requests.at(-1)?.path).toBe(
      `/api/route-intent/${payment.intentId}?payer=${payment.payer}&txHash=${payment.txHash}`,
    )
    server.handle((_request, response) =>
      sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'x' } }),
    )
    expect(await getPaymentRecord(payment, client)).toBeUndefined()
    server.handle((_request, response) => sendJson(response, 500, {}))
    await expect(getPaymentRecord(payment, client)).rejects.toMatchObject({
      userMessage: 'Failed to load transaction',
    })
  })

  it('reads a record spelled in camelCase (docs/api.md#client-tolerance)', async () => {
    const client = createApiClient({ baseUrl: server.origin, isOffline: () => false })
    const camel = Object.fromEntries(
      Object.entries(buildTransactionRecordAnswer(record)).map(([key, value]) => [
        key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase()),
        value,
      ]),
    )
    server.handle((_request, response) => sendJson(response, 200, { data: camel }))
    expect(await getPaymentRecord(payment, client)).toMatchObject({
      id: 'r1',
      intentId: '0xAB',
      sourceTxHash: '0x11',
      statusRaw: 'ongoing',
      fromChainTxUrl: 'http://x/tx/0x11',
    })
  })
})

describe('postRouteReceipt', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
    setPageUrl(`${server.origin}/pay/coffee`)
  })
  afterAll(async () => {
    await server.close()
  })

  const intentId = `0x${'12'.repeat(32)}`
  const txHash = `0x${'34'.repeat(32)}`
  const answerWith = (statuses: number[]) => {
    server.requests.length = 0
    server.handle((request, response) => {
      if (request.path === '/health') {
        sendJson(response, 200, {}, { 'Set-Cookie': 'csrf_token=t; Path=/' })
        return
      }
      const status = statuses.shift() ?? 200
      if (status === 200) sendJson(response, 200, { data: { intentId, txHash, status: 'submitted' } })
      else sendJson(response, status, { error: { code: 'X', message: `answered ${status}` } })
    })
  }
  const receiptPosts = () => server.requests.filter((request) => request.path.endsWith('/receipt')).length

  it('retries a post that failed for a passing reason until the server has the receipt', async () => {
    const client = createApiClient({ baseUrl: server.origin, isOffline: () => false })
    const waits: number[] = []
    answerWith([503, 429, 200])
    const posted = await postRouteReceipt(intentId, txHash, client, async (ms) => {
      waits.push(ms)
    })
    expect(posted).toBe(true)
    expect(receiptPosts()).toBe(3)
    expect(waits).toEqual(receiptRetryDelaysMs.slice(0, 2))
  })

  it('stops at an answer that will not change, and gives up after the last delay', async () => {
    const client = createApiClient({ baseUrl: server.origin, isOffline: () => false })
    const noWait = async () => {}
    answerWith([404])
    expect(await postRouteReceipt(intentId, txHash, client, noWait)).toBe(false)
    expect(receiptPosts()).toBe(1)
    answerWith(Array.from({ length: 20 }, () => 500))
    expect(await postRouteReceipt(intentId, txHash, client, noWait)).toBe(false)
    expect(receiptPosts()).toBe(receiptRetryDelaysMs.length + 1)
  })
})
