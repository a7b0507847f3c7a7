/**
 * The one error model shared by server, web and SDK. A code maps to an HTTP status and a default
 * message that is safe to show; `message` is for logs, `userMessage` for people.
 */
export const errorCodes = {
  BAD_REQUEST: { status: 400, userMessage: 'The request is not valid.' },
  VALIDATION_FAILED: { status: 422, userMessage: 'Some fields are not valid.' },
  UNAUTHORIZED: { status: 401, userMessage: 'Please sign in to continue.' },
  OTP_INVALID: { status: 401, userMessage: 'That code is not right.' },
  OTP_EXPIRED: { status: 401, userMessage: 'This code no longer works. Request a new code.' },
  CSRF_INVALID: {
    status: 403,
    userMessage: 'Your session token is missing or expired. Reload and try again.',
  },
  FORBIDDEN: { status: 403, userMessage: 'You are not allowed to do that.' },
  NOT_FOUND: { status: 404, userMessage: 'Not found.' },
  CONFLICT: { status: 409, userMessage: 'That conflicts with something that already exists.' },
  PAYLOAD_TOO_LARGE: { status: 413, userMessage: 'The request is too large.' },
  URI_TOO_LONG: { status: 414, userMessage: 'The address is too long.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, userMessage: 'Send the request body as JSON.' },
  RATE_LIMITED: { status: 429, userMessage: 'Too many attempts. Wait a moment and try again.' },
  HEADERS_TOO_LARGE: { status: 431, userMessage: 'The request headers are too large.' },
  UPSTREAM_FAILED: { status: 502, userMessage: 'A service we depend on did not answer. Try again shortly.' },
  SERVICE_UNAVAILABLE: { status: 503, userMessage: 'This service is not ready yet. Try again shortly.' },
  INTERNAL: { status: 500, userMessage: 'Something went wrong on our side. Try again.' },
  NETWORK: { status: 0, userMessage: 'You appear to be offline. Check your connection and try again.' },
} as const satisfies Record<string, { status: number; userMessage: string }>

export type ErrorCode = keyof typeof errorCodes

export type AppErrorOptions = {
  message?: string
  userMessage?: string
  cause?: unknown
  /** Field name for validation errors, so a form can show the message beside it. */
  field?: string
  /** Extra safe-to-show details (a suggested slug, the retry delay…). */
  details?: Record<string, unknown>
}

/** The JSON body every failing API response carries. */
export type ErrorBody = {
  error: { code: string; message: string; field?: string; details?: Record<string, unknown> }
}

export class AppError extends Error {
  override readonly name: string = 'AppError'
  readonly code: ErrorCode
  readonly userMessage: string
  readonly field: string | undefined
  readonly details: Record<string, unknown> | undefined

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    const userMessage = options.userMessage ?? errorCodes[code].userMessage
    super(options.message ?? userMessage, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.userMessage = userMessage
    this.field = options.field
    this.details = options.details
  }

  get status(): number {
    return errorCodes[this.code].status
  }

  /** The client-safe body: never the internal message or the cause. */
  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.userMessage,
        ...(this.field === undefined ? {} : { field: this.field }),
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    }
  }

  /** Walks this error's cause chain; returns the first error for which `predicate` holds. */
  walk(predicate: (error: unknown) => boolean): unknown {
    return AppError.walk(this, predicate)
  }

  /**
   * The one cause-chain walker: `error`, then its `cause`, then that one's, and so on; returns the
   * first link for which `predicate` holds, or undefined. Any object's `cause` is followed (driver
   * and RPC errors are not always `Error`s), and a chain that loops back on itself ends. Never throws
   * unless `predicate` does.
   */
  static walk(error: unknown, predicate: (error: unknown) => boolean): unknown {
    let current: unknown = error
    const seen = new Set<unknown>()
    while (current !== undefined && current !== null && !seen.has(current)) {
      if (predicate(current)) return current
      seen.add(current)
      current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined
    }
    return undefined
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorCodes, value)
}

/**
 * Rebuilds an AppError from a response body and status. Unknown shapes become a generic error
 * whose message is `fallback` (one per call, e.g. 'Failed to fetch links'; docs/product.md#errors-links).
 */
export function parseErrorBody(body: unknown, status: number, fallback: string): AppError {
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const error = (body as { error: unknown }).error
    if (typeof error === 'string' && error.length > 0) {
      return new AppError(codeForStatus(status), { userMessage: error })
    }
    if (typeof error === 'object' && error !== null) {
      const { code, message, field, details } = error as Record<string, unknown>
      return new AppError(isErrorCode(code) ? code : codeForStatus(status), {
        userMessage: typeof message === 'string' && message.length > 0 ? message : fallback,
        ...(typeof field === 'string' ? { field } : {}),
        ...(typeof details === 'object' && details !== null
          ? { details: details as Record<string, unknown> }
          : {}),
      })
    }
  }
  if (typeof body === 'object' && body !== null && 'message' in body) {
    const message = (body as { message: unknown }).message
    if (typeof message === 'string' && message.length > 0) {
      return new AppError(codeForStatus(status), { userMessage: message })
    }
  }
  return new AppError(codeForStatus(status), { userMessage: fallback })
}

/** The error code that best describes an HTTP status without a body. */
export function codeForStatus(status: number): ErrorCode {
  if (status === 0) return 'NETWORK'
  if (status === 401) return 'UNAUTHORIZED'
  if (status === 403) return 'FORBIDDEN'
  if (status === 404) return 'NOT_FOUND'
  if (status === 409) return 'CONFLICT'
  if (status === 422) return 'VALIDATION_FAILED'
  if (status === 429) return 'RATE_LIMITED'
  if (status >= 400 && status < 500) return 'BAD_REQUEST'
  if (status === 502 || status === 503 || status === 504) return 'UPSTREAM_FAILED'
  return 'INTERNAL'
}
