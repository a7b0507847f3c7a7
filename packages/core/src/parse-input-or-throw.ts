import { z } from 'zod'
import { AppError } from './app-error.ts'

/**
 * A 422 VALIDATION_FAILED naming the field, with the message '<field>: <problem>'. A problem that
 * is a whole sentence naming the field itself (it starts with the field's name and ends with a full
 * stop, e.g. the route request's "fromAmount must be a positive integer in the token's smallest
 * unit."), or one about the whole body, is the message as it is.
 */
export function createValidationError(field: string, problem: string): AppError {
  const name = field.split('.').at(-1) ?? field
  const isSentence = problem.endsWith('.') && (field === 'body' || problem.startsWith(`${name} `))
  return new AppError('VALIDATION_FAILED', {
    userMessage: isSentence ? problem : `${field}: ${problem}`,
    field,
  })
}

/**
 * Parses input that came from the client with a zod schema. Use it only for client input: a bare
 * ZodError (say, from parsing an upstream answer) is an internal error and stays a 500.
 *
 * Fails by throwing AppError VALIDATION_FAILED (422) naming the first invalid field, with the
 * message '<field>: <problem>' (or the problem alone when it is a sentence, see `createValidationError`). The field is the issue's path, after `fieldPrefix` when given (the
 * signer passes `parameters`); an issue with no path names `fieldPrefix`, or else 'input'.
 */
export function parseInputOrThrow<Schema extends z.core.$ZodType>(
  schema: Schema,
  input: unknown,
  fieldPrefix?: string,
): z.output<Schema> {
  // zod's own safeParse takes classic and zod/mini schemas alike (the signer-call table's are mini).
  const parsed = z.safeParse(schema, input)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const path = [...(fieldPrefix === undefined ? [] : [fieldPrefix]), ...(issue?.path.map(String) ?? [])]
  const field = path.length > 0 ? path.join('.') : 'input'
  throw createValidationError(field, issue?.message ?? 'is not valid')
}
