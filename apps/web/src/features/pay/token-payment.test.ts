import { describe, expect, it } from 'vitest'
import { chooseTokenPaymentMethod } from './token-payment'
import { describeCarriedApproval } from './use-token-payment-method'

const permitRoute = { hasPermit: true, acceptsPermit: true, payerCode: undefined }

describe('chooseTokenPaymentMethod', () => {
  it('batches when the wallet runs atomic batches on the chain, permit token or not', () => {
    expect(chooseTokenPaymentMethod({ ...permitRoute, atomicStatus: 'supported' })).toBe('batch')
    expect(chooseTokenPaymentMethod({ ...permitRoute, atomicStatus: 'ready' })).toBe('batch')
    expect(
      chooseTokenPaymentMethod({
        atomicStatus: 'ready',
        hasPermit: false,
        acceptsPermit: false,
        payerCode: null,
      }),
    ).toBe('batch')
  })

  it('signs a permit without atomic batches, for a permit token on a route that takes it, from a key', () => {
    for (const atomicStatus of ['unsupported', undefined, { status: 'supported' }]) {
      expect(chooseTokenPaymentMethod({ ...permitRoute, atomicStatus })).toBe('permit')
    }
    expect(chooseTokenPaymentMethod({ ...permitRoute, atomicStatus: undefined, payerCode: '0x' })).toBe(
      'permit',
    )
    // An EOA delegated by EIP-7702 still signs with its own key.
    expect(
      chooseTokenPaymentMethod({
        ...permitRoute,
        atomicStatus: undefined,
        payerCode: `0xef0100${'ab'.repeat(20)}`,
      }),
    ).toBe('permit')
  })

  it('keeps the two steps for a plain token, a route without permitAndCall, a contract account or unread code', () => {
    const none = { atomicStatus: 'unsupported' }
    expect(chooseTokenPaymentMethod({ ...permitRoute, ...none, hasPermit: false })).toBe('approve')
    expect(chooseTokenPaymentMethod({ ...permitRoute, ...none, acceptsPermit: false })).toBe('approve')
    expect(chooseTokenPaymentMethod({ ...permitRoute, ...none, payerCode: '0x6080604052' })).toBe('approve')
    expect(chooseTokenPaymentMethod({ ...permitRoute, ...none, payerCode: null })).toBe('approve')
  })

  it('words the carried approval for the confirm step', () => {
    expect(describeCarriedApproval('batch')).toBe('Confirm & Pay approves and pays in one confirmation.')
    expect(describeCarriedApproval('permit')).toBe(
      'Confirm & Pay signs a permit instead: no approval transaction.',
    )
    expect(describeCarriedApproval('approve')).toBeNull()
  })
})
