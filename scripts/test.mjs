// @ts-check
// npm test: the whole suite. Installs what is missing (npm packages; Chromium, PostgreSQL,
// redis-server and HAProxy from Debian when run as root), builds, runs every Vitest project, then
// the Playwright end-to-end suite against the stack that `npm start` brings up, and closes with the
// slowest 10 test files and one summary line.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { basename, join } from 'node:path'
import { createInterface } from 'node:readline'
import { ensureDependencies, repoRoot } from './lib.mjs'
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

// One runner after the other by default. TEST_PARALLEL=1 runs them at once (their ports do not
// overlap: Vitest's servers take free ports, the e2e stack and scripts/stack.test.ts have fixed
// ranges of their own), which pays only on a machine with cores to spare: on the 2-core CI machine
// together took 26 min against 22 min one after the other (2026-11-28). Each line is prefixed
// with its runner.
const serial = process.env.TEST_PARALLEL !== '1'
console.log(
  `\n• Unit, route, contract and devnet tests (Vitest) ${serial ? 'then' : 'beside'} the end-to-end tests (Playwright, Chromium)…`,
)
// Vitest runs as two processes side by side (docs/decisions/0034-suite-time.md): the
// projects that start devnets, stacks and app processes, and the light ones (React in happy-dom,
// the signer on PGlite, pure packages). One Vitest worker keeps about one core busy; two workers
// of the heavy projects starved each other's devnets, a light stream beside them does not.
const heavyProjects = ['server', 'devnet', 'scripts']
const lightProjects = ['web', 'signer', 'wallet', 'contracts', 'runtime', 'core', 'protocol', 'client']
// Every project (named after its folder) is in one of the two lists, or it would never run.
const unlisted = ['packages', 'apps']
  .flatMap((dir) => readdirSync(join(repoRoot, dir)).map((name) => join(dir, name)))
  .filter((dir) => existsSync(join(repoRoot, dir, 'vitest.config.ts')))
  .map((dir) => basename(dir))
  .filter((name) => !heavyProjects.includes(name) && !lightProjects.includes(name))
if (unlisted.length > 0) {
  console.error(`✖ scripts/test.mjs runs no Vitest project named ${unlisted.join(', ')}: add it to a list`)
  process.exit(1)
}
/** @param {string} name @param {string[]} projects */
const runVitest = (name, projects) =>
  runPrefixed(
    name,
    'npx',
    [
      'vitest',
      'run',
      ...projects.map((project) => `--project=${project}`),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(reportDir, `vitest-${name}.json`)}`,
    ],
    process.env,
  )
/** The two Vitest processes: each one's output prefix and report name, and its projects. */
const vitestStreams = /** @type {const} */ ([
  ['unit', heavyProjects],
  ['unit-light', lightProjects],
])
const runUnit = async () => {
  const codes = await Promise.all(vitestStreams.map(([name, projects]) => runVitest(name, projects)))
  return codes.every((code) => code === 0) ? 0 : 1
}
const runE2e = () =>
  runPrefixed('e2e', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
    ...process.env,
    PLAYWRIGHT_JSON_OUTPUT_NAME: join(reportDir, 'playwright.json'),
    CHROMIUM_PATH: chromiumPath,
  })
const [unitCode, e2eCode] = serial
  ? [await runUnit(), await runE2e()]
  : await Promise.all([runUnit(), runE2e()])

const counts = { passed: 0, failed: 0, skipped: 0 }
/** @typedef {{ numPassedTests?: number, numFailedTests?: number, numPendingTests?: number, numTodoTests?: number }} VitestReport */
/** @typedef {{ stats?: { expected?: number, flaky?: number, unexpected?: number, skipped?: number } }} PlaywrightReport */
const vitestReports = vitestStreams.map(
  ([name]) =>
    /** @type {(VitestReport & import('./slowest-files.mjs').VitestTimings) | undefined} */ (
      readJson(join(reportDir, `vitest-${name}.json`))
    ),
)
for (const vitestReport of vitestReports) {
  if (!vitestReport) continue
  counts.passed += vitestReport.numPassedTests ?? 0
  counts.failed += vitestReport.numFailedTests ?? 0
  counts.skipped += (vitestReport.numPendingTests ?? 0) + (vitestReport.numTodoTests ?? 0)
}
const vitestReport = {
  testResults: vitestReports.flatMap((report) => report?.testResults ?? []),
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
    vitest: vitestReport,
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
 * Runs a test runner in the repo root with each output line prefixed by `[name]`, resolving with
 * its exit code (1 when killed by a signal).
 * @param {string} name
 * @param {string} command
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<number>}
 */
function runPrefixed(name, command, args, env) {
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] })
  for (const [stream, out] of /** @type {const} */ ([
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ])) {
    createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
      out.write(`[${name}] ${line}\n`)
    })
  }
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))))
}

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
