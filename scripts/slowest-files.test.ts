import { describe, expect, it } from 'vitest'
import { formatSlowestFiles, listSlowestFiles } from './slowest-files.mjs'

describe('the slowest test files of a run', () => {
  it('ranks Vitest files by wall time and Playwright files by their summed attempts, slowest first', () => {
    const timings = listSlowestFiles({
      root: '/repo',
      count: 3,
      vitest: {
        testResults: [
          {
            name: '/repo/apps/a.test.ts',
            startTime: 1000,
            endTime: 4000,
            assertionResults: [{ duration: 10 }],
          },
          { name: '/repo/apps/b.test.ts', startTime: 0, endTime: 500, assertionResults: [] },
          // No times: the sum of its tests.
          { name: '/repo/apps/c.test.ts', assertionResults: [{ duration: 700 }, { duration: null }] },
        ],
      },
      playwright: {
        suites: [
          {
            file: 'pay.spec.ts',
            specs: [{ tests: [{ results: [{ duration: 2000 }, { duration: 1500 }] }] }],
            suites: [{ specs: [{ tests: [{ results: [{ duration: 1000 }] }] }] }],
          },
        ],
      },
    })
    expect(timings).toEqual([
      { file: 'e2e/specs/pay.spec.ts', runner: 'playwright', ms: 4500 },
      { file: 'apps/a.test.ts', runner: 'vitest', ms: 3000 },
      { file: 'apps/c.test.ts', runner: 'vitest', ms: 700 },
    ])
    expect(formatSlowestFiles(timings)).toEqual([
      'slowest 3 test files:',
      '      4.5 s  playwright e2e/specs/pay.spec.ts',
      '      3.0 s  vitest     apps/a.test.ts',
      '      0.7 s  vitest     apps/c.test.ts',
    ])
  })

  it('says nothing without reports', () => {
    expect(listSlowestFiles({ root: '/repo' })).toEqual([])
    expect(formatSlowestFiles([])).toEqual([])
  })
})
