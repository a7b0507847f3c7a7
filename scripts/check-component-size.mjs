// @ts-check
// Web component size (part of npm run check): fails when a component file of the web app
// (apps/web/src/**/*.tsx, tests aside) is over 300 lines. A longer dialog is split into a reducer
// and one component per step (features/wallet/send-dialog.tsx, features/pay/pay-modal.tsx).
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { repoRoot } from './lib.mjs'

const maxLines = 300

/**
 * Every component file under `directory`, tests aside.
 * @param {string} directory
 * @returns {string[]}
 */
function listComponentFiles(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return listComponentFiles(path)
    return entry.name.endsWith('.tsx') && !entry.name.endsWith('.test.tsx') ? [path] : []
  })
}

const tooLong = listComponentFiles(join(repoRoot, 'apps/web/src'))
  .map((path) => ({ path, lines: readFileSync(path, 'utf8').split('\n').length - 1 }))
  .filter(({ lines }) => lines > maxLines)
for (const { path, lines } of tooLong) {
  console.error(
    `${relative(repoRoot, path)}: ${lines} lines, over ${maxLines}; split it into step components`,
  )
}
process.exit(tooLong.length > 0 ? 1 : 0)
