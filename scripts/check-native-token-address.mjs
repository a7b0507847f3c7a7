// @ts-check
// The native-token address, written once (part of npm run check). Fails when a source file other
// than packages/core/src/native-token-address.ts spells the all-e placeholder, in any case: every
// other file imports `nativeTokenAddress` from there. Data files (Squid's recorded answers) and the
// docs may quote it; code may not.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const home = 'packages/core/src/native-token-address.ts'
const codeFile = /\.(?:[cm]?[jt]s|tsx|jsx|sol)$/
// Built from parts so this file does not hold the address itself.
const placeholder = new RegExp(`0x${'e'.repeat(8)}(?:e{32})`, 'i')

const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\0')
  .filter((file) => codeFile.test(file) && file !== home && existsSync(join(root, file)))

const copies = files.filter((file) => placeholder.test(readFileSync(join(root, file), 'utf8')))
for (const file of copies) {
  console.error(`${file}: spells the native-token address; import nativeTokenAddress from ${home}`)
}
process.exit(copies.length > 0 ? 1 : 0)
