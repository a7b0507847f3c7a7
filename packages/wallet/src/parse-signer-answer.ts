import { z } from 'zod/mini'
import type { Activity } from './signer-types.ts'
import { createWalletError } from './wallet-error.ts'

/**
 * Parses a signer answer with its call's answer schema from the signer-call table
 * (@quicklinks/protocol/signer-activities, signer-routes): the same schema the signer's route
 * answers with, so a proxy's page, a stale signer or a tampered answer never reaches the caller
 * as the promised shape.
 *
 * Fails by throwing a wallet error (UPSTREAM_FAILED, `details.reason` MALFORMED_SIGNER_ANSWER and
 * `details.field`, the first field that does not fit) when the answer does not parse.
 */
export function parseSignerAnswer<Schema extends z.core.$ZodType>(
  schema: Schema,
  answer: unknown,
  path: string,
): z.output<Schema> {
  const parsed = z.safeParse(schema, answer)
  if (parsed.success) return parsed.data
  const field = parsed.error.issues[0]?.path.map(String).join('.') ?? ''
  throw createWalletError(`The signer's answer to ${path} is not what the SDK expects.`, {
    code: 'UPSTREAM_FAILED',
    details: { reason: 'MALFORMED_SIGNER_ANSWER', path, field: field.length > 0 ? field : 'answer' },
  })
}

/**
 * The SDK's typed view of an activity's `result` (a signature, a quorum's consensus: the fields of
 * signer-types.ts and multi-owner-types.ts). The wire schema checks the activity and that its
 * `result` is a JSON object; what the record holds is the signer service's per activity type, so
 * this is the one place the SDK names it without a schema of its own.
 */
export function viewActivityResult<TResult>(activity: Activity): Activity<TResult> {
  return activity as Activity<TResult>
}
