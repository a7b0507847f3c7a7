import { describe, expect, it } from 'vitest'
import { readSquidFixture as fixture, useRecordedSquidApi } from '../../../../../test/recorded-squid-api.ts'
import type { RouteStatusQuery } from '../../route/routing-provider.ts'
import { createSquidRoutingProvider, type SquidProviderData } from './create-squid-routing-provider.ts'

// The Squid provider's status reads (/v2/status) mapped to the verifier's status, against recorded
// Squid v2 responses from a loopback stand-in.

const squidApi = useRecordedSquidApi()
const { requests, replies } = squidApi
const provider = () => createSquidRoutingProvider({ apiUrl: squidApi.url, integratorId: 'quick-links-test' })

const statusQuery: RouteStatusQuery<SquidProviderData> = {
  intentId: `0x${'ab'.repeat(32)}`,
  fromChainId: 43114,
  toChainId: 8453,
  sourceTxHash: '0xc6b6ed43d2e29b36197a1acc711ed14eec735de8525689ab0d216f736f4ba65c',
  providerData: { requestId: 'req-7f3a', quoteId: '6f388be5205ee044cd7fd5047a4ce72e' },
  source: { logs: [], isConfirmed: true },
}

describe('squid routing provider against recorded Squid v2 responses', () => {
  it('asks /v2/status with transactionId, chain ids, requestId and quoteId; maps a success', async () => {
    replies['GET /v2/status'] = { status: 200, body: fixture('status-success') }
    const status = await provider().status(statusQuery)
    const query = requests[0]?.query
    expect(Object.fromEntries(query ?? [])).toEqual({
      transactionId: statusQuery.sourceTxHash,
      fromChainId: '43114',
      toChainId: '8453',
      requestId: 'req-7f3a',
      quoteId: '6f388be5205ee044cd7fd5047a4ce72e',
    })
    expect(status).toEqual({
      statusRaw: 'success',
      destTxHash: '0x9af48c105a6556155eb86e9a2f552a51474ea11ff37a9a86c2ed24bb37abbbee',
      toAmountWei: null,
      steps: [
        { type: 'bridge', chainId: 43114, txHash: statusQuery.sourceTxHash, status: 'success' },
        {
          type: 'transfer',
          chainId: 8453,
          txHash: '0x9af48c105a6556155eb86e9a2f552a51474ea11ff37a9a86c2ed24bb37abbbee',
          status: 'success',
        },
      ],
      gasStatus: 'gas_paid_enough_gas',
      isGmpTransaction: true,
      axelarTransactionUrl:
        'https://axelarscan.io/gmp/0xc6b6ed43d2e29b36197a1acc711ed14eec735de8525689ab0d216f736f4ba65c',
      errorMessage: null,
    })
  })

  it('ongoing keeps the destination pending with no hash', async () => {
    replies['GET /v2/status'] = { status: 200, body: fixture('status-ongoing') }
    const status = await provider().status(statusQuery)
    expect(status.statusRaw).toBe('ongoing')
    expect(status.destTxHash).toBeNull()
    expect(status.steps.map((step) => step.status)).toEqual(['success', 'pending'])
  })

  it('a 404 and a 200 not_found both read as not_found', async () => {
    const notFound = await provider().status(statusQuery)
    expect(requests).toHaveLength(1)
    expect(notFound.statusRaw).toBe('not_found')
    replies['GET /v2/status'] = { status: 200, body: fixture('status-not-found') }
    expect((await provider().status(statusQuery)).statusRaw).toBe('not_found')
  })

  it('refund reads as refunded; failed_on_destination carries the error and a failed destination step', async () => {
    replies['GET /v2/status'] = { status: 200, body: fixture('status-refund') }
    const refunded = await provider().status(statusQuery)
    expect(refunded.statusRaw).toBe('refunded')
    expect(refunded.errorMessage).toBe('refunded')

    replies['GET /v2/status'] = { status: 200, body: fixture('status-failed-on-destination') }
    const failed = await provider().status(statusQuery)
    expect(failed.statusRaw).toBe('failed_on_destination')
    expect(failed.errorMessage).toBe('execution reverted: INSUFFICIENT_OUTPUT_AMOUNT')
    expect(failed.steps.map((step) => step.status)).toEqual(['success', 'failed'])
  })
})
