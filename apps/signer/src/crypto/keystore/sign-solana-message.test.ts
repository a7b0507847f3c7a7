import { ed25519 } from '@noble/curves/ed25519.js'
import { utf8ToBytes } from '@noble/hashes/utils.js'
import { base58 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { deriveWalletSeed } from './derive-wallet-seed.ts'
import { signSolanaMessage } from './sign-solana-message.ts'

const testPhrase =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'
// Phantom's address for the test phrase: the public key the signature must verify under.
const publicKey = base58.decode('HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk')

describe('signSolanaMessage', () => {
  it('returns a 64-byte ed25519 signature that verifies under the wallet Solana address', async () => {
    const seed = await deriveWalletSeed(testPhrase)
    const message = utf8ToBytes('a serialised Solana transaction message')
    const signature = signSolanaMessage(seed, message)
    expect(signature).toHaveLength(64)
    expect(ed25519.verify(signature, message, publicKey)).toBe(true)
    expect(ed25519.verify(signature, utf8ToBytes('another message'), publicKey)).toBe(false)
  })

  it('is deterministic', async () => {
    const seed = await deriveWalletSeed(testPhrase)
    const message = new Uint8Array([1, 2, 3])
    expect(signSolanaMessage(seed, message)).toEqual(signSolanaMessage(seed, message))
  })
})
