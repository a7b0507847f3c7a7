import { describe, expect, it } from 'vitest'
import {
  findCatalogueEntry,
  getWalletInstallUrl,
  isMobileDevice,
  listPopularWallets,
  walletCatalogue,
} from './wallet-catalogue'
import { describePaymentError, isUserRejection } from './wallet-errors'

describe('wallet catalogue', () => {
  it('holds the SPEC ids in the preferred order, then the rest', () => {
    expect(listPopularWallets('').map((entry) => entry.id)).toEqual([
      'metamask',
      'coinbase',
      'walletconnect',
      'rainbow',
      'phantom-evm',
      'rabby',
      'brave',
      'okx',
      'zerion',
      'taho',
      'trust',
      'safe',
      'imtoken',
      'bitget',
      'kucoin',
    ])
  })

  it('filters by name, case-insensitively', () => {
    expect(listPopularWallets('RAIN').map((entry) => entry.id)).toEqual(['rainbow'])
    expect(listPopularWallets('nothing like it')).toEqual([])
  })

  it('uses only local logos', () => {
    for (const entry of walletCatalogue) expect(entry.logo.initials.length).toBeGreaterThan(0)
  })

  it('finds a detected wallet by its rdns', () => {
    expect(findCatalogueEntry('io.metamask')?.id).toBe('metamask')
    expect(findCatalogueEntry('dev.quicklinks.testwallet')).toBeUndefined()
  })

  it('deep-links on a phone and sends a desktop to the home page', () => {
    const metamask = walletCatalogue.find((entry) => entry.id === 'metamask')
    if (metamask === undefined) throw new Error('metamask missing')
    expect(getWalletInstallUrl(metamask, 'https://pay.example/pay/coffee', true)).toBe(
      'https://metamask.app.link/dapp/pay.example/pay/coffee',
    )
    expect(getWalletInstallUrl(metamask, 'https://pay.example/pay/coffee', false)).toBe(metamask.homepage)
    expect(isMobileDevice('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', false)).toBe(true)
    expect(isMobileDevice('Mozilla/5.0 (X11; Linux x86_64)', false)).toBe(false)
  })
})

describe('wallet errors', () => {
  it('finds a rejection down the cause chain', () => {
    const wrapped = { shortMessage: 'User rejected the request.', cause: { code: 4001 } }
    expect(isUserRejection(wrapped)).toBe(true)
    expect(describePaymentError(wrapped)).toBe('Transaction was rejected by the user.')
  })

  it('falls back to the short message, then the default', () => {
    expect(describePaymentError({ shortMessage: 'Insufficient funds for gas.' })).toBe(
      'Insufficient funds for gas.',
    )
    expect(describePaymentError(new Error('line one\nline two'))).toBe('line one')
    expect(describePaymentError(undefined)).toBe('Failed to submit transaction.')
  })
})
