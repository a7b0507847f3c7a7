import { AppError, type ErrorCode } from '@quicklinks/core/app-error'

/**
 * Why a stamped request was refused. Each reason maps to the HTTP-level code the route replies
 * with and to a message that is safe to show.
 */
export const stampErrorReasons = {
  STAMP_MISSING: { code: 'UNAUTHORIZED', userMessage: 'This request is not signed.' },
  STAMP_MALFORMED: { code: 'UNAUTHORIZED', userMessage: 'The request signature is not readable.' },
  STAMP_SCHEME_UNSUPPORTED: {
    code: 'UNAUTHORIZED',
    userMessage: 'The request signature scheme is not supported.',
  },
  SIGNATURE_INVALID: { code: 'UNAUTHORIZED', userMessage: 'The request signature does not match its body.' },
  BODY_MALFORMED: { code: 'BAD_REQUEST', userMessage: 'The request body must be a JSON object.' },
  TIMESTAMP_MISSING: { code: 'BAD_REQUEST', userMessage: 'The request body needs a timestampMs field.' },
  TIMESTAMP_STALE: {
    code: 'UNAUTHORIZED',
    userMessage: 'The request has expired. Check your device clock and try again.',
  },
  TIMESTAMP_FUTURE: {
    code: 'UNAUTHORIZED',
    userMessage: 'The request is dated in the future. Check your device clock and try again.',
  },
  REPLAYED: { code: 'CONFLICT', userMessage: 'This exact request was already received.' },
  KEY_UNKNOWN: { code: 'UNAUTHORIZED', userMessage: 'The signing key is not known. Sign in again.' },
  KEY_EXPIRED: { code: 'UNAUTHORIZED', userMessage: 'Your session has expired. Sign in again.' },
  KEY_REVOKED: { code: 'UNAUTHORIZED', userMessage: 'Your session has ended. Sign in again.' },
} as const satisfies Record<string, { code: ErrorCode; userMessage: string }>

export type StampErrorReason = keyof typeof stampErrorReasons

/**
 * A refused stamp. Routes branch on `reason` (e.g. a `REPLAYED` request may be answered with the
 * first activity's result, found by `details.bodyHash`); everything else maps through `code`.
 */
export class StampError extends AppError {
  override readonly name: string = 'StampError'
  readonly reason: StampErrorReason

  constructor(reason: StampErrorReason, message: string, details?: Record<string, unknown>) {
    const { code, userMessage } = stampErrorReasons[reason]
    super(code, { message, userMessage, ...(details === undefined ? {} : { details }) })
    this.reason = reason
  }
}
