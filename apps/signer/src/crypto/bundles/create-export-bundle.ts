import { p256 } from '@noble/curves/nist.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { parseP256PrivateKey } from '../keys/parse-p256-private-key.ts'
import { parseP256PublicKey } from '../keys/parse-p256-public-key.ts'
import { BundleError } from './bundle-error.ts'
import { sealHpke } from './seal-hpke.ts'

/** The only export bundle version produced and accepted. */
export const exportBundleVersion = 'v1.0.0'

/**
 * What a user exports. A mnemonic travels as its UTF-8 (ASCII) text; a private key as its raw
 * bytes: the 32-byte secp256k1 scalar for EVM, the 32-byte ed25519 seed for Solana.
 */
export type ExportSecret =
  | { kind: 'mnemonic'; mnemonic: string }
  | { kind: 'privateKey'; privateKey: Uint8Array }

/**
 * Builds a Turnkey-format export bundle: JSON `{version: "v1.0.0", data, dataSignature,
 * enclaveQuorumPublic}`, where `data` is the hex of the UTF-8 JSON `{organizationId,
 * encappedPublic, ciphertext}` (the last two hex; `encappedPublic` is the 65-byte uncompressed
 * HPKE `enc`), `dataSignature` is the DER hex ECDSA-P256-SHA256 signature of those data bytes by
 * the service signing key, and `enclaveQuorumPublic` is that key's uncompressed public key in hex.
 *
 * Why: the export frame pins the service key and opens only bundles it signed for the expected
 * organization, so a compromised app page can neither read the secret nor swap in its own; stock
 * `@turnkey/crypto` `decryptExportBundle` opens it with our key pinned.
 *
 * Fails by throwing a {@link BundleError}: `TARGET_KEY_INVALID` unless `targetPublicKey` is an
 * uncompressed P-256 key in hex, `SIGNING_KEY_INVALID` for a bad signing key, `PLAINTEXT_INVALID`
 * for an invalid mnemonic, a private key that is not 32 bytes, or an empty organization id.
 */
export async function createExportBundle(input: {
  secret: ExportSecret
  /** The export frame's key: uncompressed SEC1 hex (`04…`, 130 characters). */
  targetPublicKey: string
  organizationId: string
  /** The service's P-256 signing key (32-byte scalar); its public key is what frames pin. */
  signingKey: Uint8Array
}): Promise<string> {
  const target = parseP256PublicKey(input.targetPublicKey, 'uncompressed')
  if (target === undefined) {
    throw new BundleError('TARGET_KEY_INVALID', 'targetPublicKey must be an uncompressed P-256 key in hex')
  }
  const signingKey = parseP256PrivateKey(input.signingKey)
  if (signingKey === undefined)
    throw new BundleError('SIGNING_KEY_INVALID', 'signing key is not a P-256 scalar')
  if (input.organizationId.length === 0) throw new BundleError('PLAINTEXT_INVALID', 'organizationId is empty')
  const plaintext = encodeSecret(input.secret)
  try {
    const sealed = await sealHpke({ plaintext, recipientPublicKey: target.uncompressed })
    const dataBytes = utf8ToBytes(
      JSON.stringify({
        organizationId: input.organizationId,
        encappedPublic: bytesToHex(sealed.encappedPublic),
        ciphertext: bytesToHex(sealed.ciphertext),
      }),
    )
    const dataSignature = p256.sign(dataBytes, signingKey, { format: 'der', prehash: true, lowS: true })
    return JSON.stringify({
      version: exportBundleVersion,
      data: bytesToHex(dataBytes),
      dataSignature: bytesToHex(dataSignature),
      enclaveQuorumPublic: bytesToHex(p256.getPublicKey(signingKey, false)),
    })
  } finally {
    plaintext.fill(0)
    signingKey.fill(0)
  }
}

function encodeSecret(secret: ExportSecret): Uint8Array {
  if (secret.kind === 'mnemonic') {
    if (!validateMnemonic(secret.mnemonic, wordlist)) {
      throw new BundleError('PLAINTEXT_INVALID', 'mnemonic is not a valid English BIP-39 phrase')
    }
    return utf8ToBytes(secret.mnemonic)
  }
  if (secret.privateKey.length !== 32)
    throw new BundleError('PLAINTEXT_INVALID', 'private key must be 32 bytes')
  return Uint8Array.from(secret.privateKey)
}
