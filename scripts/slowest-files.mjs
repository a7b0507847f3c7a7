// @ts-check
// The slowest test files of a run, read from the reports `npm test` writes (Vitest's JSON reporter
// and Playwright's JSON reporter), so each run ends by saying where its time went.
import { relative } from 'node:path'

/** @typedef {{ name?: string, startTime?: number, endTime?: number, assertionResults?: { duration?: number | null }[] }} VitestFileResult */
/** @typedef {{ testResults?: VitestFileResult[] }} VitestTimings */
/** @typedef {{ results?: { duration?: number }[] }} PlaywrightTest */
/** @typedef {{ file?: string, specs?: { tests?: PlaywrightTest[] }[], suites?: PlaywrightSuite[] }} PlaywrightSuite */
/** @typedef {{ suites?: PlaywrightSuite[] }} PlaywrightTimings */
/** @typedef {{ file: string, runner: 'vitest' | 'playwright', ms: number }} FileTiming */

/**
 * The `count` slowest files of both runners, slowest first: a Vitest file's wall time (its end
 * minus its start, else the sum of its tests), a Playwright file's summed test attempts (retries
 * included). Paths are relative to `root`. Missing or partial reports give fewer rows; never throws.
 * @param {{ vitest?: VitestTimings, playwright?: PlaywrightTimings, root: string, count?: number }} input
 * @returns {FileTiming[]}
 */
export function listSlowestFiles({ vitest, playwright, root, count = 10 }) {
  /** @type {FileTiming[]} */
  const timings = []
  for (const file of vitest?.testResults ?? []) {
    if (typeof file.name !== 'string') continue
    const wall =
      typeof file.startTime === 'number' && typeof file.endTime === 'number'
        ? file.endTime - file.startTime
        : 0
    const summed = (file.assertionResults ?? []).reduce((total, test) => total + (test.duration ?? 0), 0)
    timings.push({ file: relative(root, file.name), runner: 'vitest', ms: Math.max(wall, summed) })
  }
  /** @type {Map<string, number>} */
  const e2eByFile = new Map()
  /** @param {PlaywrightSuite} suite @param {string | undefined} file */
  const visit = (suite, file) => {
    const name = suite.file ?? file
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const ms = (test.results ?? []).reduce((total, result) => total + (result.duration ?? 0), 0)
        if (name !== undefined) e2eByFile.set(name, (e2eByFile.get(name) ?? 0) + ms)
      }
    }
    for (const child of suite.suites ?? []) visit(child, name)
  }
  for (const suite of playwright?.suites ?? []) visit(suite, undefined)
  for (const [file, ms] of e2eByFile) timings.push({ file: `e2e/specs/${file}`, runner: 'playwright', ms })
  return timings.sort((a, b) => b.ms - a.ms).slice(0, count)
}

/**
 * The lines `npm test` prints for {@link listSlowestFiles}: a heading, then one line per file with
 * its seconds.
 * @param {FileTiming[]} timings
 * @returns {string[]}
 */
export function formatSlowestFiles(timings) {
  if (timings.length === 0) return []
  return [
    `slowest ${timings.length} test files:`,
    ...timings.map(
      (timing) =>
        `  ${(timing.ms / 1000).toFixed(1).padStart(7)} s  ${timing.runner.padEnd(10)} ${timing.file}`,
    ),
  ]
}
