import { AppError } from '@quicklinks/core/app-error'

/**
 * Where a page of the payment history ends: the last row's `created_at` (to the microsecond, as
 * Postgres keeps it: a JS Date's milliseconds would skip or repeat rows made in the same
 * millisecond) and its id, the tie-breaker. Opaque to clients: base64url of the two.
 */
export type PaymentCursor = { createdAt: string; id: string }

const createdAtPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const intentIdPattern = /^0x[0-9a-f]{64}$/

/** The cursor's opaque text. */
export function encodePaymentCursor(cursor: PaymentCursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`, 'utf8').toString('base64url')
}

/**
 * The position a cursor names. Throws AppError VALIDATION_FAILED (field cursor) for text no page
 * of this API handed out.
 */
export function decodePaymentCursorOrThrow(text: string): PaymentCursor {
  const [createdAt, id, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|')
  if (
    createdAt === undefined ||
    id === undefined ||
    rest.length > 0 ||
    !createdAtPattern.test(createdAt) ||
    !intentIdPattern.test(id)
  ) {
    throw new AppError('VALIDATION_FAILED', {
      field: 'cursor',
      userMessage: 'cursor must be a nextCursor this API answered.',
    })
  }
  return { createdAt, id }
}
