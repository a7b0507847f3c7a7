import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { deriveEd25519Key } from './derive-ed25519-key.ts'

/** The Solana account path of every wallet (Phantom's and Solflare's default). */
export const solanaDerivationPath = "m/44'/501'/0'/0'"

/** The derived Solana account. `privateKey` is the 32-byte ed25519 seed; wipe it once done. */
export type SolanaAccountKey = { address: string; publicKey: Uint8Array; privateKey: Uint8Array }

/**
 * Derives the wallet's Solana account (SLIP-0010 ed25519 at m/44'/501'/0'/0') from a BIP-39 seed
 * and returns its base58 address (the public key) and private key.
 *
 * Fails by throwing the {@link KeystoreError} of {@link deriveEd25519Key} for an invalid seed.
 */
export function deriveSolanaAccount(seed: Uint8Array): SolanaAccountKey {
  const { privateKey, chainCode } = deriveEd25519Key(seed, solanaDerivationPath)
  chainCode.fill(0)
  const publicKey = ed25519.getPublicKey(privateKey)
  return { address: base58.encode(publicKey), publicKey, privateKey }
}
