import { p256 } from '@noble/curves/nist.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { generateP256KeyPair, hpkeEncrypt } from '@turnkey/crypto'
import bs58check from 'bs58check'
import { describe, expect, it } from 'vitest'
import { createReasonOf } from '../../../test/create-reason-of.ts'
import { BundleError } from './bundle-error.ts'
import { decryptCredentialBundle } from './decrypt-credential-bundle.ts'
import { encryptCredentialBundle } from './encrypt-credential-bundle.ts'

function newTarget() {
  const privateKey = p256.utils.randomSecretKey()
  return {
    privateKey,
    privateKeyHex: bytesToHex(privateKey),
    publicKey: bytesToHex(p256.getPublicKey(privateKey, false)),
  }
}

const reasonOf = createReasonOf(BundleError)

describe('decryptCredentialBundle', () => {
  it('round-trip through our decrypt, which also returns the compressed public key', async () => {
    const target = newTarget()
    const session = p256.utils.randomSecretKey()
    const bundle = await encryptCredentialBundle({
      sessionPrivateKey: session,
      targetPublicKey: target.publicKey,
    })
    const opened = await decryptCredentialBundle({ bundle, embeddedPrivateKey: target.privateKey })
    expect(opened.privateKey).toEqual(session)
    expect(opened.publicKey).toBe(bytesToHex(p256.getPublicKey(session, true)))
  })

  it('made by the reference hpkeEncrypt are opened by our decrypt', async () => {
    const target = generateP256KeyPair()
    const session = p256.utils.randomSecretKey()
    const encrypted = hpkeEncrypt({
      plainTextBuf: session,
      targetKeyBuf: hexToBytes(target.publicKeyUncompressed),
    })
    const opened = await decryptCredentialBundle({
      bundle: bs58check.encode(encrypted),
      embeddedPrivateKey: target.privateKey,
    })
    expect(opened.privateKey).toEqual(session)
  })

  it('cannot be opened with another key, nor after a single bit flips', async () => {
    const target = newTarget()
    const bundle = await encryptCredentialBundle({
      sessionPrivateKey: p256.utils.randomSecretKey(),
      targetPublicKey: target.publicKey,
    })
    expect(
      await reasonOf(decryptCredentialBundle({ bundle, embeddedPrivateKey: newTarget().privateKey })),
    ).toBe('DECRYPTION_FAILED')
    const bytes = bs58check.decode(bundle)
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1
    expect(
      await reasonOf(
        decryptCredentialBundle({ bundle: bs58check.encode(bytes), embeddedPrivateKey: target.privateKey }),
      ),
    ).toBe('DECRYPTION_FAILED')
    const corrupted = `${bundle.slice(0, -1)}${bundle.endsWith('1') ? '2' : '1'}`
    expect(
      await reasonOf(decryptCredentialBundle({ bundle: corrupted, embeddedPrivateKey: target.privateKey })),
    ).toBe('BUNDLE_MALFORMED')
  })

  it('refuse a bundle whose plaintext is not a 32-byte session key', async () => {
    const target = generateP256KeyPair()
    const encrypted = hpkeEncrypt({
      plainTextBuf: new Uint8Array(31).fill(7),
      targetKeyBuf: hexToBytes(target.publicKeyUncompressed),
    })
    expect(
      await reasonOf(
        decryptCredentialBundle({
          bundle: bs58check.encode(encrypted),
          embeddedPrivateKey: target.privateKey,
        }),
      ),
    ).toBe('PLAINTEXT_INVALID')
  })
})
