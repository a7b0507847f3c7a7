import { execFileSync, spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

// Built from parts, so this file passes the check it tests.
const allE = `0x${'e'.repeat(40)}`
const checksummed = ['0xEeeeeEeeeEeEeeEeEe', 'EeeEEEeeeeEeeeeeeeEEeE'].join('')

let root: string | undefined
afterEach(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true })
  root = undefined
})

/** Runs the check on a throw-away repository holding `files`: its exit status and its report. */
function runCheck(files: Record<string, string>): { status: number | null; stderr: string } {
  root = mkdtempSync(join(tmpdir(), 'native-token-address-'))
  execFileSync('git', ['init', '-q'], { cwd: root })
  mkdirSync(join(root, 'scripts'))
  copyFileSync(
    join(import.meta.dirname, 'check-native-token-address.mjs'),
    join(root, 'scripts/check-native-token-address.mjs'),
  )
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  const result = spawnSync(process.execPath, ['scripts/check-native-token-address.mjs'], {
    cwd: root,
    encoding: 'utf8',
  })
  return { status: result.status, stderr: result.stderr }
}

const home = {
  'packages/core/src/native-token-address.ts': `export const nativeTokenAddress = '${checksummed}'\n`,
}

describe('check-native-token-address', () => {
  it('passes when only core defines the address and data files or docs quote it', () => {
    const { status } = runCheck({
      ...home,
      'apps/server/src/a.ts': "import { nativeTokenAddress } from '@quicklinks/core/native-token-address'\n",
      'apps/server/fixtures/tokens.json': `{"address": "${checksummed}"}\n`,
      'docs/api.md': `The native token is \`${checksummed}\`.\n`,
    })
    expect(status).toBe(0)
  })

  it('fails on a second definition in code, in either casing, and names the file', () => {
    const { status, stderr } = runCheck({
      ...home,
      'apps/web/src/catalogue.ts': `export const nativeTokenAddress = '${allE}'\n`,
      'e2e/specs/pay.spec.ts': `const nativeToken = '${checksummed}'\n`,
    })
    expect(status).toBe(1)
    expect(stderr).toContain('apps/web/src/catalogue.ts: spells the native-token address')
    expect(stderr).toContain('e2e/specs/pay.spec.ts: spells the native-token address')
  })
})
