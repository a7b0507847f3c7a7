import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { PGlite, type PGliteOptions } from '@electric-sql/pglite'
import { createPgliteDatabaseClient } from '../src/db/create-database-client.ts'
import { migrate } from '../src/db/migrate.ts'

// PGlite's first boot runs initdb in WebAssembly (seconds on a busy machine). Tests instead boot
// each fresh database from a migrated snapshot and reuse one compiled module (well under a second).
const pgliteDist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'))

// The ES2023 lib has WebAssembly's types but not its runtime object; Node has both.
const wasm = (
  globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } }
).WebAssembly

let compiled: Promise<Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>> | undefined

/** The compiled PGlite module and file-system bundle, shared by every PGlite in this worker. */
export function getPgliteRuntime(): Promise<Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>> {
  compiled ??= (async () => {
    const wasmPath = join(pgliteDist, 'pglite.wasm')
    const dataPath = join(pgliteDist, 'pglite.data')
    // Unknown layout (another PGlite version): let PGlite load its files itself.
    if (!existsSync(wasmPath) || !existsSync(dataPath)) return {}
    return {
      pgliteWasmModule: await wasm.compile(readFileSync(wasmPath)),
      fsBundle: new Blob([readFileSync(dataPath)]),
    }
  })()
  return compiled
}

/** Boots a blank in-memory PGlite, applies every migration and returns its data directory as a tarball. */
export async function createMigratedSnapshot(): Promise<Uint8Array> {
  const pglite = new PGlite({ ...(await getPgliteRuntime()) })
  await pglite.waitReady
  const client = createPgliteDatabaseClient(pglite)
  try {
    await migrate(client)
    const dump = await pglite.dumpDataDir('none')
    return new Uint8Array(await dump.arrayBuffer())
  } finally {
    await client.close()
  }
}
