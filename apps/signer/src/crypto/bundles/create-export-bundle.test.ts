import { ed25519 } from '@noble/curves/ed25519.js'
import { p256 } from '@noble/curves/nist.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { base58 } from '@scure/base'
import { generateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { decryptExportBundle, generateP256KeyPair } from '@turnkey/crypto'
import { describe, expect, it } from 'vitest'
import { createReasonOf } from '../../../test/create-reason-of.ts'
import { BundleError } from './bundle-error.ts'
import { createExportBundle } from './create-export-bundle.ts'

const organizationId = '6a3f2d1c-0b9e-4f7a-8c6d-5e4f3a2b1c0d'

function newServiceKey() {
  const signingKey = p256.utils.randomSecretKey()
  return { signingKey, pinned: bytesToHex(p256.getPublicKey(signingKey, false)) }
}

const reasonOf = createReasonOf(BundleError)

describe('createExportBundle', () => {
  it('is opened by @turnkey/crypto decryptExportBundle with our key pinned: a mnemonic export', async () => {
    const service = newServiceKey()
    const frame = generateP256KeyPair()
    const mnemonic = generateMnemonic(wordlist, 256)
    const exportBundle = await createExportBundle({
      secret: { kind: 'mnemonic', mnemonic },
      targetPublicKey: frame.publicKeyUncompressed,
      organizationId,
      signingKey: service.signingKey,
    })
    const opened = await decryptExportBundle({
      exportBundle,
      embeddedKey: frame.privateKey,
      organizationId,
      dangerouslyOverrideSignerPublicKey: service.pinned,
      returnMnemonic: true,
    })
    expect(opened).toBe(mnemonic)
  })

  it('is opened by the reference as a hex private key (EVM) and as a Solana keypair', async () => {
    const service = newServiceKey()
    const frame = generateP256KeyPair()
    const evmKey = secp256k1.utils.randomSecretKey()
    const evmBundle = await createExportBundle({
      secret: { kind: 'privateKey', privateKey: evmKey },
      targetPublicKey: frame.publicKeyUncompressed,
      organizationId,
      signingKey: service.signingKey,
    })
    expect(
      await decryptExportBundle({
        exportBundle: evmBundle,
        embeddedKey: frame.privateKey,
        organizationId,
        dangerouslyOverrideSignerPublicKey: service.pinned,
        returnMnemonic: false,
      }),
    ).toBe(bytesToHex(evmKey))

    const solanaSeed = ed25519.utils.randomSecretKey()
    const solanaBundle = await createExportBundle({
      secret: { kind: 'privateKey', privateKey: solanaSeed },
      targetPublicKey: frame.publicKeyUncompressed,
      organizationId,
      signingKey: service.signingKey,
    })
    const keypair = await decryptExportBundle({
      exportBundle: solanaBundle,
      embeddedKey: frame.privateKey,
      organizationId,
      dangerouslyOverrideSignerPublicKey: service.pinned,
      keyFormat: 'SOLANA',
      returnMnemonic: false,
    })
    expect(base58.decode(keypair)).toEqual(
      new Uint8Array([...solanaSeed, ...ed25519.getPublicKey(solanaSeed)]),
    )
  })

  it('is refused by the reference when another key is pinned or another organization expected', async () => {
    const service = newServiceKey()
    const frame = generateP256KeyPair()
    const exportBundle = await createExportBundle({
      secret: { kind: 'mnemonic', mnemonic: generateMnemonic(wordlist) },
      targetPublicKey: frame.publicKeyUncompressed,
      organizationId,
      signingKey: service.signingKey,
    })
    const base = { exportBundle, embeddedKey: frame.privateKey, returnMnemonic: true }
    await expect(
      decryptExportBundle({
        ...base,
        organizationId,
        dangerouslyOverrideSignerPublicKey: newServiceKey().pinned,
      }),
    ).rejects.toThrow(/does not match/)
    await expect(
      decryptExportBundle({
        ...base,
        organizationId: 'other',
        dangerouslyOverrideSignerPublicKey: service.pinned,
      }),
    ).rejects.toThrow(/organization id does not match/)
  })

  it('has the Turnkey layout, field for field', async () => {
    const service = newServiceKey()
    const frame = generateP256KeyPair()
    const bundle = JSON.parse(
      await createExportBundle({
        secret: { kind: 'privateKey', privateKey: secp256k1.utils.randomSecretKey() },
        targetPublicKey: frame.publicKeyUncompressed,
        organizationId,
        signingKey: service.signingKey,
      }),
    )
    expect(Object.keys(bundle)).toEqual(['version', 'data', 'dataSignature', 'enclaveQuorumPublic'])
    expect(bundle.version).toBe('v1.0.0')
    expect(bundle.enclaveQuorumPublic).toBe(service.pinned)
    const data = JSON.parse(new TextDecoder().decode(hexToBytes(bundle.data)))
    expect(Object.keys(data)).toEqual(['organizationId', 'encappedPublic', 'ciphertext'])
    expect(data.organizationId).toBe(organizationId)
    expect(data.encappedPublic).toMatch(/^04[0-9a-f]{128}$/)
    expect(data.ciphertext).toMatch(new RegExp(`^[0-9a-f]{${(32 + 16) * 2}}$`))
    const signature = p256.Signature.fromBytes(hexToBytes(bundle.dataSignature), 'der')
    expect(signature.hasHighS()).toBe(false)
    expect(
      p256.verify(hexToBytes(bundle.dataSignature), hexToBytes(bundle.data), hexToBytes(service.pinned), {
        format: 'der',
      }),
    ).toBe(true)
  })

  it('refuses a compressed target key, an invalid mnemonic, a short key and a bad signing key', async () => {
    const service = newServiceKey()
    const frame = generateP256KeyPair()
    const valid = {
      secret: { kind: 'mnemonic', mnemonic: generateMnemonic(wordlist) } as const,
      targetPublicKey: frame.publicKeyUncompressed,
      organizationId,
      signingKey: service.signingKey,
    }
    expect(await reasonOf(createExportBundle({ ...valid, targetPublicKey: frame.publicKey }))).toBe(
      'TARGET_KEY_INVALID',
    )
    expect(
      await reasonOf(
        createExportBundle({ ...valid, secret: { kind: 'mnemonic', mnemonic: 'abandon abandon abandon' } }),
      ),
    ).toBe('PLAINTEXT_INVALID')
    expect(
      await reasonOf(
        createExportBundle({ ...valid, secret: { kind: 'privateKey', privateKey: new Uint8Array(31) } }),
      ),
    ).toBe('PLAINTEXT_INVALID')
    expect(await reasonOf(createExportBundle({ ...valid, signingKey: new Uint8Array(32) }))).toBe(
      'SIGNING_KEY_INVALID',
    )
    expect(await reasonOf(createExportBundle({ ...valid, organizationId: '' }))).toBe('PLAINTEXT_INVALID')
  })

  it('leaves the caller signing key intact', async () => {
    const service = newServiceKey()
    const copy = Uint8Array.from(service.signingKey)
    await createExportBundle({
      secret: { kind: 'mnemonic', mnemonic: generateMnemonic(wordlist) },
      targetPublicKey: generateP256KeyPair().publicKeyUncompressed,
      organizationId,
      signingKey: service.signingKey,
    })
    expect(service.signingKey).toEqual(copy)
  })
})
