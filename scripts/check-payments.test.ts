import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

const payments = 'apps/server/src/services/payments'
const local = 'local'

let root: string | undefined
afterEach(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true })
  root = undefined
})

/** Runs the check on a throw-away tree holding `files`; its exit status and problem lines. */
function runCheck(files: Record<string, string>): { status: number | null; lines: string[] } {
  root = mkdtempSync(join(tmpdir(), 'check-payments-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  const result = spawnSync(process.execPath, [join(import.meta.dirname, 'check-payments.mjs'), root], {
    encoding: 'utf8',
  })
  return {
    status: result.status,
    lines: result.stderr.split('\n').filter((line) => line.startsWith('apps/')),
  }
}

const linesOf = (count: number) =>
  `${Array.from({ length: count }, (_, index) => `// ${index}`).join('\n')}\n`

describe('check-payments', () => {
  it('passes a module whose files are short and whose tracking asks the provider', () => {
    const { status, lines } = runCheck({
      [`${payments}/tracking/track-payment.ts`]: `// The ${local} provider's fills are its own business.\nexport const x = provider.status(query)\n`,
      [`${payments}/providers/${local}/create.ts`]: `export const name = '${local}'\n`,
      [`${payments}/tracking/scene.test.ts`]: `${linesOf(250)}const p = '${local}'\n`,
      [`${payments}/tracking/exactly-300.test.ts`]: linesOf(300),
      [`${payments}/route/exactly-300.ts`]: linesOf(300),
    })
    expect(lines).toEqual([])
    expect(status).toBe(0)
  })

  it("fails on a new 'local' string in tracking code, naming the file and line", () => {
    const { status, lines } = runCheck({
      [`${payments}/tracking/track-payment.ts`]: `const a = 1\nif (intent.provider === '${local}') follow()\n`,
      [`${payments}/route/build.ts`]: `const b = \`${local}\`\n`,
    })
    expect(status).toBe(1)
    expect(lines).toEqual([
      `${payments}/route/build.ts:1: names the '${local}' provider outside providers/${local}/: ask the provider instead (RoutingProvider)`,
      `${payments}/tracking/track-payment.ts:2: names the '${local}' provider outside providers/${local}/: ask the provider instead (RoutingProvider)`,
    ])
  })

  it('fails on a file in payments over 300 lines, wherever it sits', () => {
    const { status, lines } = runCheck({
      [`${payments}/providers/${local}/relayer/process.ts`]: linesOf(301),
      [`${payments}/tracking/ok.ts`]: linesOf(12),
    })
    expect(status).toBe(1)
    expect(lines).toEqual([
      `${payments}/providers/${local}/relayer/process.ts: 301 lines, over 300: split it by what it does`,
    ])
  })

  it('fails on a test file in payments over 300 lines too', () => {
    const { status, lines } = runCheck({
      [`${payments}/tracking/long-scenario.test.ts`]: linesOf(301),
      [`${payments}/providers/squid/short.test.ts`]: linesOf(40),
    })
    expect(status).toBe(1)
    expect(lines).toEqual([
      `${payments}/tracking/long-scenario.test.ts: 301 lines, over 300: split it by what it does`,
    ])
  })
})
