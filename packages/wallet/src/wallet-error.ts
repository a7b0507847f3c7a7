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
 * Why a sponsor service refused (its JSON-RPC error's `data.reason`): POLICY_SPENT (the policy's
 * daily gas cap for this user is used up), NOT_SPONSORED (the operation is outside the policy:
 * another account, contract or token), UNKNOWN_POLICY.
 */
export const sponsorRefusalReasons = ['POLICY_SPENT', 'NOT_SPONSORED', 'UNKNOWN_POLICY'] as const
export type SponsorRefusalReason = (typeof sponsorRefusalReasons)[number]

const sponsorRefusalMessages: Record<SponsorRefusalReason, string> = {
  POLICY_SPENT: 'Gas sponsorship for today is used up. You can pay the gas yourself.',
  NOT_SPONSORED: 'This transaction is not eligible for gas sponsorship. You can pay the gas yourself.',
  UNKNOWN_POLICY: 'Gas sponsorship is not available here. You can pay the gas yourself.',
}

/**
 * A sponsor service refused to pay a user operation's gas (`code` SPONSORSHIP_REFUSED; the
 * AppError code is FORBIDDEN, `reason` is also in `details.reason`). Nothing was sent: the same calls can be
 * sent again without a policy, the account paying the gas. The sponsor's JSON-RPC error is the cause.
 */
export class SponsorshipRefusedError extends AppError {
  override readonly name = 'SponsorshipRefusedError'
  /** What the UI branches on: offer "pay the gas yourself". */
  readonly walletCode = 'SPONSORSHIP_REFUSED'
  readonly reason: SponsorRefusalReason

  constructor(reason: SponsorRefusalReason, options: { cause?: unknown } = {}) {
    const message = sponsorRefusalMessages[reason]
    super('FORBIDDEN', {
      message,
      userMessage: message,
      details: { reason },
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    })
    this.reason = reason
  }
}

/**
 * The sponsor refusal inside `error` (any link of its cause chain whose `data.reason` is one of
 * {@link sponsorRefusalReasons}, as viem keeps a JSON-RPC error's `data`), as a
 * SponsorshipRefusedError; undefined when the failure is something else.
 */
export function findSponsorshipRefusal(error: unknown): SponsorshipRefusedError | undefined {
  if (error instanceof SponsorshipRefusedError) return error
  let reason: SponsorRefusalReason | undefined
  AppError.walk(error, (link) => {
    if (typeof link !== 'object' || link === null) return false
    const data = (link as { data?: unknown }).data
    if (typeof data !== 'object' || data === null) return false
    const candidate = (data as { reason?: unknown }).reason
    const known = sponsorRefusalReasons.find((value) => value === candidate)
    if (known === undefined) return false
    reason = known
    return true
  })
  return reason === undefined ? undefined : new SponsorshipRefusedError(reason, { cause: error })
}
