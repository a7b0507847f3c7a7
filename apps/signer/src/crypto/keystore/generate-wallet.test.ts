import { mnemonicToSeedSync } from '@scure/bip39'
import { getAddress } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { deriveEvmAccount } from './derive-evm-account.ts'
import { deriveSolanaAccount } from './derive-solana-account.ts'
import { deriveWalletSeed } from './derive-wallet-seed.ts'
import { generateWallet } from './generate-wallet.ts'
import { KeystoreError } from './keystore-error.ts'

// The BIP-39 test phrase; its accounts are published by wallets and libraries alike
// (m/44'/60'/0'/0/0 and Phantom's m/44'/501'/0'/0').
const testPhrase =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'

describe('wallet derivation', () => {
  it('derives the known EVM and Solana addresses of the BIP-39 test phrase', async () => {
    const seed = await deriveWalletSeed(testPhrase)
    expect(deriveEvmAccount(seed).address).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94')
    expect(deriveSolanaAccount(seed).address).toBe('HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk')
  })

  it('computes the standard BIP-39 seed (empty passphrase) with WebCrypto', async () => {
    expect(await deriveWalletSeed(testPhrase)).toEqual(mnemonicToSeedSync(testPhrase))
  })

  it('refuses a phrase with a bad checksum, unknown words or an unsupported length', async () => {
    for (const phrase of [
      testPhrase.replace(/about$/, 'abandon'),
      testPhrase.replace(/about$/, 'abouts'),
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon address',
      '',
    ]) {
      await expect(deriveWalletSeed(phrase)).rejects.toBeInstanceOf(KeystoreError)
    }
  })
})

describe('generateWallet', () => {
  it('makes a 12-word wallet whose EVM address matches viem mnemonicToAccount, checksummed', async () => {
    const wallet = await generateWallet()
    expect(wallet.mnemonic.split(' ')).toHaveLength(12)
    expect(wallet.evmAddress).toBe(mnemonicToAccount(wallet.mnemonic).address)
    expect(wallet.evmAddress).toBe(getAddress(wallet.evmAddress.toLowerCase()))
    expect(wallet.solanaAddress).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
  })

  it('makes 24-word wallets on request, a different one every time', async () => {
    const [first, second] = await Promise.all([
      generateWallet({ wordCount: 24 }),
      generateWallet({ wordCount: 24 }),
    ])
    expect(first.mnemonic.split(' ')).toHaveLength(24)
    expect(first.evmAddress).toBe(mnemonicToAccount(first.mnemonic).address)
    expect(first.mnemonic).not.toBe(second.mnemonic)
    expect(first.solanaAddress).not.toBe(second.solanaAddress)
  })

  it('reports the addresses the mnemonic derives to', async () => {
    const wallet = await generateWallet()
    const seed = await deriveWalletSeed(wallet.mnemonic)
    expect(deriveSolanaAccount(seed).address).toBe(wallet.solanaAddress)
    expect(deriveEvmAccount(seed).address).toBe(wallet.evmAddress)
  })
})
