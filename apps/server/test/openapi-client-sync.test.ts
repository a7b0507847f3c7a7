import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { clientOpenApiFile, readOpenApiDocumentText } from './openapi-document.ts'

/**
 * The typed client (packages/client) is generated from the OpenAPI document checked in beside it:
 * a route or schema change that is not regenerated (`npm run generate:client`) fails here. With
 * WRITE_CLIENT_OPENAPI=1 (the generate script's first step) the test writes the document instead.
 */
describe('packages/client/openapi.json', () => {
  it('is the document the server serves', async () => {
    const text = await readOpenApiDocumentText()
    if (process.env.WRITE_CLIENT_OPENAPI === '1') writeFileSync(clientOpenApiFile, text)
    const checkedIn = readFileSync(clientOpenApiFile, 'utf8')
    expect(
      checkedIn === text,
      'packages/client/openapi.json is stale: run `npm run generate:client` and commit the result',
    ).toBe(true)
  })
})
