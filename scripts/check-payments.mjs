// @ts-check
// The payments module's own rules (part of npm run check): every provider ends in one verifier, so
// no payment code outside providers/local/ may branch on the local provider by name (a 'local'
// string), and no file of the module, its tests included, grows past 300 lines (split it by what it
// does instead; tests share their set-up through the kits in apps/server/test). Tests are left out
// of the 'local' rule only: they name providers to set their scenes. Run from the repository root,
// or pass another root (the script's test does).
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const root = process.argv[2] ?? join(import.meta.dirname, '..')
const paymentsDir = 'apps/server/src/services/payments'
const maxLines = 300
/** A string literal naming the local provider: 'local', "local" or `local`. */
const localLiteral = /(['"`])local\1/

/**
 * Every .ts file under `dir` (tests included), by its path from the root.
 * @param {string} dir
 * @returns {string[]}
 */
function listFiles(dir) {
  let entries
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true })
  } catch {
    return []
  }
  return entries
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = `${dir}/${entry.name}`
      if (entry.isDirectory()) return listFiles(path)
      return entry.name.endsWith('.ts') ? [path] : []
    })
}

/**
 * The text without its comments (a comment may name the local provider; only code may not branch on it).
 * @param {string} text
 */
function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
}

const problems = []
for (const file of listFiles(paymentsDir)) {
  const text = readFileSync(join(root, file), 'utf8')
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
  if (lines > maxLines) problems.push(`${file}: ${lines} lines, over ${maxLines}: split it by what it does`)
  const inLocalProvider = relative(paymentsDir, file).startsWith('providers/local/')
  if (!inLocalProvider && !file.endsWith('.test.ts')) {
    stripComments(text)
      .split('\n')
      .forEach((line, index) => {
        if (localLiteral.test(line)) {
          problems.push(
            `${file}:${index + 1}: names the 'local' provider outside providers/local/: ask the provider instead (RoutingProvider)`,
          )
        }
      })
  }
}
for (const problem of problems) console.error(problem)
if (problems.length > 0) {
  console.error(`payments check failed: ${problems.length} problem(s)`)
  process.exit(1)
}
