import { p256 } from '@noble/curves/nist.js'
import { bytesToHex } from '@noble/hashes/utils.js'

/** A P-256 key pair minted for one sign-in. */
export type SessionKey = {
  /** 32-byte private scalar: goes into the credential bundle and nowhere else; wipe it after. */
  privateKey: Uint8Array
  /** Compressed public key, lower-case hex (66 characters): what stamps name and the service stores. */
  publicKey: string
}

/**
 * Creates a fresh P-256 session key pair from the CSPRNG.
 *
 * Why: each successful login mints a short-lived key that the auth frame receives encrypted
 * (credential bundle) and uses to stamp requests; the service keeps only the public half, with
 * its expiry.
 *
 * Fails only if the platform has no CSPRNG.
 */
export function createSessionKey(): SessionKey {
  const privateKey = p256.utils.randomSecretKey()
  return { privateKey, publicKey: bytesToHex(p256.getPublicKey(privateKey, true)) }
}
