import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AppError } from './app-error.ts'
import { createValidationError, parseInputOrThrow } from './parse-input-or-throw.ts'

const amountSchema = z.object({ payment: z.object({ amount: z.string().regex(/^\d+$/, 'must be digits') }) })

function catchError(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

describe('parseInputOrThrow', () => {
  it('returns the parsed value for valid input', () => {
    expect(parseInputOrThrow(amountSchema, { payment: { amount: '12' } })).toEqual({
      payment: { amount: '12' },
    })
  })

  it('throws a 422 naming the first invalid field by its path', () => {
    const error = catchError(() => parseInputOrThrow(amountSchema, { payment: { amount: 'x' } }))
    expect(error).toBeInstanceOf(AppError)
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      status: 422,
      field: 'payment.amount',
      userMessage: 'payment.amount: must be digits',
    })
  })

  it('puts the prefix before the path', () => {
    const error = catchError(() =>
      parseInputOrThrow(amountSchema, { payment: { amount: 'x' } }, 'parameters'),
    )
    expect(error).toMatchObject({ field: 'parameters.payment.amount' })
  })

  it('names the prefix, or else "input", when the whole value is wrong', () => {
    expect(catchError(() => parseInputOrThrow(amountSchema, 'nope', 'parameters'))).toMatchObject({
      field: 'parameters',
    })
    expect(catchError(() => parseInputOrThrow(amountSchema, 'nope'))).toMatchObject({ field: 'input' })
  })

  it('shows a problem written as a whole sentence as it is, still naming the field', () => {
    const sentence = z.object({
      fromChain: z.string().regex(/^\d+$/, 'fromChain must be a chain id such as 8453.'),
    })
    expect(catchError(() => parseInputOrThrow(sentence, { fromChain: 'base' }))).toMatchObject({
      field: 'fromChain',
      userMessage: 'fromChain must be a chain id such as 8453.',
    })
    expect(createValidationError('alias', 'must be at least 3 characters').userMessage).toBe(
      'alias: must be at least 3 characters',
    )
  })
})
