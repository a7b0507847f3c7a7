import { describe, expect, it } from 'vitest'
import { isConstantTimeEqual } from './is-constant-time-equal.ts'

describe('isConstantTimeEqual', () => {
  it('is true only for identical bytes of equal length', () => {
    expect(isConstantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true)
    expect(isConstantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false)
    expect(isConstantTimeEqual(new Uint8Array([0, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(false)
    expect(isConstantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0]))).toBe(false)
    expect(isConstantTimeEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true)
  })
})
