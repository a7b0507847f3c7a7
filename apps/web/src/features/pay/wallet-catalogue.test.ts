import { UserRejectedRequestError } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Connector } from 'wagmi'
import { listDetectedWallets } from './list-detected-wallets'
import { toChainPathSegment } from './wallet-balances'
import {
  findCatalogueEntry,
  findCatalogueEntryByFlags,
  getWalletInstallUrl,
  isMobileDevice,
  listPopularWallets,
  walletCatalogue,
} from './wallet-catalogue'
import { describePaymentError, isUserRejection } from './wallet-errors'

describe('wallet catalogue', () => {
  it('holds the documented ids in the preferred order, then the rest', () => {
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

  it("names a legacy provider by its flags, another wallet's flag winning over isMetaMask", () => {
    expect(findCatalogueEntryByFlags({ isMetaMask: true })?.id).toBe('metamask')
    expect(findCatalogueEntryByFlags({ isMetaMask: true, isRabby: true })?.id).toBe('rabby')
    expect(findCatalogueEntryByFlags({ isMetaMask: true, isBraveWallet: true })?.id).toBe('brave')
    expect(findCatalogueEntryByFlags({ isMetaMask: 'yes' })).toBeUndefined()
    expect(findCatalogueEntryByFlags({})).toBeUndefined()
    expect(findCatalogueEntryByFlags(undefined)).toBeUndefined()
  })

  it('lists a legacy window.ethereum only when no wallet announced itself, named by its flags', () => {
    const injected = { uid: 'legacy-uid', id: 'injected', type: 'injected', name: 'Injected' } as Connector
    const announced = { uid: 'a-uid', id: 'io.rabby', type: 'injected', name: 'Rabby' } as Connector
    expect(listDetectedWallets([injected], { isMetaMask: true })).toEqual([
      { id: 'legacy-uid', name: 'MetaMask', rdns: 'io.metamask' },
    ])
    expect(listDetectedWallets([injected], { request: () => undefined })).toEqual([
      { id: 'legacy-uid', name: 'Browser Wallet', rdns: undefined },
    ])
    expect(listDetectedWallets([injected], undefined)).toEqual([])
    expect(
      listDetectedWallets([injected, announced], { isMetaMask: true }).map((wallet) => wallet.name),
    ).toEqual(['Rabby'])
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

  it("words wagmi's refused switch after adding a chain as its own text, not as a plain rejection", () => {
    const refused = new UserRejectedRequestError(new Error('User rejected switch after adding network.'))
    expect(isUserRejection(refused)).toBe(true)
    expect(describePaymentError(refused)).toBe('User rejected switch after adding network.')
    expect(describePaymentError({ cause: refused })).toBe('User rejected switch after adding network.')
  })

  it('falls back to the short message, then the default', () => {
    expect(describePaymentError({ shortMessage: 'Insufficient funds for gas.' })).toBe(
      'Insufficient funds for gas.',
    )
    expect(describePaymentError(new Error('line one\nline two'))).toBe('line one')
    expect(describePaymentError(undefined)).toBe('Failed to submit transaction.')
  })
})

describe('balances path', () => {
  it('names the chain by its network name, lowercased with hyphens, or by id while unknown', () => {
    expect(toChainPathSegment({ chainId: 8453, networkName: 'Base' })).toBe('base')
    expect(toChainPathSegment({ chainId: 42161, networkName: 'Arbitrum One' })).toBe('arbitrum-one')
    expect(toChainPathSegment({ chainId: 43114 })).toBe('43114')
  })
})
