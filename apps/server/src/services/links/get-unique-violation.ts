/**
 * The constraint a Postgres unique violation (SQLSTATE 23505) names, found anywhere in the cause
 * chain (Drizzle wraps driver errors), or undefined when `error` is not a unique violation. The
 * constraint is '' when the driver did not say which.
 */
export function getUniqueViolation(error: unknown): { constraint: string } | undefined {
  let current: unknown = error
  const seen = new Set<unknown>()
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current)
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown }
    if (candidate.code === '23505') {
      return { constraint: typeof candidate.constraint === 'string' ? candidate.constraint : '' }
    }
    current = candidate.cause
  }
  return undefined
}
