import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import type { Contact } from '../contacts/contact-schemas.ts'

/**
 * The orgId of a contact: HMAC-SHA256 of the normalised contact under a server secret, shaped as a
 * version-4 UUID. `lookup` answers it for contacts without an account, and the account created at
 * their first sign-in takes it, so a lookup reads the same before and after and reveals nothing.
 *
 * Never throws for a 32-byte secret.
 */
export function deriveOrganizationId(secret: Uint8Array, contact: Contact): string {
  const mac = hmac(
    sha256,
    secret,
    utf8ToBytes(JSON.stringify(['quick-links/signer/organization-id/v1', contact.channel, contact.address])),
  )
  return formatAsUuid(mac.subarray(0, 16))
}

/** Formats 16 bytes as a UUID, with the version (4) and variant bits a random UUID has. */
export function formatAsUuid(bytes: Uint8Array): string {
  const copy = Uint8Array.from(bytes)
  copy[6] = ((copy[6] ?? 0) & 0x0f) | 0x40
  copy[8] = ((copy[8] ?? 0) & 0x3f) | 0x80
  const hex = bytesToHex(copy)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
