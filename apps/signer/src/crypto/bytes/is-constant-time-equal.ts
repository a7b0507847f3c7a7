/**
 * Compares two byte arrays in time that depends only on their lengths, not on where they differ.
 *
 * Why: comparing secrets or MACs (OTP hashes, key identifiers) with an early-exit loop leaks, by
 * timing, how many leading bytes an attacker guessed right.
 *
 * Never throws; arrays of different lengths are simply unequal (lengths are not secret here).
 */
export function isConstantTimeEqual(left: Uint8Array, right: Uint8Array): boolean {
  if (left.length !== right.length) return false
  let difference = 0
  for (let index = 0; index < left.length; index += 1) {
    difference |= (left[index] ?? 0) ^ (right[index] ?? 0)
  }
  return difference === 0
}
