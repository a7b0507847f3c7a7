/**
 * The native token's address, written once for the whole repository (docs/api.md#token-object):
 * the server, the web, the devnet's Squid stand-in and the tests all import it from here, and
 * `npm run check` (scripts/check-native-token-address.mjs) fails on a second spelling.
 */

/** The all-e placeholder that stands for a chain's native token, checksummed as Squid writes it. */
export const nativeTokenAddress = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
/** The zero address: wherever an API takes a token address it also means native. */
export const zeroAddress = '0x0000000000000000000000000000000000000000'

const nativeLower = nativeTokenAddress.toLowerCase()

/** True for the all-e placeholder and the zero address, in any case. */
export function isNativeTokenAddress(address: string): boolean {
  const lower = address.toLowerCase()
  return lower === nativeLower || lower === zeroAddress
}

/**
 * The key a client indexes a token by: its address lowercased, every spelling of native (all-e in
 * any case, or zero) as the lowercase all-e placeholder.
 */
export function toTokenKey(address: string): string {
  return isNativeTokenAddress(address) ? nativeLower : address.toLowerCase()
}

/** True when two token addresses name the same token (any case; both spellings of native are equal). */
export function isSameTokenAddress(left: string, right: string): boolean {
  return toTokenKey(left) === toTokenKey(right)
}
