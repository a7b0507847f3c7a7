import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { repoRoot } from '@quicklinks/runtime/env'

/** Where the typed client (packages/client) reads the API's description from. */
export const clientOpenApiFile = join(repoRoot, 'packages/client/openapi.json')

/**
 * The served document as the checked-in file holds it: the one line that depends on the instance
 * (the server's public origin) replaced by a placeholder, so the checked-in copy is the same on
 * every machine; its JSON text ends with a newline, like every file of the repo.
 */
export function toCheckedInText(response: { json(): unknown }): string {
  const document = response.json() as Record<string, unknown>
  document.servers = [{ url: 'https://your-instance.example' }]
  return `${JSON.stringify(document, null, 2)}\n`
}

/**
 * The document as a server process that has just started serves it: read in a child process
 * (test/print-openapi-document.ts), since a Vitest worker that ran other files first shares their
 * module state, which a server never does.
 */
export async function readFreshOpenApiDocumentText(): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'print-openapi-document.ts')],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const chunks: Buffer[] = []
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  if (code !== 0) throw new Error(`test/print-openapi-document.ts exited with ${code}`)
  return Buffer.concat(chunks).toString('utf8')
}
