// @ts-check
// npm test: the whole suite. Installs what is missing (npm packages; Chromium, PostgreSQL,
// redis-server and HAProxy from Debian when run as root), builds, runs every Vitest project, then the
// Playwright end-to-end suite against the stack that `npm start` brings up, and closes with the
// slowest 10 test files and one summary line.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { ensureDependencies, repoRoot, runChild } from './lib.mjs'
import { formatSlowestFiles, listSlowestFiles } from './slowest-files.mjs'

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const postgresBin = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin'
const isRoot = process.getuid?.() === 0
// The rate-limit tests start their own redis-server (packages/runtime/test/start-redis.ts).
const hasRedisServer = () =>
  process.env.REDIS_SERVER_BIN
    ? existsSync(process.env.REDIS_SERVER_BIN)
    : spawnSync('sh', ['-c', 'command -v redis-server'], { stdio: 'ignore' }).status === 0

/**
 * Installs Debian packages when run as root, else stops with the one command that would.
 * @param {() => boolean} isPresent
 * @param {string[]} packages
 * @param {string} what
 */
function ensureSystemPackage(isPresent, packages, what) {
  if (isPresent()) return
  if (!isRoot) {
    console.error(
      `✖ ${what} is missing. Install it with:\n\n  sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}\n`,
    )
    process.exit(1)
  }
  console.log(`• Installing ${what} from Debian (${packages.join(' ')})…`)
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...packages]]) {
    const result = spawnSync('apt-get', args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
    if (result.status !== 0) {
      console.error(`✖ apt-get ${args.join(' ')} failed`)
      process.exit(1)
    }
  }
  if (!isPresent()) {
    console.error(`✖ ${what} is still missing after installing ${packages.join(' ')}`)
    process.exit(1)
  }
}

ensureDependencies()
ensureSystemPackage(() => existsSync(chromiumPath), ['chromium'], 'Chromium')
ensureSystemPackage(() => existsSync(join(postgresBin, 'initdb')), ['postgresql-15'], 'PostgreSQL 15')
ensureSystemPackage(hasRedisServer, ['redis-server'], 'Redis')
// The several-instances test puts a real HAProxy in front of two app servers (apps/server/test/start-haproxy.ts).
ensureSystemPackage(
  () => existsSync(process.env.HAPROXY_BIN ?? '/usr/sbin/haproxy') || existsSync('/usr/bin/haproxy'),
  ['haproxy'],
  'HAProxy',
)

const { buildAll } = await import('./build.mjs')
buildAll()

const reportDir = join(repoRoot, 'test-results')
rmSync(reportDir, { recursive: true, force: true })
mkdirSync(reportDir, { recursive: true })

console.log('\n• Unit, route, contract and devnet tests (Vitest)…')
const unit = runChild('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${join(reportDir, 'vitest.json')}`,
])
const unitCode = await unit.exited

console.log('\n• End-to-end tests (Playwright, Chromium)…')
const e2e = runChild('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
  env: {
    ...process.env,
    PLAYWRIGHT_JSON_OUTPUT_NAME: join(reportDir, 'playwright.json'),
    CHROMIUM_PATH: chromiumPath,
  },
})
const e2eCode = await e2e.exited

const counts = { passed: 0, failed: 0, skipped: 0 }
/** @typedef {{ numPassedTests?: number, numFailedTests?: number, numPendingTests?: number, numTodoTests?: number }} VitestReport */
/** @typedef {{ stats?: { expected?: number, flaky?: number, unexpected?: number, skipped?: number } }} PlaywrightReport */
const vitestReport = /** @type {VitestReport | undefined} */ (readJson(join(reportDir, 'vitest.json')))
if (vitestReport) {
  counts.passed += vitestReport.numPassedTests ?? 0
  counts.failed += vitestReport.numFailedTests ?? 0
  counts.skipped += (vitestReport.numPendingTests ?? 0) + (vitestReport.numTodoTests ?? 0)
}
const playwrightReport = /** @type {PlaywrightReport | undefined} */ (
  readJson(join(reportDir, 'playwright.json'))
)
if (playwrightReport?.stats) {
  counts.passed += (playwrightReport.stats.expected ?? 0) + (playwrightReport.stats.flaky ?? 0)
  counts.failed += playwrightReport.stats.unexpected ?? 0
  counts.skipped += playwrightReport.stats.skipped ?? 0
}
// Where the time went: the 10 slowest files of both runners.
for (const line of formatSlowestFiles(
  listSlowestFiles({
    vitest: /** @type {import('./slowest-files.mjs').VitestTimings | undefined} */ (vitestReport),
    playwright: /** @type {import('./slowest-files.mjs').PlaywrightTimings | undefined} */ (playwrightReport),
    root: repoRoot,
  }),
)) {
  console.log(line)
}
const ok = unitCode === 0 && e2eCode === 0
if (!ok && counts.failed === 0) counts.failed = 1 // a runner failed before reporting any test
console.log(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`)
process.exit(ok ? 0 : 1)

/**
 * @param {string} path
 * @returns {unknown} the parsed JSON, or undefined when unreadable
 */
function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
}
