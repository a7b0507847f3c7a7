import { describe, expect, it } from 'vitest'
import {
  describeContactChangeActivity,
  describeContactRemovalActivity,
  describeExportActivity,
  frameOnlyActivities,
  isFrameOnlyActivityType,
  parseContactChange,
  parseContactRemoval,
  parseExportTarget,
} from './frame-only-activities.ts'
import { signerActivities } from './signer-activities.ts'

describe('frame-only activities', () => {
  it('keep every export, contact change and other frames call from the page, and nothing the page needs', () => {
    for (const { type } of Object.values(frameOnlyActivities)) {
      expect(isFrameOnlyActivityType(type), type).toBe(true)
    }
    for (const { type, builder } of Object.values(signerActivities)) {
      expect(isFrameOnlyActivityType(type), type).toBe(builder === 'frames')
    }
    expect(isFrameOnlyActivityType('ACTIVITY_TYPE_EXPORT_PRIVATE_KEY')).toBe(true)
    expect(isFrameOnlyActivityType('ACTIVITY_TYPE_CREATE_USERS')).toBe(true)
  })

  it('build exports to the given key and contact changes with only their own fields', () => {
    expect(describeExportActivity({ kind: 'SEED_PHRASE', walletId: 'w' }, '04aa')).toEqual({
      path: 'export-wallet',
      type: 'ACTIVITY_TYPE_EXPORT_WALLET',
      parameters: { walletId: 'w', targetPublicKey: '04aa' },
    })
    expect(describeExportActivity({ kind: 'PRIVATE_KEY', address: '0x1' }, '04aa').path).toBe(
      'export-wallet-account',
    )
    const change = parseContactChange({
      channel: 'email',
      contact: 'a@example.com',
      verificationToken: 'new',
      targetPublicKey: '04aa',
    })
    expect(change).toEqual({ channel: 'email', contact: 'a@example.com', verificationToken: 'new' })
    expect(change && describeContactChangeActivity(change).parameters).toEqual({
      email: 'a@example.com',
      verificationToken: 'new',
    })
    expect(parseContactChange({ channel: 'email', contact: '', verificationToken: 't' })).toBeUndefined()
    // An account with an authenticator app sends its code as the step-up beside the contact's proof.
    const withTotp = parseContactChange({
      channel: 'sms',
      contact: '+14155550100',
      verificationToken: 'n',
      totpCode: '123456',
    })
    expect(withTotp && describeContactChangeActivity(withTotp).parameters).toEqual({
      phone: '+14155550100',
      verificationToken: 'n',
      stepUp: { totpCode: '123456' },
    })
    expect(
      parseContactChange({ channel: 'sms', contact: '+1', verificationToken: 'n', totpCode: 7 }),
    ).toBeUndefined()
    const removal = parseContactRemoval({ channel: 'email', verificationToken: 't', totpCode: '654321' })
    expect(removal && describeContactRemovalActivity(removal)).toEqual({
      path: 'remove-email-auth',
      type: 'ACTIVITY_TYPE_REMOVE_EMAIL_AUTH',
      parameters: { verificationToken: 't', stepUp: { totpCode: '654321' } },
    })
    expect(parseContactRemoval({ channel: 'email', verificationToken: 't', totpCode: '' })).toBeUndefined()
    expect(parseExportTarget({ kind: 'SEED_PHRASE', address: '0x1' })).toBeUndefined()
    expect(parseExportTarget({ kind: 'MNEMONIC', walletId: 'w' })).toBeUndefined()
  })
})
