import { p256 } from '@noble/curves/nist.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { decryptCredentialBundle as referenceDecrypt } from '@turnkey/crypto'
import bs58check from 'bs58check'
import { describe, expect, it } from 'vitest'
import { createReasonOf } from '../../../test/create-reason-of.ts'
import { BundleError } from './bundle-error.ts'
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

describe('encryptCredentialBundle', () => {
  it('are opened by @turnkey/crypto decryptCredentialBundle, giving back the same private key', async () => {
    for (let index = 0; index < 5; index += 1) {
      const target = newTarget()
      const session = p256.utils.randomSecretKey()
      const bundle = await encryptCredentialBundle({
        sessionPrivateKey: session,
        targetPublicKey: target.publicKey,
      })
      expect(referenceDecrypt(bundle, target.privateKeyHex)).toBe(bytesToHex(session))
    }
  })

  it('have the Turnkey layout: bs58check of a 33-byte compressed key and ciphertext (32 + 16-byte tag)', async () => {
    const target = newTarget()
    const bundle = await encryptCredentialBundle({
      sessionPrivateKey: p256.utils.randomSecretKey(),
      targetPublicKey: target.publicKey,
    })
    const bytes = bs58check.decode(bundle)
    expect(bytes.length).toBe(33 + 32 + 16)
    expect([0x02, 0x03]).toContain(bytes[0])
  })

  it('are refused for a target key that is compressed, off the curve or not hex', async () => {
    const target = newTarget()
    const session = p256.utils.randomSecretKey()
    const compressed = bytesToHex(p256.getPublicKey(target.privateKey, true))
    const offCurve = `04${'11'.repeat(64)}`
    for (const targetPublicKey of [compressed, offCurve, 'zz', `0x${target.publicKey}`]) {
      expect(await reasonOf(encryptCredentialBundle({ sessionPrivateKey: session, targetPublicKey }))).toBe(
        'TARGET_KEY_INVALID',
      )
    }
    expect(
      await reasonOf(
        encryptCredentialBundle({ sessionPrivateKey: new Uint8Array(32), targetPublicKey: target.publicKey }),
      ),
    ).toBe('PLAINTEXT_INVALID')
  })
})
