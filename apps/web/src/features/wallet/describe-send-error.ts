import type { SponsorRefusalReason } from '@quicklinks/wallet/smart-accounts/smart-wallet-types'
import { describeAuthError } from '../auth/describe-auth-error'

/** Why a send failed, as the Send dialog tells it. */
export type SendFailure =
  | { kind: 'refused'; reason: SponsorRefusalReason; message: string }
  | { kind: 'failed'; message: string }

const refusalReasons: ReadonlySet<string> = new Set<SponsorRefusalReason>([
  'POLICY_SPENT',
  'NOT_SPONSORED',
  'UNKNOWN_POLICY',
])

/** What the user reads when the sponsor service refuses; each says what they can do next. */
export const refusalMessages: Record<SponsorRefusalReason, string> = {
  POLICY_SPENT: 'Gas sponsorship for today is used up.',
  NOT_SPONSORED: 'Gas sponsorship does not cover this token or contract.',
  UNKNOWN_POLICY: 'Gas sponsorship is not available right now.',
}

function readReason(value: unknown): SponsorRefusalReason | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const candidates = [
    (value as { reason?: unknown }).reason,
    (value as { data?: { reason?: unknown } }).data?.reason,
  ]
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && refusalReasons.has(candidate))
      return candidate as SponsorRefusalReason
  }
  return undefined
}

/**
 * A sponsor refusal (the SDK's typed wallet error carries `reason`; a JSON-RPC error from the
 * sponsor service carries it in `data.reason`, possibly wrapped in viem's errors as `cause`), or
 * any other failure with a message the user can read.
 */
export function describeSendError(error: unknown): SendFailure {
  let current: unknown = error
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    const reason = readReason(current)
    if (reason !== undefined) return { kind: 'refused', reason, message: refusalMessages[reason] }
    current = (current as { cause?: unknown }).cause
  }
  return {
    kind: 'failed',
    message: describeAuthError(firstShortMessage(error), 'The transfer did not go through. Try again.'),
  }
}

/** viem's errors carry a one-line `shortMessage` beside a long `message` with details and docs links. */
function firstShortMessage(error: unknown): unknown {
  if (typeof error === 'object' && error !== null) {
    const short = (error as { shortMessage?: unknown }).shortMessage
    if (typeof short === 'string' && short.length > 0) return { message: short }
  }
  return error
}
