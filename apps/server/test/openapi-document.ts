import { join } from 'node:path'
import { repoRoot } from '@quicklinks/runtime/env'
import { buildTestApp } from './build-test-app.ts'

/** Where the typed client (packages/client) reads the API's description from. */
export const clientOpenApiFile = join(repoRoot, 'packages/client/openapi.json')

/**
 * The OpenAPI document as GET /api/openapi.json serves it, with the one line that depends on the
 * instance (the server's public origin) replaced by a placeholder, so the checked-in copy is the
 * same on every machine. Its JSON text ends with a newline, like every file of the repo.
 */
export async function readOpenApiDocumentText(): Promise<string> {
  const testApp = await buildTestApp()
  try {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/openapi.json' })
    const document = response.json() as Record<string, unknown>
    document.servers = [{ url: 'https://your-instance.example' }]
    return `${JSON.stringify(document, null, 2)}\n`
  } finally {
    await testApp.close()
  }
}
