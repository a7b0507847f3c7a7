import { describe, expect, it } from 'vitest'
import { createSignerClient, mfaRequiredMessage } from './signer-client.ts'

// docs/signer.md#sdk-mfa: `/v1/auth`'s error body may name `data.multiFactors`; the client then throws a
// multi-factor-required error carrying them (the signer of this project asks after the code
// instead, docs/signer.md#multi-factor, so the answer here is a stand-in service's).

const factors = [{ multiFactorId: 'factor-1', multiFactorType: 'totp' }]

function clientAnswering(body: unknown, status = 401) {
  return createSignerClient({
    baseUrl: 'https://pay.example',
    fetch: (async () =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      })) as typeof globalThis.fetch,
  })
}

describe('signer client: multi-factor-required errors', () => {
  it('throws a multi-factor-required error when the error body names data.multiFactors', async () => {
    const client = clientAnswering({
      error: { code: 'UNAUTHORIZED', message: 'MFA' },
      data: { multiFactors: factors },
    })
    const refusal = client.auth({ email: 'ada@example.com', emailMode: 'otp', targetPublicKey: '04aa' })
    await expect(refusal).rejects.toThrow(mfaRequiredMessage)
    await expect(refusal).rejects.toMatchObject({
      details: { reason: 'MFA_REQUIRED', multiFactors: factors },
    })
  })

  it('keeps the signer’s own message for any other refusal', async () => {
    const client = clientAnswering({ error: { code: 'RATE_LIMITED', message: 'Slow down.' } }, 429)
    await expect(
      client.auth({ email: 'ada@example.com', emailMode: 'otp', targetPublicKey: '04aa' }),
    ).rejects.toThrow('Slow down.')
  })
})
