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
