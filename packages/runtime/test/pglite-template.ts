import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { PGlite, type PGliteOptions } from '@electric-sql/pglite'
import { inject } from 'vitest'
import type { TestProject } from 'vitest/node'
import { createPgliteDatabaseClient, type DatabaseClient } from '../src/db/create-database-client.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a migrated PGlite data directory; each test database boots from it. */
    pgliteSnapshotPath: string
  }
}

/** Applies a process's migrations: the app server's `migrate`, or the signer's. */
type Migrate = (client: DatabaseClient) => Promise<void>

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

/** Boots a blank in-memory PGlite, applies `migrate` and returns its data directory as a tarball. */
export async function createMigratedSnapshot(migrate: Migrate): Promise<Uint8Array> {
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

/**
 * A Vitest global setup: once per run, migrate one PGlite with `migrate` and snapshot it for every
 * test file (`createTestDatabase` boots from it).
 */
export function createPgliteSnapshotSetup(migrate: Migrate): (project: TestProject) => Promise<() => void> {
  return async (project) => {
    const dir = mkdtempSync(join(tmpdir(), 'ql-pglite-snapshot-'))
    const path = join(dir, 'migrated.tar')
    writeFileSync(path, await createMigratedSnapshot(migrate))
    project.provide('pgliteSnapshotPath', path)
    return () => rmSync(dir, { recursive: true, force: true })
  }
}

let snapshot: Blob | undefined

/**
 * Opens a fresh in-memory PGlite with every migration applied: booted from the snapshot the
 * project's global setup migrated (`createPgliteSnapshotSetup`), so nothing is shared between databases.
 */
export async function createTestDatabase(): Promise<DatabaseClient> {
  snapshot ??= new Blob([readFileSync(inject('pgliteSnapshotPath'))])
  const pglite = new PGlite({ loadDataDir: snapshot, ...(await getPgliteRuntime()) })
  await pglite.waitReady
  return createPgliteDatabaseClient(pglite)
}
