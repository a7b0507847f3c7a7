import { hexToBytes } from '@noble/hashes/utils.js'

const hexPattern = /^(?:[0-9a-fA-F]{2})*$/

/**
 * Decodes a hex string (either case, no `0x` prefix) into bytes, optionally of an exact length.
 *
 * Why: every wire format here (stamps, bundles, keys) carries hex, and each parser must reject
 * malformed input with its own typed error instead of a library exception.
 *
 * Fails by returning `undefined` for an odd length, a non-hex character, a `0x` prefix or a
 * length other than `byteLength` when one is given. Never throws.
 */
export function parseHex(value: string, byteLength?: number): Uint8Array | undefined {
  if (!hexPattern.test(value)) return undefined
  if (byteLength !== undefined && value.length !== byteLength * 2) return undefined
  return hexToBytes(value)
}
