// @ts-check
// Doc citations (part of npm run check). Fails when a file of the repository points at a document
// that is not in it (the product's own pages are docs/*.md), or when a citation of a docs page
// names an anchor that page does not have. A citation is `docs/<page>.md#<anchor>` anywhere, or a
// Markdown link `[…](<page>.md#<anchor>)` / `[…](#<anchor>)` inside docs/; an anchor is an explicit
// `<a id="…"></a>` (docs/README.md, "Citing these pages from code").
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'

const root = join(import.meta.dirname, '..')
const thisFile = 'scripts/check-doc-citations.mjs'

/** Pointers at documents outside the repository: their names, their section signs, their folder. */
const outsidePointers = [
  {
    pattern: /\b(SPEC|SPEC-NOTES|ARCHITECTURE|STYLE|DESIGN)(\.md)?\b/,
    what: 'a document outside the repository',
  },
  { pattern: /§\s*\d/, what: 'a numbered section of a document outside the repository' },
  { pattern: /\/work\/shared\b/, what: 'a folder outside the repository' },
]
/** A relative path into a `shared` folder; a pointer when it leads out of the repository. */
const sharedPath = /(?:\.\.\/)+shared\/[^\s'"`)]*/g
const docsCitation = /\bdocs\/([\w./-]+?\.md)#([\w-]+)/g
const markdownLink = /\]\(([^)\s#]*\.md)?#([\w-]+)\)/g
const anchor = /<a id="([^"]+)"><\/a>/g

const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\0')
  .filter((file) => file !== '' && file !== thisFile && existsSync(join(root, file)))

/** Text files only: anything with a NUL byte is binary. */
const texts = new Map()
for (const file of files) {
  const bytes = readFileSync(join(root, file))
  if (!bytes.includes(0)) texts.set(file, bytes.toString('utf8'))
}

/** Anchors of each docs page, by its path from the repository root. */
const anchorsByPage = new Map()
const problems = []
for (const [file, text] of texts) {
  if (!file.startsWith('docs/') || !file.endsWith('.md')) continue
  const ids = new Set()
  for (const [, id] of text.matchAll(anchor)) {
    if (ids.has(id)) problems.push(`${file}: anchor "${id}" is defined twice`)
    ids.add(id)
  }
  anchorsByPage.set(file, ids)
}

/**
 * @param {string} where `file:line` of the citation
 * @param {string} page the cited docs page
 * @param {string} id the cited anchor
 */
function checkCitation(where, page, id) {
  const ids = anchorsByPage.get(page)
  if (ids === undefined) problems.push(`${where}: cites ${page}, which does not exist`)
  else if (!ids.has(id)) problems.push(`${where}: cites ${page}#${id}, which has no <a id="${id}">`)
}

for (const [file, text] of texts) {
  const lines = text.split('\n')
  lines.forEach((/** @type {string} */ line, /** @type {number} */ index) => {
    const where = `${file}:${index + 1}`
    for (const { pattern, what } of outsidePointers) {
      const match = line.match(pattern)
      if (match) problems.push(`${where}: "${match[0]}" points at ${what}; cite docs/ instead`)
    }
    for (const [path] of line.matchAll(sharedPath)) {
      const target = posix.normalize(posix.join(posix.dirname(file), path))
      if (target.startsWith('../')) problems.push(`${where}: "${path}" points outside the repository`)
    }
    for (const [, page, id] of line.matchAll(docsCitation)) checkCitation(where, `docs/${page}`, String(id))
    if (file.startsWith('docs/') && file.endsWith('.md')) {
      for (const [, target, id] of line.matchAll(markdownLink)) {
        const page = target === undefined ? file : posix.normalize(posix.join(dirname(file), target))
        if (page.startsWith('docs/')) checkCitation(where, page, String(id))
      }
    }
  })
}

if (problems.length > 0) {
  console.error(problems.join('\n'))
  console.error(`doc citation check failed: ${problems.length} problem(s) (docs/README.md explains citing)`)
  process.exit(1)
}
