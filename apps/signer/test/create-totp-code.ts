import { Secret, TOTP } from 'otpauth'

/** The length of one TOTP step, as every authenticator app reads an otpauth URI by default. */
export const totpPeriodMs = 30_000

/**
 * The 6-digit code an authenticator app shows for the base32 `secret` at `timestampMs`, `steps`
 * periods on: the one way tests (signer routes, wallet SDK, end-to-end) compute a code, as the app would.
 */
export function createTotpCode(secret: string, timestampMs: number, steps = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: timestampMs + steps * totpPeriodMs })
}
