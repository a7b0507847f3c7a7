import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a checked JavaScript script without declarations, run by `npm run generate:client`.
import { generateSchemaText } from '../generate.mjs'

const root = join(import.meta.dirname, '..')

describe('packages/client/src/schema.ts', () => {
  it('is what openapi-typescript generates from the checked-in openapi.json', async () => {
    const generated: string = await generateSchemaText(join(root, 'openapi.json'))
    const checkedIn = readFileSync(join(root, 'src/schema.ts'), 'utf8')
    expect(
      checkedIn === generated,
      'packages/client/src/schema.ts is stale: run `npm run generate:client` and commit the result',
    ).toBe(true)
  })
})
