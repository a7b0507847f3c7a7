import { AppError } from '@quicklinks/core/app-error'
import type { z } from 'zod'

/** A 422 VALIDATION_FAILED naming the field, with the message '<field>: <problem>'. */
export function createValidationError(field: string, problem: string): AppError {
  return new AppError('VALIDATION_FAILED', { userMessage: `${field}: ${problem}`, field })
}

/**
 * Parses input that came from the client with a zod schema; on failure throws AppError
 * VALIDATION_FAILED naming the first invalid field. Use it only for client input: a bare ZodError
 * (say, from parsing an upstream answer) is an internal error and stays a 500.
 */
export function parseInputOrThrow<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
): z.output<Schema> {
  const parsed = schema.safeParse(input)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'input'
  throw createValidationError(field, issue?.message ?? 'is not valid')
}
