// npm run build: compile the contracts (typed ABIs) and build the web app, each skipped when its
// sources are unchanged since the last build.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensureDependencies, hashPaths, repoRoot, runOrExit } from './lib.mjs'

/** Builds the contracts and the web app unless their sources hash to the last build's. */
export function buildAll() {
  runOrExit('npm', ['run', 'build', '--silent', '-w', 'packages/contracts'])

  const webHash = hashPaths(['apps/web', 'packages/core/src', 'package.json', 'package-lock.json'])
  const marker = join(repoRoot, 'apps/web/dist/.build-hash')
  if (existsSync(marker) && readFileSync(marker, 'utf8') === webHash) {
    console.log('• Web app is up to date')
    return
  }
  console.log('• Building the web app…')
  runOrExit('npm', ['run', 'build', '--silent', '-w', 'apps/web'])
  writeFileSync(marker, webHash)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureDependencies()
  buildAll()
}
