// `npm run db:migrate -w apps/server`: applies pending migrations to the configured database
// (DATABASE_URL, else PGlite in $DATA_DIR/pg) and exits. The server also migrates at start.

import { createDatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { getDatabaseTarget } from '@quicklinks/runtime/db/get-database-target'
import { parseServerEnv } from '../config/server-env.ts'
import { migrate } from './migrate.ts'

const config = (() => {
  try {
    return parseServerEnv()
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    process.exit(1)
  }
})()
const target = getDatabaseTarget(config)
const client = await createDatabaseClient(target)
try {
  await migrate(client)
  console.log(
    `Migrations applied (${target.kind === 'postgres' ? 'Postgres' : `PGlite in ${target.dataDir}`})`,
  )
} catch (error) {
  console.error('Migration failed:', error)
  process.exitCode = 1
} finally {
  await client.close()
}
