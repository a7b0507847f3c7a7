import { createSign } from 'node:crypto'
import { p256 } from '@noble/curves/nist.js'
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { generateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { formatHpkeBuf, generateP256KeyPair, hpkeEncrypt } from '@turnkey/crypto'
import { describe, expect, it } from 'vitest'
import { createReasonOf } from '../../../test/create-reason-of.ts'
import { BundleError } from './bundle-error.ts'
import { createExportBundle } from './create-export-bundle.ts'
import { openExportBundle } from './open-export-bundle.ts'

const organizationId = 'org-1'

async function setup() {
  const signingKey = p256.utils.randomSecretKey()
  const pinned = bytesToHex(p256.getPublicKey(signingKey, false))
  const frame = generateP256KeyPair()
  const mnemonic = generateMnemonic(wordlist)
  const bundle = await createExportBundle({
    secret: { kind: 'mnemonic', mnemonic },
    targetPublicKey: frame.publicKeyUncompressed,
    organizationId,
    signingKey,
  })
  const open = (overrides: Partial<Parameters<typeof openExportBundle>[0]> = {}) =>
    openExportBundle({
      bundle,
      embeddedPrivateKey: frame.privateKey,
      organizationId,
      pinnedSignerPublicKey: pinned,
      ...overrides,
    })
  return { signingKey, pinned, frame, mnemonic, bundle, open }
}

const reasonOf = createReasonOf(BundleError)

function signDer(data: Uint8Array, signingKey: Uint8Array): string {
  return bytesToHex(p256.sign(data, signingKey, { format: 'der' }))
}

describe('openExportBundle', () => {
  it('opens a bundle signed by the pinned key for the expected organization', async () => {
    const { open, mnemonic, signingKey } = await setup()
    expect(new TextDecoder().decode(await open())).toBe(mnemonic)
    const compressedPin = bytesToHex(p256.getPublicKey(signingKey, true))
    expect(new TextDecoder().decode(await open({ pinnedSignerPublicKey: compressedPin }))).toBe(mnemonic)
  })

  it('rejects a tampered signature', async () => {
    const { open, bundle } = await setup()
    const parsed = JSON.parse(bundle)
    const signature = hexToBytes(parsed.dataSignature)
    signature[signature.length - 1] = (signature[signature.length - 1] ?? 0) ^ 1
    const tampered = JSON.stringify({ ...parsed, dataSignature: bytesToHex(signature) })
    expect(await reasonOf(open({ bundle: tampered }))).toBe('SIGNATURE_INVALID')
  })

  it('rejects a tampered organization id under the original signature', async () => {
    const { open, bundle } = await setup()
    const parsed = JSON.parse(bundle)
    const data = JSON.parse(new TextDecoder().decode(hexToBytes(parsed.data)))
    const rewritten = bytesToHex(utf8ToBytes(JSON.stringify({ ...data, organizationId: 'org-2' })))
    const tampered = JSON.stringify({ ...parsed, data: rewritten })
    expect(await reasonOf(open({ bundle: tampered, organizationId: 'org-2' }))).toBe('SIGNATURE_INVALID')
  })

  it('rejects a genuine bundle made for another organization', async () => {
    const { open } = await setup()
    expect(await reasonOf(open({ organizationId: 'org-2' }))).toBe('ORGANIZATION_MISMATCH')
  })

  it('rejects a bundle re-signed by another key, whichever key it names', async () => {
    const { open, bundle, pinned } = await setup()
    const parsed = JSON.parse(bundle)
    const attackerKey = p256.utils.randomSecretKey()
    const resigned = { ...parsed, dataSignature: signDer(hexToBytes(parsed.data), attackerKey) }
    const namingAttacker = JSON.stringify({
      ...resigned,
      enclaveQuorumPublic: bytesToHex(p256.getPublicKey(attackerKey, false)),
    })
    expect(await reasonOf(open({ bundle: namingAttacker }))).toBe('SIGNER_NOT_PINNED')
    const namingPinned = JSON.stringify({ ...resigned, enclaveQuorumPublic: pinned })
    expect(await reasonOf(open({ bundle: namingPinned }))).toBe('SIGNATURE_INVALID')
  })

  it('does not decrypt for another embedded key', async () => {
    const { open } = await setup()
    expect(await reasonOf(open({ embeddedPrivateKey: generateP256KeyPair().privateKey }))).toBe(
      'DECRYPTION_FAILED',
    )
  })

  it('rejects malformed envelopes', async () => {
    const { open, bundle } = await setup()
    const parsed = JSON.parse(bundle)
    for (const candidate of [
      'not json',
      '[]',
      JSON.stringify({ ...parsed, version: 'v2.0.0' }),
      JSON.stringify({ ...parsed, data: 42 }),
      JSON.stringify({ ...parsed, data: `${parsed.data}z` }),
    ]) {
      expect([candidate.slice(0, 20), await reasonOf(open({ bundle: candidate }))]).toEqual([
        candidate.slice(0, 20),
        'BUNDLE_MALFORMED',
      ])
    }
  })

  it('opens a bundle built from the reference hpkeEncrypt and signed by Node (high-S allowed)', async () => {
    const { pinned, signingKey, frame } = await setup()
    const secret = p256.utils.randomSecretKey()
    const encrypted = JSON.parse(
      formatHpkeBuf(
        hpkeEncrypt({ plainTextBuf: secret, targetKeyBuf: hexToBytes(frame.publicKeyUncompressed) }),
      ),
    )
    const data = utf8ToBytes(JSON.stringify({ organizationId, ...encrypted }))
    const privateJwk = {
      kty: 'EC',
      crv: 'P-256',
      d: Buffer.from(signingKey).toString('base64url'),
      x: Buffer.from(hexToBytes(pinned).subarray(1, 33)).toString('base64url'),
      y: Buffer.from(hexToBytes(pinned).subarray(33)).toString('base64url'),
    }
    let sawHighS = false
    // Node's signatures are randomised; keep going until a high-S one has been opened too.
    for (let attempt = 0; attempt < 64 && !(sawHighS && attempt >= 4); attempt += 1) {
      const signature = createSign('SHA256').update(data).sign({ key: privateJwk, format: 'jwk' })
      sawHighS ||= p256.Signature.fromBytes(signature, 'der').hasHighS()
      const bundle = JSON.stringify({
        version: 'v1.0.0',
        data: bytesToHex(data),
        dataSignature: bytesToHex(signature),
        enclaveQuorumPublic: pinned,
      })
      const opened = await openExportBundle({
        bundle,
        embeddedPrivateKey: frame.privateKey,
        organizationId,
        pinnedSignerPublicKey: pinned,
      })
      expect(opened).toEqual(secret)
    }
    expect(sawHighS).toBe(true)
  })

  it('throws a TypeError for a misconfigured pin rather than opening anything', async () => {
    const { open } = await setup()
    await expect(open({ pinnedSignerPublicKey: 'nope' })).rejects.toThrow(TypeError)
  })
})
