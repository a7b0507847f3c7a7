import { execFileSync, spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

// The words the check refuses are spelled in pieces here, so this file passes it too.
const outsideName = ['SP', 'EC'].join('')
const cite = (page: string, anchor: string) => ['docs', `${page}.md#${anchor}`].join('/')

let root: string | undefined
afterEach(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true })
  root = undefined
})

/** Runs the check on a throw-away repository holding `files`; its exit status and problem lines. */
function runCheck(files: Record<string, string>): { status: number | null; lines: string[] } {
  root = mkdtempSync(join(tmpdir(), 'doc-citations-'))
  execFileSync('git', ['init', '-q'], { cwd: root })
  mkdirSync(join(root, 'scripts'))
  copyFileSync(
    join(import.meta.dirname, 'check-doc-citations.mjs'),
    join(root, 'scripts/check-doc-citations.mjs'),
  )
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  const result = spawnSync(process.execPath, ['scripts/check-doc-citations.mjs'], {
    cwd: root,
    encoding: 'utf8',
  })
  return {
    status: result.status,
    lines: result.stderr
      .split('\n')
      .filter((line) => line.includes(': ') && !line.startsWith('doc citation')),
  }
}

const pages = {
  'docs/product.md': '<a id="routes"></a>\n## Routes\nSee [the API](api.md#csrf) and [routes](#routes).\n',
  'docs/api.md': '<a id="csrf"></a>\n',
  'docs/decisions/0001-x.md': 'As [routes](../product.md#routes) says.\n',
}

describe('check-doc-citations', () => {
  it('passes citations of anchors that exist', () => {
    const { status } = runCheck({
      ...pages,
      'a.ts': `// ${cite('product', 'routes')}, ${cite('api', 'csrf')}\n`,
    })
    expect(status).toBe(0)
  })

  it('names every missing anchor and page, in code and between the pages', () => {
    const { status, lines } = runCheck({
      ...pages,
      'docs/api.md': '<a id="csrf"></a>\n[gone](product.md#gone)\n',
      'a.ts': `// ${cite('product', 'nope')} ${cite('none', 'x')}\n`,
    })
    expect(status).toBe(1)
    expect(lines).toEqual([
      `a.ts:1: cites ${cite('product', 'nope')}, which has no <a id="nope">`,
      'a.ts:1: cites docs/none.md, which does not exist',
      `docs/api.md:2: cites ${cite('product', 'gone')}, which has no <a id="gone">`,
    ])
  })

  it('refuses pointers at documents outside the repository, but not a relative path inside it', () => {
    const { status, lines } = runCheck({
      ...pages,
      'a.ts': `// as the ${outsideName} says (${'§'}3)\n// ../shared/notes.md\n`,
      'x/y/b.ts': "import { a } from '../shared/a'\n",
    })
    expect(status).toBe(1)
    expect(lines).toEqual([
      `a.ts:1: "${outsideName}" points at a document outside the repository; cite docs/ instead`,
      `a.ts:1: "${'§'}3" points at a numbered section of a document outside the repository; cite docs/ instead`,
      'a.ts:2: "../shared/notes.md" points outside the repository',
    ])
  })
})
