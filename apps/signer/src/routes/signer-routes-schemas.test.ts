import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// The signer-call table in packages/protocol is the one place a signer call's schemas are written
// (docs/signer.md#signer-calls): a schema declared in a route file would be a second definition
// that the SDK and the frames never see. A route file may compose nothing but the table's schemas.
const routesDirectory = import.meta.dirname
const schemaConstructor =
  /\bz\.(object|strictObject|looseObject|string|number|int|boolean|union|array|enum|literal|record|uuid|email|unknown)\(/g

function readRouteFiles(): { name: string; text: string }[] {
  return readdirSync(routesDirectory)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => ({ name, text: readFileSync(join(routesDirectory, name), 'utf8') }))
}

describe('the signer route files', () => {
  it('declare no schema of their own: every body, query and answer comes from the signer-call table', () => {
    const files = readRouteFiles()
    expect(files.map((file) => file.name)).toContain('account-routes.ts')
    const declared = files.flatMap(({ name, text }) =>
      [...text.matchAll(schemaConstructor)].map((match) => `${name}: ${match[0]}`),
    )
    expect(declared).toEqual([])
  })

  it('no file under routes/, tests included, builds an object schema with zod (rg finds none)', () => {
    // Spelled in two parts so this file does not find itself.
    const needle = ['z', 'object'].join('.')
    const offenders = readdirSync(routesDirectory)
      .filter((name) => name.endsWith('.ts'))
      .filter((name) => readFileSync(join(routesDirectory, name), 'utf8').includes(needle))
    expect(offenders).toEqual([])
  })
})
