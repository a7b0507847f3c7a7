import { p256 } from '@noble/curves/nist.js'
import { parseHex } from '../bytes/parse-hex.ts'
import { parseP256PrivateKey } from '../keys/parse-p256-private-key.ts'
import { parseP256PublicKey } from '../keys/parse-p256-public-key.ts'
import { BundleError } from './bundle-error.ts'
import { exportBundleVersion } from './create-export-bundle.ts'
import { openHpke } from './open-hpke.ts'

/**
 * Opens an export bundle in the export frame. In this order: the bundle's `enclaveQuorumPublic`
 * must be the PINNED service key; `dataSignature` (DER, ECDSA-P256-SHA256 over the bytes that
 * `data` hex-encodes; high-S accepted) must verify under the pinned key; the signed
 * `organizationId` must equal the expected one; only then is the HPKE ciphertext opened with the
 * frame's embedded key. Returns the plaintext bytes: UTF-8 of a mnemonic, or a raw private key.
 *
 * Why: the frame trusts nothing from the app page it is embedded in; a bundle re-signed by
 * another key, or minted for another organization, is never decrypted.
 *
 * Fails by throwing a {@link BundleError}: `EMBEDDED_KEY_INVALID`, `BUNDLE_MALFORMED` (not JSON,
 * wrong version, missing or non-hex fields), `SIGNER_NOT_PINNED`, `SIGNATURE_INVALID`,
 * `ORGANIZATION_MISMATCH` or `DECRYPTION_FAILED`. A bad pinned key throws `TypeError`: that is
 * the frame's own configuration, not the bundle.
 */
export async function openExportBundle(input: {
  bundle: string
  /** The export frame's private key: 32 bytes or 64 hex characters. */
  embeddedPrivateKey: Uint8Array | string
  organizationId: string
  /** The service signing key the frame was built with, compressed or uncompressed hex. */
  pinnedSignerPublicKey: string
}): Promise<Uint8Array> {
  const pinned = parseP256PublicKey(input.pinnedSignerPublicKey, 'any')
  if (pinned === undefined)
    throw new TypeError('openExportBundle: pinned signer key is not a P-256 public key')
  const embeddedPrivateKey = parseP256PrivateKey(input.embeddedPrivateKey)
  if (embeddedPrivateKey === undefined) {
    throw new BundleError('EMBEDDED_KEY_INVALID', 'embedded key must be a 32-byte P-256 scalar')
  }

  const envelope = parseJsonObject(input.bundle)
  if (envelope === undefined) throw new BundleError('BUNDLE_MALFORMED', 'export bundle is not a JSON object')
  const { version, data, dataSignature, enclaveQuorumPublic } = envelope
  if (version !== exportBundleVersion) {
    throw new BundleError('BUNDLE_MALFORMED', `unsupported export bundle version ${String(version)}`)
  }
  if (
    typeof data !== 'string' ||
    typeof dataSignature !== 'string' ||
    typeof enclaveQuorumPublic !== 'string'
  ) {
    throw new BundleError(
      'BUNDLE_MALFORMED',
      'export bundle needs data, dataSignature and enclaveQuorumPublic',
    )
  }

  const signer = parseP256PublicKey(enclaveQuorumPublic, 'any')
  if (signer === undefined || !bytesEqual(signer.uncompressed, pinned.uncompressed)) {
    throw new BundleError('SIGNER_NOT_PINNED', 'export bundle is signed by a key other than the pinned one')
  }
  const dataBytes = parseHex(data)
  const signatureBytes = parseHex(dataSignature)
  if (dataBytes === undefined || signatureBytes === undefined) {
    throw new BundleError('BUNDLE_MALFORMED', 'data and dataSignature must be hex')
  }
  if (!isSignatureValid(signatureBytes, dataBytes, pinned.uncompressed)) {
    throw new BundleError('SIGNATURE_INVALID', 'export bundle signature does not verify under the pinned key')
  }

  const signed = parseJsonObject(dataBytes)
  if (signed === undefined) throw new BundleError('BUNDLE_MALFORMED', 'signed data is not a JSON object')
  if (typeof signed.organizationId !== 'string' || signed.organizationId !== input.organizationId) {
    throw new BundleError('ORGANIZATION_MISMATCH', 'export bundle was made for another organization')
  }
  const encappedPublic =
    typeof signed.encappedPublic === 'string'
      ? parseP256PublicKey(signed.encappedPublic, 'uncompressed')
      : undefined
  const ciphertext = typeof signed.ciphertext === 'string' ? parseHex(signed.ciphertext) : undefined
  if (encappedPublic === undefined || ciphertext === undefined) {
    throw new BundleError(
      'BUNDLE_MALFORMED',
      'signed data needs an uncompressed encappedPublic and hex ciphertext',
    )
  }
  return openHpke({
    ciphertext,
    encappedPublic: encappedPublic.uncompressed,
    recipientPrivateKey: embeddedPrivateKey,
  }).finally(() => embeddedPrivateKey.fill(0))
}

function isSignatureValid(signature: Uint8Array, data: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    return p256.verify(signature, data, publicKey, { format: 'der', prehash: true, lowS: false })
  } catch {
    return false
  }
}

function parseJsonObject(source: string | Uint8Array): Record<string, unknown> | undefined {
  try {
    const text =
      typeof source === 'string' ? source : new TextDecoder('utf-8', { fatal: true }).decode(source)
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined
    return parsed as Record<string, unknown>
  } catch {
    return undefined
  }
}

/** Public keys are not secret, so a plain comparison is fine here. */
function bytesEqual(left: Uint8Array, right: Uint8Array): boolean {
  return left.length === right.length && left.every((byte, index) => byte === right[index])
}
