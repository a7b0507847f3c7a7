/**
 * The header a session-key stamp travels in (docs/signer.md#stamp); a passkey stamps with
 * `X-Stamp-WebAuthn` instead (docs/signer.md#passkey-stamps).
 */
export const stampHeaderName = 'X-Stamp'

/** A request stamp as the signer expects it in `stampedRequest.stamp`. */
export type Stamp = { stampHeaderName: typeof stampHeaderName; stampHeaderValue: string }

/** A signer call built and stamped where the session key is: posted to `path` byte for byte. */
export type StampedCall = { path: string; body: string; stamp: Stamp }

/**
 * The body of every stamped route (docs/signer.md#stamped-requests): `body` is the exact JSON string
 * the session key signed (see `buildActivityBody`), `url` where the caller meant to send it.
 */
export type StampedRequestBody = { stampedRequest: { url: string; body: string; stamp: Stamp } }
