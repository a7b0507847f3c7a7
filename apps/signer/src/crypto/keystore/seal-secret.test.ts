import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { base64, base64urlnopad } from '@scure/base'
import { mnemonicToEntropy } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { describe, expect, it } from 'vitest'
import { createReasonOf } from '../../../test/create-reason-of.ts'
import { deriveEvmAccount } from './derive-evm-account.ts'
import { deriveSolanaAccount } from './derive-solana-account.ts'
import { deriveWalletSeed } from './derive-wallet-seed.ts'
import { generateWallet } from './generate-wallet.ts'
import { KeystoreError } from './keystore-error.ts'
import { openSecret } from './open-secret.ts'
import { sealSecret } from './seal-secret.ts'

const keyEncryptionKey = crypto.getRandomValues(new Uint8Array(32))
const binding = { keyEncryptionKey, userId: 'user-1', purpose: 'wallet-mnemonic' }

function containsSequence(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let start = 0; start + needle.length <= haystack.length; start += 1) {
    for (let offset = 0; offset < needle.length; offset += 1) {
      if (haystack[start + offset] !== needle[offset]) continue outer
    }
    return true
  }
  return false
}

const reasonOf = createReasonOf(KeystoreError)

describe('sealSecret and openSecret', () => {
  it('keep no plaintext seed or key bytes in a sealed wallet record', async () => {
    const wallet = await generateWallet()
    const seed = await deriveWalletSeed(wallet.mnemonic)
    const secrets = {
      mnemonic: utf8ToBytes(wallet.mnemonic),
      entropy: mnemonicToEntropy(wallet.mnemonic, wordlist),
      seed,
      evmPrivateKey: deriveEvmAccount(seed).privateKey,
      solanaPrivateKey: deriveSolanaAccount(seed).privateKey,
      keyEncryptionKey,
    }
    const sealed = await sealSecret({ ...binding, plaintext: secrets.mnemonic })
    const parts = sealed.split('.')
    expect(parts[0]).toBe('v1')
    const binary = parts.slice(1).map((part) => base64urlnopad.decode(part))
    const text = sealed.toLowerCase()
    for (const [name, bytes] of Object.entries(secrets)) {
      expect([name, binary.some((part) => containsSequence(part, bytes))]).toEqual([name, false])
      for (const encoded of [bytesToHex(bytes), base64.encode(bytes), base64urlnopad.encode(bytes)]) {
        expect([name, text.includes(encoded.toLowerCase().slice(0, 16))]).toEqual([name, false])
      }
    }
    expect(sealed).not.toContain(wallet.mnemonic.split(' ').slice(0, 3).join(' '))
    expect(new TextDecoder().decode(await openSecret({ ...binding, sealed }))).toBe(wallet.mnemonic)
  })

  it('produce a different record each time for the same secret (fresh data key and nonces)', async () => {
    const plaintext = utf8ToBytes('same secret')
    const [first, second] = await Promise.all([
      sealSecret({ ...binding, plaintext }),
      sealSecret({ ...binding, plaintext }),
    ])
    expect(first).not.toBe(second)
    const firstParts = first.split('.')
    const secondParts = second.split('.')
    expect(firstParts[1]).toBe(secondParts[1])
    for (const index of [2, 3, 4, 5]) expect(firstParts[index]).not.toBe(secondParts[index])
  })

  it('do not open a record for another user or another purpose', async () => {
    const sealed = await sealSecret({ ...binding, plaintext: utf8ToBytes('seed') })
    expect(await reasonOf(openSecret({ ...binding, userId: 'user-2', sealed }))).toBe(
      'SEALED_SECRET_REJECTED',
    )
    expect(await reasonOf(openSecret({ ...binding, purpose: 'totp-secret', sealed }))).toBe(
      'SEALED_SECRET_REJECTED',
    )
  })

  it('name the key they need and refuse another key-encryption key', async () => {
    const sealed = await sealSecret({ ...binding, plaintext: utf8ToBytes('seed') })
    const otherKey = crypto.getRandomValues(new Uint8Array(32))
    expect(await reasonOf(openSecret({ ...binding, keyEncryptionKey: otherKey, sealed }))).toBe(
      'SEALED_SECRET_WRONG_KEY',
    )
    const relabelled = [
      sealed.split('.')[0],
      base64urlnopad.encode(new Uint8Array(8)),
      ...sealed.split('.').slice(2),
    ]
    expect(await reasonOf(openSecret({ ...binding, sealed: relabelled.join('.') }))).toBe(
      'SEALED_SECRET_WRONG_KEY',
    )
  })

  it('reject any altered part, and a data key moved from another record', async () => {
    const sealed = await sealSecret({ ...binding, plaintext: utf8ToBytes('a wallet seed phrase') })
    const other = await sealSecret({ ...binding, plaintext: utf8ToBytes('another seed phrase!') })
    for (const index of [2, 3, 4, 5]) {
      const parts = sealed.split('.')
      const bytes = base64urlnopad.decode(parts[index] ?? '')
      bytes[0] = (bytes[0] ?? 0) ^ 0x80
      parts[index] = base64urlnopad.encode(bytes)
      expect([index, await reasonOf(openSecret({ ...binding, sealed: parts.join('.') }))]).toEqual([
        index,
        'SEALED_SECRET_REJECTED',
      ])
    }
    const spliced = [...sealed.split('.').slice(0, 4), ...other.split('.').slice(4)].join('.')
    expect(await reasonOf(openSecret({ ...binding, sealed: spliced }))).toBe('SEALED_SECRET_REJECTED')
  })

  it('reject malformed records and unknown versions', async () => {
    const sealed = await sealSecret({ ...binding, plaintext: utf8ToBytes('seed') })
    for (const candidate of [
      '',
      'v1',
      sealed.replace(/^v1/, 'v2'),
      `${sealed}.extra`,
      sealed.replace(/\.[^.]+$/, '.'),
    ]) {
      expect([candidate.slice(0, 8), await reasonOf(openSecret({ ...binding, sealed: candidate }))]).toEqual([
        candidate.slice(0, 8),
        'SEALED_SECRET_MALFORMED',
      ])
    }
  })

  it('refuse a key that is not 32 bytes and an invalid binding', async () => {
    const plaintext = utf8ToBytes('seed')
    expect(await reasonOf(sealSecret({ ...binding, keyEncryptionKey: new Uint8Array(16), plaintext }))).toBe(
      'MASTER_KEY_INVALID',
    )
    expect(await reasonOf(sealSecret({ ...binding, userId: '', plaintext }))).toBe(
      'SEALED_SECRET_BINDING_INVALID',
    )
    expect(await reasonOf(sealSecret({ ...binding, purpose: 'Wallet Seed', plaintext }))).toBe(
      'SEALED_SECRET_BINDING_INVALID',
    )
  })
})
