import { createPgliteSnapshotSetup } from '@quicklinks/runtime/test/pglite-template'
import { migrateSignerDatabase } from '../src/db/migrate-signer-database.ts'

/** Once per run: migrate one PGlite with the signer's own set and snapshot it for every route test's app. */
export default createPgliteSnapshotSetup(migrateSignerDatabase)
