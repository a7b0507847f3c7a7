// @ts-check
// npm run check: strict type checks of every workspace, Biome, the doc citations
// (check-doc-citations.mjs), the payments module's rules (check-payments.mjs), the native-token
// address's one definition (check-native-token-address.mjs), the web's component sizes
// (check-component-size.mjs), then dependency-cruiser, which fails on any import cycle between
// files or folders (.dependency-cruiser.cjs). On a fresh clone it first installs the dependencies
// and compiles the contracts, whose typed ABIs the server imports.
import { spawnSync } from 'node:child_process'
import { ensureDependencies, runOrExit } from './lib.mjs'

ensureDependencies()
runOrExit('npm', ['run', 'build', '--silent', '-w', 'packages/contracts'])

const workspaces = [
  'scripts',
  'packages/core',
  'packages/protocol',
  'packages/contracts',
  'packages/devnet',
  'packages/wallet',
  'packages/runtime',
  'packages/client',
  'apps/signer',
  'apps/signer/frames',
  'apps/server',
  'apps/server/test/wallet-sdk',
  'apps/web',
  'e2e',
]
let failed = false
for (const workspace of workspaces) {
  const result = spawnSync('npx', ['tsc', '--noEmit', '-p', workspace], { stdio: 'inherit' })
  if (result.status !== 0) {
    console.error(`type check failed in ${workspace}`)
    failed = true
  }
}
const lint = spawnSync('npx', ['biome', 'check', '.'], { stdio: 'inherit' })
if (lint.status !== 0) failed = true
// No file points at a document outside the repository, and every cited docs anchor exists.
const citations = spawnSync(process.execPath, [`${import.meta.dirname}/check-doc-citations.mjs`], {
  stdio: 'inherit',
})
if (citations.status !== 0) failed = true
// The payments module: no 'local' branch outside its local provider, no file over 300 lines.
const payments = spawnSync(process.execPath, [`${import.meta.dirname}/check-payments.mjs`], {
  stdio: 'inherit',
})
if (payments.status !== 0) failed = true
// The native-token address is defined once, in packages/core (check-native-token-address.mjs).
const nativeToken = spawnSync(process.execPath, [`${import.meta.dirname}/check-native-token-address.mjs`], {
  stdio: 'inherit',
})
if (nativeToken.status !== 0) failed = true
// No web component file over 300 lines.
const componentSize = spawnSync(process.execPath, [`${import.meta.dirname}/check-component-size.mjs`], {
  stdio: 'inherit',
})
if (componentSize.status !== 0) failed = true
// Every app's and package's source; the config narrows it to src/ and leaves tests and build output out.
const cycles = spawnSync(
  'npx',
  ['depcruise', '--config', '.dependency-cruiser.cjs', '--output-type', 'err', 'apps', 'packages'],
  { stdio: 'inherit' },
)
if (cycles.status !== 0) {
  console.error('import cycle check failed (dependency-cruiser, .dependency-cruiser.cjs)')
  failed = true
}
process.exit(failed ? 1 : 0)
