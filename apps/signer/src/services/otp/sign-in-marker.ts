import { createHmac } from 'node:crypto'
import { isConstantTimeEqual } from '../../crypto/bytes/is-constant-time-equal.ts'

/**
 * The recent-sign-in marker (docs/decisions/0022): an HttpOnly cookie the signer sets on every
 * completed sign-in, naming the user and when, under an HMAC only the signer can make. A browser
 * that sends one back for the account of the contact it asks a code for is that account's
 * owner's browser, and gets the reserved send budget; strangers cannot spend it.
 */
export const signInMarkerCookieName = 'ql_signed_in'
/** "Recently": a marker works this long after the sign-in that set it. */
export const signInMarkerLifetimeMs = 30 * 24 * 60 * 60_000
/** One browser keeps the markers of this many accounts (newest first). */
const maxMarkersPerBrowser = 4
const markerPattern = /^([0-9a-f-]{36})\.(\d{13})\.([A-Za-z0-9_-]{43})$/

function signMarker(secret: Uint8Array, userId: string, issuedAtMs: number): string {
  return createHmac('sha256', secret).update(`sign-in-marker/v1|${userId}|${issuedAtMs}`).digest('base64url')
}

/**
 * The cookie value after a sign-in of `userId` at `nowMs`: a fresh marker for it first, then the
 * browser's other still-valid markers of other users, at most four in all. Pure.
 */
export function addSignInMarker(
  secret: Uint8Array,
  input: { cookie: string | undefined; userId: string; nowMs: number },
): string {
  const fresh = `${input.userId}.${input.nowMs}.${signMarker(secret, input.userId, input.nowMs)}`
  const others = readMarkers(secret, input.cookie, input.nowMs)
    .filter((marker) => marker.userId !== input.userId)
    .map((marker) => marker.text)
  return [fresh, ...others].slice(0, maxMarkersPerBrowser).join('~')
}

/**
 * Whether the cookie holds a valid marker (right HMAC, not older than 30 days, not from the
 * future) of `userId`. Pure.
 */
export function hasSignInMarker(
  secret: Uint8Array,
  input: { cookie: string | undefined; userId: string; nowMs: number },
): boolean {
  return readMarkers(secret, input.cookie, input.nowMs).some((marker) => marker.userId === input.userId)
}

function readMarkers(
  secret: Uint8Array,
  cookie: string | undefined,
  nowMs: number,
): { userId: string; text: string }[] {
  if (cookie === undefined || cookie.length > 1024) return []
  return cookie.split('~').flatMap((text) => {
    const [, userId, issued, mac] = markerPattern.exec(text) ?? []
    if (userId === undefined || issued === undefined || mac === undefined) return []
    const issuedAtMs = Number(issued)
    if (issuedAtMs > nowMs + 60_000 || nowMs - issuedAtMs > signInMarkerLifetimeMs) return []
    const expected = signMarker(secret, userId, issuedAtMs)
    const encoder = new TextEncoder()
    return isConstantTimeEqual(encoder.encode(mac), encoder.encode(expected)) ? [{ userId, text }] : []
  })
}
