// @ts-check
// Shared helpers for the repo scripts (plain Node, no dependencies: they run before `npm install`).
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * Runs a command in the repo root, inheriting stdio; exits the process when it fails.
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} [options]
 */
export function runOrExit(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', ...options })
  if (result.status !== 0) {
    console.error(`\n✖ ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`)
    process.exit(result.status ?? 1)
  }
}

/**
 * Installs the npm dependencies when they are missing or older than package-lock.json, so a
 * fresh clone needs nothing but `npm start` or `npm test`.
 */
export function ensureDependencies() {
  const marker = join(repoRoot, 'node_modules', '.package-lock.json')
  const lock = join(repoRoot, 'package-lock.json')
  const isInstalled = existsSync(marker) && existsSync(join(repoRoot, 'node_modules', '.bin', 'tsx'))
  if (isInstalled && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return
  console.log('• Installing npm dependencies (first run)…')
  // `npm install`, not `npm ci`: npm 11 reports Biome's optional platform packages as missing from a
  // lock it wrote itself, and `npm ci` refuses; `npm install` honours the lock all the same.
  runOrExit('npm', ['install', '--no-audit', '--no-fund'])
}

/**
 * A stable hash of every file under the given paths (skipping build output), for build caching.
 * @param {string[]} paths repo-relative paths
 * @returns {string} hex SHA-256
 */
export function hashPaths(paths) {
  const hash = createHash('sha256')
  /** @param {string} path */
  const visit = (path) => {
    if (!existsSync(path)) return
    const stats = statSync(path)
    if (stats.isDirectory()) {
      for (const name of readdirSync(path).sort()) {
        if (['node_modules', 'dist', 'generated', '.data', 'test-results'].includes(name)) continue
        visit(join(path, name))
      }
      return
    }
    hash.update(relative(repoRoot, path))
    hash.update(readFileSync(path))
  }
  for (const path of paths) visit(join(repoRoot, path))
  return hash.digest('hex')
}

/**
 * Spawns a long-running child in the repo root and resolves with its exit code.
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [options]
 * @returns {{ child: import('node:child_process').ChildProcess, exited: Promise<number> }}
 */
export function runChild(command, args, options = {}) {
  const child = spawn(command, args, { cwd: repoRoot, stdio: 'inherit', ...options })
  return {
    child,
    exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))),
  }
}
