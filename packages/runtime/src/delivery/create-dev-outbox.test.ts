import { describe, expect, it } from 'vitest'
import { createDevOutbox } from './create-dev-outbox.ts'

describe('createDevOutbox', () => {
  it('lists messages newest first and drops the oldest past its limit', () => {
    const outbox = createDevOutbox<number>(3)
    for (const message of [1, 2, 3, 4]) outbox.add(message)
    expect(outbox.list()).toEqual([4, 3, 2])
  })

  it('hands out copies, so a caller cannot change what it holds', () => {
    const outbox = createDevOutbox<string>()
    outbox.add('a')
    outbox.list().push('forged')
    expect(outbox.list()).toEqual(['a'])
  })

  it('refuses a limit below one', () => {
    expect(() => createDevOutbox(0)).toThrow(RangeError)
  })
})
