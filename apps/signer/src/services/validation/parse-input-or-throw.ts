import { AppError } from '@quicklinks/core/app-error'
import type { z } from 'zod'

/**
 * Parses client input with a zod schema; on failure throws AppError VALIDATION_FAILED (422) naming
 * the first invalid field, prefixed with `fieldPrefix` (e.g. `parameters`), with the message
 * '<field>: <problem>' — the same shape the app server's validation errors have.
 */
export function parseInputOrThrow<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  fieldPrefix: string,
): z.output<Schema> {
  const parsed = schema.safeParse(input)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const field = [fieldPrefix, ...(issue?.path.map(String) ?? [])].join('.')
  throw new AppError('VALIDATION_FAILED', {
    userMessage: `${field}: ${issue?.message ?? 'is not valid'}`,
    field,
  })
}
