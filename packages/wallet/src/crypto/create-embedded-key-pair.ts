import { bytesToHex } from '@noble/hashes/utils.js'

/**
 * Makes the embedded P-256 key pair whose public half is a login's `targetPublicKey`: ECDH
 * (the HPKE KEM), with a NON-EXTRACTABLE private key, so script on the page (or in the frame)
 * can use it to open credential bundles but can never read or copy it. The pair is structured-
 * cloneable, so the auth frame keeps it in IndexedDB across reloads.
 *
 * Fails by rejecting when the platform has no WebCrypto P-256 (every current browser and Node 20 do).
 */
export async function createEmbeddedKeyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits'])
}

/**
 * The embedded key's public half as the signer wants it: uncompressed SEC1 (`04‖x‖y`, 65 bytes)
 * in lower-case hex, 130 characters. Public keys are always exportable, even from a
 * non-extractable pair.
 *
 * Fails by rejecting if `keyPair.publicKey` is not an EC public key.
 */
export async function getEmbeddedPublicKey(keyPair: CryptoKeyPair): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.exportKey('raw', keyPair.publicKey)))
}
