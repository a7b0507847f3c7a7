const codeSpace = 1_000_000
// The largest multiple of 10^6 below 2^32: values at or above it are redrawn, so every code is
// exactly equally likely (plain `% 10^6` would favour the low 967 296 codes).
const acceptBelow = 2 ** 32 - (2 ** 32 % codeSpace)

/** Fills a buffer with cryptographically secure random bytes (`crypto.getRandomValues`). */
export type FillRandom = (buffer: Uint32Array<ArrayBuffer>) => Uint32Array<ArrayBuffer>

/**
 * Generates a 6-digit one-time code (leading zeros kept) from the CSPRNG by rejection sampling, so
 * each of the 10^6 codes is equally likely.
 *
 * Why: a code mailed or texted for sign-in must be unguessable beyond 1 in 10^6 per try; three
 * wrong tries kill it (enforced by the caller).
 *
 * Fails by throwing if the random source throws; `fillRandom` is injectable for tests only.
 */
export function generateOtp(fillRandom: FillRandom = (buffer) => crypto.getRandomValues(buffer)): string {
  const buffer = new Uint32Array(1)
  for (;;) {
    const value = fillRandom(buffer)[0]
    if (value !== undefined && value < acceptBelow) return String(value % codeSpace).padStart(6, '0')
  }
}
