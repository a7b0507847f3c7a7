import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { postJson } from '../../../test/payment-test-kit.ts'
import { routeIntents } from '../../db/schema.ts'

let testApp: TestApp

const payer = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const otherPayer = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'
const router = '0xce16F69375520ab01377ce7B88f5BA8C48F8D666'
const ownHash = `0x${'ab'.repeat(32)}`
const bystanderHash = `0x${'ee'.repeat(32)}`
const paidIntent = `0x${'01'.repeat(32)}`
const spoofedIntent = `0x${'02'.repeat(32)}`
const unpostedIntent = `0x${'03'.repeat(32)}`
const action = {
  type: 'transfer',
  fromChainId: 8453,
  toChainId: 8453,
  fromToken: { chainId: 8453, address: router, symbol: 'ETH', decimals: 18, logoURI: '' },
  toToken: { chainId: 8453, address: router, symbol: 'ETH', decimals: 18, logoURI: '' },
  fromAmount: '5',
  toAmount: '5',
  toAmountMin: '5',
  provider: 'Quick Links relayer',
  providerLogoURI: '',
  estimatedMs: 1000,
}

/** A route intent of `payer`; `source` is the transaction the tracker matched (null: receipt only, or none). */
function intent(id: string, source: string | null, statusRaw: string | null) {
  return {
    id,
    provider: 'local',
    fromChainId: 8453,
    toChainId: 8453,
    fromToken: '0xeeee',
    toToken: '0xeeee',
    fromAmount: '5',
    toAmount: '5',
    toAmountMin: '5',
    fromAddress: payer,
    toAddress: otherPayer,
    slippage: 1,
    transactionRequest: { to: router, target: router, data: '0x12', value: '5' },
    actions: [action],
    sourceTxHash: source,
    statusRaw,
    status: statusRaw === null ? null : statusRaw === 'success' ? 'success' : 'failed',
    errorMessage: statusRaw === 'failed' ? 'The bystander’s transaction reverted.' : null,
    routeStatus: [{ type: 'transfer', chainId: 8453, txHash: source, status: statusRaw ?? 'pending' }],
  }
}

beforeAll(async () => {
  testApp = await buildTestApp()
  await testApp.database.db
    .insert(routeIntents)
    .values([
      intent(paidIntent, ownHash, 'success'),
      intent(spoofedIntent, bystanderHash, 'failed'),
      intent(unpostedIntent, null, null),
    ])
})

afterAll(async () => {
  await testApp?.close()
})

const getPayment = (intentId: string, query: Record<string, string>) =>
  testApp.app.inject({ method: 'GET', url: `/api/route-intent/${intentId}`, query })

describe('GET /api/route-intent/{intentId}', () => {
  it("answers the payer's own matched transaction with its record (any case in the query)", async () => {
    const response = await getPayment(paidIntent.toUpperCase().replace('0X', '0x'), {
      payer: payer.toUpperCase().replace('0X', '0x'),
      txHash: ownHash.toUpperCase().replace('0X', '0x'),
    })
    expect(response.statusCode).toBe(200)
    expect(response.json().data).toMatchObject({
      intent_id: paidIntent,
      source_tx_hash: ownHash,
      status: 'success',
      route_status: [{ txHash: ownHash, status: 'success' }],
    })
  })

  it('answers a record that follows another transaction as pending, keeping only the route', async () => {
    const response = await getPayment(spoofedIntent, { payer, txHash: ownHash })
    expect(response.statusCode).toBe(200)
    const record = response.json().data
    expect(record).toMatchObject({
      intent_id: spoofedIntent,
      source_tx_hash: null,
      dest_tx_hash: null,
      status_raw: null,
      status: 'submitted',
      route_status: [],
      error_message: null,
      from_chain_tx_url: null,
    })
    expect(record.route_path).toHaveLength(1)
  })

  it("is 404 for another wallet's intent id, an unknown id, and an intent with no receipt yet", async () => {
    for (const [intentId, asker] of [
      [paidIntent, otherPayer],
      [`0x${'09'.repeat(32)}`, payer],
      [unpostedIntent, payer],
    ] as const) {
      const response = await getPayment(intentId, { payer: asker, txHash: ownHash })
      expect(response.statusCode, intentId).toBe(404)
      expect(response.json().error).toMatchObject({
        code: 'NOT_FOUND',
        message: 'This wallet has no payment for this route.',
      })
      expect(JSON.stringify(response.json())).not.toContain(ownHash)
    }
  })

  it('is 422 naming the field for a malformed id, payer or hash', async () => {
    const cases: [string, Record<string, string>, string, string][] = [
      [
        '0x1234',
        { payer, txHash: ownHash },
        'intentId',
        'intentId must be a route intent id (0x followed by 64 hex digits).',
      ],
      [
        paidIntent,
        { payer: 'alice', txHash: ownHash },
        'payer',
        'payer must be the paying wallet address (0x followed by 40 hex digits).',
      ],
      [paidIntent, { payer }, 'txHash', 'txHash must be a transaction hash (0x followed by 64 hex digits).'],
    ]
    for (const [intentId, query, field, message] of cases) {
      const response = await getPayment(intentId, query)
      expect(response.statusCode, field).toBe(422)
      expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', field, message })
    }
  })
})

describe('POST /api/route-intent/{intentId}/receipt', () => {
  it("refuses a malformed hash with the schema's sentence, before looking the intent up", async () => {
    for (const txHash of ['0x12', 42, undefined]) {
      const response = await postJson(testApp.app, `/api/route-intent/${paidIntent}/receipt`, { txHash })
      expect(response.statusCode, String(txHash)).toBe(422)
      expect(response.json().error).toMatchObject({
        field: 'txHash',
        message: 'txHash must be a transaction hash (0x followed by 64 hex digits).',
      })
    }
  })
})
