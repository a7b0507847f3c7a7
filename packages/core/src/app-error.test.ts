import { describe, expect, it } from 'vitest'
import { AppError, parseErrorBody } from './app-error.ts'

describe('AppError', () => {
  it('exposes only the user message in its body, never the internal message or cause', () => {
    const error = new AppError('INTERNAL', { message: 'db password wrong', cause: new Error('secret') })
    expect(JSON.stringify(error.toBody())).not.toMatch(/password|secret/)
    expect(error.status).toBe(500)
  })
  it('walks the cause chain', () => {
    const root = Object.assign(new Error('User rejected'), { code: 4001 })
    const error = new AppError('BAD_REQUEST', { cause: new Error('wrapper', { cause: root }) })
    expect(error.walk((e) => (e as { code?: number }).code === 4001)).toBe(root)
  })
  it('walks any error, through plain-object causes, and ends on a chain that loops', () => {
    const root = { code: '23505', constraint: 'links_slug_unique' }
    const looped: { message: string; cause?: unknown } = { message: 'loop' }
    looped.cause = looped
    expect(
      AppError.walk(new Error('drizzle', { cause: root }), (e) => (e as { code?: string }).code === '23505'),
    ).toBe(root)
    expect(AppError.walk(looped, () => false)).toBeUndefined()
    expect(AppError.walk(undefined, () => true)).toBeUndefined()
  })
})

describe('parseErrorBody', () => {
  it('reads {error:{code,message,field}}', () => {
    const error = parseErrorBody(
      { error: { code: 'CONFLICT', message: 'Taken', field: 'alias_slug' } },
      409,
      'x',
    )
    expect([error.code, error.userMessage, error.field]).toEqual(['CONFLICT', 'Taken', 'alias_slug'])
  })
  it('reads a plain string error field', () => {
    expect(parseErrorBody({ error: 'Nope' }, 400, 'x').userMessage).toBe('Nope')
  })
  it('falls back to the caller message for unknown bodies', () => {
    const error = parseErrorBody('<html>', 500, 'Failed to fetch links')
    expect([error.code, error.userMessage]).toEqual(['INTERNAL', 'Failed to fetch links'])
  })
})
