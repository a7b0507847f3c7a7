/**
 * Per-client limits of the unauthenticated signer routes, per minute (on top of the per-contact
 * limit); the host counts a client per IPv4 address or IPv6 /64, in memory or in Redis.
 */
export type SignerRateLimits = {
  /** signup, auth, init-otp: each sends a mail or SMS. */
  sendsPerIpPerMinute: number
  /** otp, verify-otp, magic-link, auth-jwt, passkey-challenge, auth-passkey. */
  codeChecksPerIpPerMinute: number
  /** lookup. */
  lookupsPerIpPerMinute: number
}

export const defaultSignerRateLimits: SignerRateLimits = {
  sendsPerIpPerMinute: 20,
  codeChecksPerIpPerMinute: 30,
  lookupsPerIpPerMinute: 60,
}

/** A route's `config.rateLimit` for @fastify/rate-limit (ignored when the host did not register it). */
export function perIpPerMinute(max: number): { rateLimit: { max: number; timeWindow: number } } {
  return { rateLimit: { max, timeWindow: 60_000 } }
}
