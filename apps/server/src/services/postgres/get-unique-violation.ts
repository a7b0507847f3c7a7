import { AppError } from '@quicklinks/core/app-error'

/**
 * The constraint a Postgres unique violation (SQLSTATE 23505) names, found anywhere in the cause
 * chain (Drizzle wraps driver errors), or undefined when `error` is not a unique violation. The
 * constraint is '' when the driver did not say which.
 */
export function getUniqueViolation(error: unknown): { constraint: string } | undefined {
  const violation = AppError.walk(error, (candidate) => (candidate as { code?: unknown }).code === '23505') as
    | { constraint?: unknown }
    | undefined
  if (violation === undefined) return undefined
  return { constraint: typeof violation.constraint === 'string' ? violation.constraint : '' }
}
