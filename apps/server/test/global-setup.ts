import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { createMigratedSnapshot } from './pglite-template.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a migrated PGlite data directory; each test database boots from it. */
    pgliteSnapshotPath: string
  }
}

/** Once per run: migrate one PGlite and snapshot it for every test file. */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'ql-pglite-snapshot-'))
  const path = join(dir, 'migrated.tar')
  writeFileSync(path, await createMigratedSnapshot())
  project.provide('pgliteSnapshotPath', path)
  return () => rmSync(dir, { recursive: true, force: true })
}
