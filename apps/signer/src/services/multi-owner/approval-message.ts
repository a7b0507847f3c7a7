import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import type { MemberSignature } from './multi-owner-signatures.ts'

/** How long a quorum activity collects approvals before it can no longer complete. */
export const approvalLifetimeMs = 60 * 60_000

/** What a quorum activity that waits for approvals keeps in its `result.consensus`. */
export type Consensus = {
  /** The members' version (the state the quorum approves against); a change fails the activity. */
  version: number
  /** SHA-256 of the request's canonical JSON as asked. */
  requestHash: string
  expiresAt: string
  /** Approvals the activity needs: the root quorum threshold when it was asked. */
  required: number
  /** The members who approved, EIP-55, in order. */
  approvedBy: string[]
  /** The exact text each member signs with EIP-191 (`personal_sign`). */
  approvalMessage: string
  /** A multi-owner-sign-raw-payload's member shares so far (the wallet key's is made at quorum). */
  payloadSignatures?: MemberSignature[]
}

/** SHA-256 (hex) of a request's JSON with its keys sorted at every level. Pure. */
export function hashRequest(request: unknown): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalJson(request))))
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/**
 * The text a member signs to approve one activity (docs/signer.md#multi-owner-approvals): it names
 * the organization, the activity id (so an approval works for no other activity), its type, the
 * request's hash, the members' version and the expiry. Pure.
 */
export function buildApprovalMessage(input: {
  organizationId: string
  activityId: string
  type: string
  requestHash: string
  version: number
  expiresAt: string
}): string {
  return [
    'Approve a Quick Links multi-owner activity',
    `Organization: ${input.organizationId}`,
    `Activity: ${input.activityId}`,
    `Type: ${input.type}`,
    `Request: ${input.requestHash}`,
    `Members version: ${input.version}`,
    `Expires: ${input.expiresAt}`,
  ].join('\n')
}
