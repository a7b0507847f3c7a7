import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { clientOpenApiFile, readFreshOpenApiDocumentText } from './openapi-document.ts'

/**
 * The typed client (packages/client) is generated from the OpenAPI document checked in beside it:
 * a route or schema change that is not regenerated (`npm run generate:client`) fails here. With
 * WRITE_CLIENT_OPENAPI=1 (the generate script's first step) the test writes the document instead.
 */
describe('packages/client/openapi.json', () => {
  it('is the document the server serves', async () => {
    const text = await readFreshOpenApiDocumentText()
    if (process.env.WRITE_CLIENT_OPENAPI === '1') writeFileSync(clientOpenApiFile, text)
    const checkedIn = readFileSync(clientOpenApiFile, 'utf8')
    expect(
      checkedIn === text,
      `packages/client/openapi.json is stale: run \`npm run generate:client\` and commit the result\n${describeFirstDifference(checkedIn, text)}`,
    ).toBe(true)
  })
})

/** The first line where the checked-in document and the served one part, with a little context. */
function describeFirstDifference(checkedIn: string, served: string): string {
  const left = checkedIn.split('\n')
  const right = served.split('\n')
  const index = left.findIndex((line, at) => line !== right[at])
  const at = index === -1 ? Math.min(left.length, right.length) : index
  const around = (lines: string[]) => lines.slice(Math.max(0, at - 3), at + 3).join('\n')
  return `line ${at + 1}\nchecked in:\n${around(left)}\nserved:\n${around(right)}`
}
