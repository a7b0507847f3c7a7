import { describe, expect, it } from 'vitest'
import { listBlockRanges, maxLogBlockRange } from './list-block-ranges.ts'

describe('listBlockRanges', () => {
  it('covers the blocks in consecutive ranges of at most 2,000, oldest or newest first', () => {
    expect(maxLogBlockRange).toBe(2000n)
    expect([...listBlockRanges(10n, 4500n)]).toEqual([
      [10n, 2009n],
      [2010n, 4009n],
      [4010n, 4500n],
    ])
    expect([...listBlockRanges(10n, 4500n, { newestFirst: true })]).toEqual([
      [2501n, 4500n],
      [501n, 2500n],
      [10n, 500n],
    ])
    expect([...listBlockRanges(7n, 7n)]).toEqual([[7n, 7n]])
    expect([...listBlockRanges(0n, 0n, { newestFirst: true })]).toEqual([[0n, 0n]])
    expect([...listBlockRanges(8n, 7n)]).toEqual([])
    expect([...listBlockRanges(8n, 7n, { newestFirst: true })]).toEqual([])
  })
})
