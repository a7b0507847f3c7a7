import {
  policySpentMessage,
  type SponsorRefusalReason,
  sponsorRefusalReasons,
} from '@quicklinks/core/api/smart-accounts'
import { AppError, type ErrorCode } from '@quicklinks/core/app-error'
import type { StoredError } from './signer-types.ts'

/**
 * An SDK failure whose text is meant to be shown (docs/product.md#errors-sign-in, docs/signer.md#signer-status): an
 * AppError with `message` and `userMessage` both set to `message`.
 */
export function createWalletError(
  message: string,
  options: { code?: ErrorCode; cause?: unknown; details?: Record<string, unknown> } = {},
): AppError {
  return new AppError(options.code ?? 'BAD_REQUEST', {
    message,
    userMessage: message,
    ...(options.cause === undefined ? {} : { cause: options.cause }),
    ...(options.details === undefined ? {} : { details: options.details }),
  })
}

/**
 * What the store keeps of a failure ({name, message}; unknown errors become
 * 'Unknown error', docs/signer.md#signer-status). An AppError keeps its user-safe message.
 */
export function toStoredError(error: unknown): StoredError {
  if (error instanceof AppError) return { name: error.name, message: error.userMessage }
  if (error instanceof Error && error.message.length > 0) return { name: error.name, message: error.message }
  return { name: 'Error', message: 'Unknown error' }
}

/**
 * The signer's own error code for a failure (`OTP_INVALID`, `OTP_EXPIRED`, `RATE_LIMITED`…):
 * the response's `error.code`, whether or not the shared code table knows it; else undefined.
 */
export function getSignerErrorCode(error: unknown): string | undefined {
  if (!(error instanceof AppError)) return undefined
  const reason = error.details?.reason
  return typeof reason === 'string' ? reason : error.code
}

/**
 * Why a sponsor service refused (its JSON-RPC error's `data.reason`, docs/api.md#paymaster):
 * POLICY_SPENT (the policy's daily gas cap for this user is used up), NOT_SPONSORED (the
 * operation is outside the policy: another account, chain, contract or token), UNKNOWN_POLICY.
 */
export { type SponsorRefusalReason, sponsorRefusalReasons }

const sponsorRefusalMessages: Record<SponsorRefusalReason, string> = {
  POLICY_SPENT: policySpentMessage,
  NOT_SPONSORED: 'This transaction is not eligible for gas sponsorship. Pay the gas from your account.',
  UNKNOWN_POLICY: 'Gas sponsorship is not available here. Pay the gas from your account.',
}

/**
 * A sponsor service refused to pay a user operation's gas (`walletCode` SPONSORSHIP_REFUSED; the
 * AppError code is FORBIDDEN; `reason`, and for POLICY_SPENT `resetsAt`, are in `details` too).
 * Nothing was sent: the same calls can be sent again without a policy, the account paying the
 * gas. The sponsor's JSON-RPC error is the cause.
 */
export class SponsorshipRefusedError extends AppError {
  override readonly name = 'SponsorshipRefusedError'
  /** What the UI branches on: offer "pay the gas yourself". */
  readonly walletCode = 'SPONSORSHIP_REFUSED'
  readonly reason: SponsorRefusalReason
  /** POLICY_SPENT: when the daily cap starts over (ISO time), when the service says. */
  readonly resetsAt: string | undefined

  constructor(reason: SponsorRefusalReason, options: { cause?: unknown; resetsAt?: string } = {}) {
    const message = sponsorRefusalMessages[reason]
    super('FORBIDDEN', {
      message,
      userMessage: message,
      details: { reason, ...(options.resetsAt === undefined ? {} : { resetsAt: options.resetsAt }) },
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    })
    this.reason = reason
    this.resetsAt = options.resetsAt
  }
}

/**
 * The sponsor refusal inside `error` as a SponsorshipRefusedError, else undefined: any link of its
 * cause chain whose JSON-RPC `data.reason` is one of {@link sponsorRefusalReasons} (viem keeps a
 * JSON-RPC error's `data`; an answer with a non-2xx status arrives as an HttpRequestError whose
 * `details` is the error as JSON).
 */
export function findSponsorshipRefusal(error: unknown): SponsorshipRefusedError | undefined {
  if (error instanceof SponsorshipRefusedError) return error
  let found: { reason: SponsorRefusalReason; resetsAt: string | undefined } | undefined
  AppError.walk(error, (link) => {
    found = readRefusal(link)
    return found !== undefined
  })
  if (found === undefined) return undefined
  return new SponsorshipRefusedError(found.reason, {
    cause: error,
    ...(found.resetsAt === undefined ? {} : { resetsAt: found.resetsAt }),
  })
}

function readRefusal(
  link: unknown,
): { reason: SponsorRefusalReason; resetsAt: string | undefined } | undefined {
  if (typeof link !== 'object' || link === null) return undefined
  let data = (link as { data?: unknown }).data
  const details = (link as { details?: unknown }).details
  if ((typeof data !== 'object' || data === null) && typeof details === 'string' && details.startsWith('{')) {
    try {
      data = (JSON.parse(details) as { data?: unknown }).data
    } catch {
      return undefined
    }
  }
  if (typeof data !== 'object' || data === null) return undefined
  const { reason, resetsAt } = data as { reason?: unknown; resetsAt?: unknown }
  const known = sponsorRefusalReasons.find((value) => value === reason)
  if (known === undefined) return undefined
  return { reason: known, resetsAt: typeof resetsAt === 'string' ? resetsAt : undefined }
}
