import { ed25519 } from '@noble/curves/ed25519.js'
import { deriveSolanaAccount } from './derive-solana-account.ts'

/**
 * Signs bytes with the wallet's Solana account (m/44'/501'/0'/0') derived from the BIP-39 seed:
 * a plain 64-byte ed25519 signature. For a transaction, `message` is its serialised message,
 * and the result is the signature to place in the transaction.
 *
 * Why: Solana signatures are always exactly 64 bytes (docs/signer.md#activity-types); ed25519 is
 * deterministic, so the same request always gives the same signature.
 *
 * Fails by throwing the `KeystoreError` `SEED_INVALID` for a bad seed.
 */
export function signSolanaMessage(seed: Uint8Array, message: Uint8Array): Uint8Array {
  const { privateKey } = deriveSolanaAccount(seed)
  try {
    return ed25519.sign(message, privateKey)
  } finally {
    privateKey.fill(0)
  }
}
