import { createDatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { buildApp } from '../src/app.ts'
import { createTestConfig } from './create-test-config.ts'

// The real app with its workers, as one instance of a deployment on the Postgres at DATABASE_URL
// (already migrated), in dev mode so that a receiver on loopback may be reached. Prints "ready"
// once its workers run; a test SIGKILLs it or starts several (webhook-outbox-durability.test.ts).
// WORKER_CLOCK_OFFSET_MS sets its workers' clock that far ahead: an instance restarted after a kill
// finds the dead one's leases run out without the test waiting them out.

const url = process.env.DATABASE_URL
if (url === undefined) throw new Error('DATABASE_URL is required')
const database = await createDatabaseClient({ kind: 'postgres', url })
const clockOffsetMs = Number(process.env.WORKER_CLOCK_OFFSET_MS ?? 0)
const app = await buildApp(createTestConfig({ devMode: true, workerIntervalMs: 250, logLevel: 'warn' }), {
  database,
  startWorkers: true,
  ...(clockOffsetMs === 0 ? {} : { workerNow: () => Date.now() + clockOffsetMs }),
})
await app.ready()
process.stdout.write('ready\n')
