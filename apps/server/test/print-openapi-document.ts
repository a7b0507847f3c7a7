import { createDatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { buildApp } from '../src/app.ts'
import { migrate } from '../src/db/migrate.ts'
import { createTestConfig } from './create-test-config.ts'
import { toCheckedInText } from './openapi-document.ts'

// Prints GET /api/openapi.json of a freshly started app (an in-memory, migrated PGlite, no workers) as the
// checked-in packages/client/openapi.json holds it: openapi-client-sync.test.ts compares the two.

const database = await createDatabaseClient({ kind: 'pglite' })
await migrate(database)
const app = await buildApp(createTestConfig({ logLevel: 'silent' }), { database })
try {
  process.stdout.write(toCheckedInText(await app.inject({ method: 'GET', url: '/api/openapi.json' })))
} finally {
  await app.close()
  await database.close()
}
