// @ts-check
// npm start: install what is missing, build, and start the whole stack (devnet, server, web) on
// the embedded defaults. Ctrl-C stops every child process.
import { ensureDependencies, runChild } from './lib.mjs'

ensureDependencies()
const { buildAll } = await import('./build.mjs')
buildAll()

const { child, exited } = runChild(process.execPath, ['--import', 'tsx', 'scripts/stack.ts'])
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => child.kill(signal))
}
process.exit(await exited)
