import { createLogger } from '@quicklinks/runtime/create-logger'
import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { createTestDatabase } from '@quicklinks/runtime/test/pglite-template'
import type { FastifyInstance } from 'fastify'
import { type AppDependencies, buildApp } from '../src/app.ts'
import type { ServerConfig } from '../src/config/server-env.ts'
import { createTestConfig } from './create-test-config.ts'

export type TestApp = {
  app: FastifyInstance
  database: DatabaseClient
  /** Every JSON log line the app wrote, parsed. */
  logs: Record<string, unknown>[]
  /** Closes the app, then the database. */
  close(): Promise<void>
}

// The config and database every test app starts from, shared with the signer's tests.
export { testSignerMasterKey } from '@quicklinks/runtime/test/create-test-config'
export { createTestDatabase } from '@quicklinks/runtime/test/pglite-template'
export { createTestConfig } from './create-test-config.ts'

/**
 * Builds the real app on a fresh in-memory PGlite (or the given database), capturing its logs.
 */
export async function buildTestApp(
  overrides: Partial<ServerConfig> = {},
  dependencies: Omit<AppDependencies, 'logger'> = {},
): Promise<TestApp> {
  const config = createTestConfig(overrides)
  const database = dependencies.database ?? (await createTestDatabase())
  const logs: Record<string, unknown>[] = []
  const logger = createLogger(config.logLevel, {
    write: (line: string) => {
      logs.push(JSON.parse(line) as Record<string, unknown>)
    },
  })
  const app = await buildApp(config, { ...dependencies, database, logger })
  return {
    app,
    database,
    logs,
    close: async () => {
      await app.close()
      await database.close()
    },
  }
}

/** Reads one cookie from an inject() response's Set-Cookie headers. */
export function getSetCookie(
  response: { cookies: { name: string; value: string; [attribute: string]: unknown }[] },
  name: string,
): { name: string; value: string; [attribute: string]: unknown } | undefined {
  return response.cookies.find((cookie) => cookie.name === name)
}
