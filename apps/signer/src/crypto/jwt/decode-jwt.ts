/** A JWT's header and payload as written, before any check of its signature or claims. */
export type DecodedJwt = { header: Record<string, unknown>; payload: Record<string, unknown> }

/**
 * Reads a compact JWT's header (part #1) and payload (part #2) without trusting them: `auth-jwt`
 * needs the payload's `iss` to know whose keys check the signature. The wording of the failures is
 * the one docs/signer.md#auth-jwt lists for a token that does not decode (JWT_MALFORMED).
 *
 * Fails by throwing an Error whose message starts 'Invalid token specified: ' (a missing part,
 * a part that is not base64url, not UTF-8 JSON, or not a JSON object).
 */
export function decodeJwt(token: string): DecodedJwt {
  const parts = token.split('.')
  const header = decodePart(parts, 0)
  const payload = decodePart(parts, 1)
  if (parts[2] === undefined) throw new Error('Invalid token specified: missing part #3')
  return { header, payload }
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

function decodePart(parts: string[], index: number): Record<string, unknown> {
  const part = parts[index]
  const label = `part #${index + 1}`
  if (part === undefined) throw new Error(`Invalid token specified: missing ${label}`)
  if (!/^[A-Za-z0-9_-]*$/.test(part) || part.length % 4 === 1) {
    throw new Error(`Invalid token specified: invalid base64 for ${label} (not base64url)`)
  }
  let text: string
  try {
    text = utf8.decode(Buffer.from(part, 'base64url'))
  } catch {
    throw new Error(`Invalid token specified: invalid base64 for ${label} (not UTF-8)`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new Error(`Invalid token specified: invalid json for ${label} (${(error as Error).message})`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`Invalid token specified: ${label} is not a JSON object`)
  }
  return value as Record<string, unknown>
}
