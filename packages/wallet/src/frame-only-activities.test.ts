import { accountActivityTypes } from '@quicklinks/signer/routes/account-routes'
import { walletActivityTypes } from '@quicklinks/signer/routes/wallet-routes'
import { describe, expect, it } from 'vitest'
import {
  describeContactChangeActivity,
  describeExportActivity,
  frameOnlyActivities,
  isFrameOnlyActivityType,
  parseContactChange,
  parseExportTarget,
} from './frame-only-activities.ts'

describe('frame-only activities', () => {
  it('name the activity types the signer’s routes check', () => {
    expect(frameOnlyActivities.exportWallet.type).toBe(walletActivityTypes.exportWallet)
    expect(frameOnlyActivities.exportWalletAccount.type).toBe(walletActivityTypes.exportWalletAccount)
    expect(frameOnlyActivities.updateEmail.type).toBe(accountActivityTypes.updateEmail)
    expect(frameOnlyActivities.updatePhone.type).toBe(accountActivityTypes.updatePhone)
  })

  it('keep every export and contact change from the page, and nothing the page needs', () => {
    for (const { type } of Object.values(frameOnlyActivities))
      expect(isFrameOnlyActivityType(type)).toBe(true)
    expect(isFrameOnlyActivityType('ACTIVITY_TYPE_EXPORT_PRIVATE_KEY')).toBe(true)
    const pageTypes = [
      ...Object.values(walletActivityTypes).filter((type) => !type.includes('EXPORT')),
      accountActivityTypes.whoami,
      accountActivityTypes.listAuthMethods,
      accountActivityTypes.revokeSession,
    ]
    for (const type of pageTypes) expect(isFrameOnlyActivityType(type), type).toBe(false)
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
    expect(parseExportTarget({ kind: 'SEED_PHRASE', address: '0x1' })).toBeUndefined()
    expect(parseExportTarget({ kind: 'MNEMONIC', walletId: 'w' })).toBeUndefined()
  })
})
