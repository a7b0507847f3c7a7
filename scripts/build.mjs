// @ts-check
// npm run build: compile the contracts (typed ABIs), build the signer frames and the web app, each
// skipped when its sources are unchanged since the last build.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensureDependencies, hashPaths, repoRoot, runOrExit } from './lib.mjs'

/** Builds the contracts, the signer frames and the web app unless their sources hash to the last build's. */
export function buildAll() {
  runOrExit('npm', ['run', 'build', '--silent', '-w', 'packages/contracts'])

  // The signer frames bundle the frames' own code, the signer's bundle code, the wallet SDK's crypto
  // and the frame protocol.
  const framesHash = hashPaths([
    'apps/signer/frames',
    'apps/signer/src',
    'packages/protocol/src',
    'packages/wallet/src',
    'packages/core/src',
    'package.json',
    'package-lock.json',
  ])
  const framesMarker = join(repoRoot, 'apps/signer/dist/frames/.build-hash')
  if (existsSync(framesMarker) && readFileSync(framesMarker, 'utf8') === framesHash) {
    console.log('• Signer frames are up to date')
  } else {
    console.log('• Building the signer frames…')
    runOrExit('npm', ['run', 'build', '--silent', '-w', 'apps/signer'])
    writeFileSync(framesMarker, framesHash)
  }

  // The web app bundles the wallet SDK (the signer store, the frame stamper) and its protocol.
  const webHash = hashPaths([
    'apps/web',
    'packages/core/src',
    'packages/protocol/src',
    'packages/wallet/src',
    'package.json',
    'package-lock.json',
  ])
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
