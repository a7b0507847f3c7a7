// @ts-check
// npm run bench: runs every benchmark in turn (apps/server/bench/*.ts, then e2e/bench/*.ts when
// present), each with `node --import tsx`, and lets each print its own table. Needs `npm run build`
// first (the devnet deploys the compiled contracts). Exits non-zero when any bench fails.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { ensureDependencies, repoRoot, runChild } from './lib.mjs'

ensureDependencies()

const benchDirs = ['apps/server/bench', 'e2e/bench']
const benches = benchDirs.flatMap((dir) => {
  const absolute = join(repoRoot, dir)
  if (!existsSync(absolute)) return []
  return readdirSync(absolute)
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => join(dir, name))
})

if (benches.length === 0) {
  console.error('✖ No benchmarks found under apps/server/bench or e2e/bench')
  process.exit(1)
}

const failed = []
for (const bench of benches) {
  console.log(`\n• ${bench}`)
  const code = await runChild('node', ['--import', 'tsx', bench]).exited
  if (code !== 0) failed.push(bench)
}

if (failed.length > 0) {
  console.error(`\n✖ ${failed.length} of ${benches.length} benchmarks failed: ${failed.join(', ')}`)
  process.exit(1)
}
console.log(`\n✓ ${benches.length} benchmark${benches.length === 1 ? '' : 's'} done`)
