import { concatBytes } from '@noble/hashes/utils.js'
import bs58check from 'bs58check'
import { parseP256PrivateKey } from '../keys/parse-p256-private-key.ts'
import { parseP256PublicKey, parseP256PublicKeyBytes } from '../keys/parse-p256-public-key.ts'
import { BundleError } from './bundle-error.ts'
import { sealHpke } from './seal-hpke.ts'

/**
 * Encrypts a freshly minted session key to the auth frame's `targetPublicKey` as a Turnkey
 * credential bundle: bs58check(compressed encapsulated key (33 bytes) ‖ HPKE ciphertext), where
 * the plaintext is the session key's 32-byte private scalar.
 *
 * Why: only the frame holding the target private key can open it, so the session key never
 * exists in clear outside the service and the frame; stock Turnkey clients
 * (`@turnkey/crypto`'s `decryptCredentialBundle`) open it unchanged.
 *
 * Fails by throwing a {@link BundleError}: `TARGET_KEY_INVALID` unless `targetPublicKey` is 130
 * hex characters of an uncompressed point on P-256; `PLAINTEXT_INVALID` unless `sessionPrivateKey`
 * is a valid 32-byte P-256 scalar.
 */
export async function encryptCredentialBundle(input: {
  sessionPrivateKey: Uint8Array
  /** Uncompressed SEC1 hex (`04…`, 130 characters). */
  targetPublicKey: string
}): Promise<string> {
  const target = parseP256PublicKey(input.targetPublicKey, 'uncompressed')
  if (target === undefined) {
    throw new BundleError('TARGET_KEY_INVALID', 'targetPublicKey must be an uncompressed P-256 key in hex')
  }
  const sessionPrivateKey = parseP256PrivateKey(input.sessionPrivateKey)
  if (sessionPrivateKey === undefined) {
    throw new BundleError('PLAINTEXT_INVALID', 'session key must be a 32-byte P-256 scalar')
  }
  try {
    const sealed = await sealHpke({ plaintext: sessionPrivateKey, recipientPublicKey: target.uncompressed })
    const encapped = parseP256PublicKeyBytes(sealed.encappedPublic)
    if (encapped === undefined) throw new Error('HPKE returned an invalid encapsulated key')
    return bs58check.encode(concatBytes(encapped.compressed, sealed.ciphertext))
  } finally {
    sessionPrivateKey.fill(0)
  }
}
