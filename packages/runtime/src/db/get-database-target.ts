import { join } from 'node:path'
import type { HostConfig } from '../env.ts'
import type { DatabaseTarget } from './create-database-client.ts'

/** Postgres when DATABASE_URL is set, else PGlite persisted in `${DATA_DIR}/pg`. */
export function getDatabaseTarget(config: Pick<HostConfig, 'databaseUrl' | 'dataDir'>): DatabaseTarget {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: join(config.dataDir, 'pg') }
}
