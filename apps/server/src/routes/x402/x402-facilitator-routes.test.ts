import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import { x402SupportedResponseSchema } from '@quicklinks/core/api/x402'
import { describe, expect, it } from 'vitest'
import { buildTestApp } from '../../../test/build-test-app.ts'
import { usePaymentScene } from '../../../test/payment-scene.ts'

// GET /x402/facilitator/supported (docs/decisions/0031) on the devnet: what @x402/core's
// x402Facilitator reports for @x402/evm's exact scheme registered on each chain with USDC.

const scene = usePaymentScene()

describe('GET /x402/facilitator/supported', { timeout: 60_000 }, () => {
  it('lists x402 v2 exact on every devnet chain with an EIP-3009 token, signed for by the relayer', async () => {
    const response = await scene.testApp.app.inject({ method: 'GET', url: '/x402/facilitator/supported' })
    expect(response.statusCode).toBe(200)
    const supported = x402SupportedResponseSchema.parse(response.json())
    const kinds = supported.kinds.map((kind) => `${kind.x402Version} ${kind.scheme} ${kind.network}`).sort()
    expect(kinds).toEqual(['2 exact eip155:42161', '2 exact eip155:43114', '2 exact eip155:8453'])
    expect(supported.extensions).toEqual([])
    expect(supported.signers).toEqual({ 'eip155:*': [scene.devnet.chain(8453).relayer] })
  })

  it('answers 503 with a readable reason on a server without a relayer key or chains', async () => {
    const bare = await buildTestApp()
    try {
      const response = await bare.app.inject({ method: 'GET', url: '/x402/facilitator/supported' })
      expect(response.statusCode).toBe(503)
      const { error } = errorResponseSchema.parse(response.json())
      expect(error.code).toBe('SERVICE_UNAVAILABLE')
      expect(error.message).toBe(
        'Paying over x402 is not available on this server: it has no relayer key or no chains.',
      )
    } finally {
      await bare.close()
    }
  })
})
