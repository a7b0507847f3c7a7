import { hmac } from '@noble/hashes/hmac.js'
import { sha512 } from '@noble/hashes/sha2.js'
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { KeystoreError } from './keystore-error.ts'

const hardenedOffset = 0x8000_0000
const masterKeySalt = utf8ToBytes('ed25519 seed')
const segmentPattern = /^(\d+)['hH]$/

/** A SLIP-0010 ed25519 node: the 32-byte private key (the ed25519 seed) and its chain code. */
export type Ed25519Node = { privateKey: Uint8Array; chainCode: Uint8Array }

/**
 * Derives an ed25519 key from a BIP-39 seed along a SLIP-0010 path (e.g. `m/44'/501'/0'/0'`).
 *
 * Why: Solana wallets (Phantom, Solflare, the Solana CLI) derive with SLIP-0010, which BIP-32
 * libraries do not implement for ed25519; it is two HMAC-SHA512 steps, written here on audited
 * primitives and checked against the SLIP-0010 test vectors.
 *
 * How: master = HMAC-SHA512("ed25519 seed", seed); each child = HMAC-SHA512(chain code,
 * 0x00 ‖ key ‖ ser32(index + 2^31)); left half is the key, right half the chain code.
 *
 * Fails by throwing a {@link KeystoreError}: `SEED_INVALID` for a seed outside 16–64 bytes,
 * `DERIVATION_PATH_INVALID` for a path that does not start with `m`, or has a non-hardened or
 * out-of-range segment (ed25519 has only hardened derivation).
 */
export function deriveEd25519Key(seed: Uint8Array, path: string): Ed25519Node {
  if (seed.length < 16 || seed.length > 64)
    throw new KeystoreError('SEED_INVALID', 'seed must be 16 to 64 bytes')
  const [root, ...segments] = path.split('/')
  if (root !== 'm') throw new KeystoreError('DERIVATION_PATH_INVALID', `path must start with m: ${path}`)
  const indexes = segments.map((segment) => {
    const match = segmentPattern.exec(segment)
    const index = match?.[1] === undefined ? Number.NaN : Number(match[1])
    if (!Number.isSafeInteger(index) || index >= hardenedOffset) {
      throw new KeystoreError('DERIVATION_PATH_INVALID', `ed25519 paths allow only hardened indexes: ${path}`)
    }
    return index + hardenedOffset
  })

  let node = split(hmac(sha512, masterKeySalt, seed))
  for (const index of indexes) {
    const serialisedIndex = new Uint8Array(4)
    new DataView(serialisedIndex.buffer).setUint32(0, index, false)
    const digest = hmac(
      sha512,
      node.chainCode,
      concatBytes(new Uint8Array([0]), node.privateKey, serialisedIndex),
    )
    node.privateKey.fill(0)
    node = split(digest)
  }
  return node
}

function split(digest: Uint8Array): Ed25519Node {
  return { privateKey: digest.slice(0, 32), chainCode: digest.slice(32) }
}
