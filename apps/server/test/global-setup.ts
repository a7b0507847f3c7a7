import { createPgliteSnapshotSetup } from '@quicklinks/runtime/test/pglite-template'
import { migrate } from '../src/db/migrate.ts'

/** Once per run: migrate one PGlite (the app server's and the signer's sets) and snapshot it for every test file. */
export default createPgliteSnapshotSetup(migrate)
