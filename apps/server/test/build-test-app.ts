import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { FastifyInstance } from 'fastify'
import { inject } from 'vitest'
import { type AppDependencies, buildApp } from '../src/app.ts'
import { createLogger } from '../src/create-logger.ts'
import { createPgliteDatabaseClient, type DatabaseClient } from '../src/db/create-database-client.ts'
import type { ServerConfig } from '../src/env.ts'
import { getPgliteRuntime } from './pglite-template.ts'

export type TestApp = {
  app: FastifyInstance
  database: DatabaseClient
  /** Every JSON log line the app wrote, parsed. */
  logs: Record<string, unknown>[]
  /** Closes the app, then the database. */
  close(): Promise<void>
}

/** The signer master key of test apps (32 bytes, hex); never used outside tests. */
export const testSignerMasterKey = '5e'.repeat(32)

/** A config for tests: a throw-away data dir, no web build, dev mode off, an unused port. */
export function createTestConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  const dataDir = mkdtempSync(join(tmpdir(), 'ql-server-test-'))
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: undefined,
    devMode: false,
    devnetDeploymentFile: join(dataDir, 'devnet', 'deployment.json'),
    publicOrigin: 'http://localhost:3999',
    webDistDir: join(dataDir, 'no-web-build'),
    logLevel: 'info',
    trustProxy: false,
    rateLimitMax: 1000,
    redisUrl: undefined,
    metricsToken: undefined,
    framesPort: 0,
    signerPort: 0,
    framesOrigin: 'http://localhost:3998',
    // One key for every test app: apps that share a database must share the signer's master key.
    signerMasterKey: testSignerMasterKey,
    signerSessionSeconds: 900,
    signerCodeSendCaps: { perContactPerDay: 10, perPhonePrefixPerDay: 300 },
    smtpUrl: undefined,
    smtpPort: 0,
    mailFrom: 'Quick Links <no-reply@quicklinks.local>',
    sms: { provider: 'none' },
    routingProvider: 'local',
    squidApiUrl: 'http://127.0.0.1:9',
    squidIntegratorId: undefined,
    rpcUrls: {},
    relayerPrivateKey: undefined,
    // Workers stay idle in tests unless a test turns them on with a shorter interval.
    workerIntervalMs: 1000,
    confirmations: {},
    defaultConfirmations: 0,
    ...overrides,
  }
}

let snapshot: Blob | undefined

/**
 * Opens a fresh in-memory PGlite with every migration applied: booted from the snapshot the
 * global setup migrated (see global-setup.ts), so nothing is shared between databases.
 */
export async function createTestDatabase(): Promise<DatabaseClient> {
  snapshot ??= new Blob([readFileSync(inject('pgliteSnapshotPath'))])
  const pglite = new PGlite({ loadDataDir: snapshot, ...(await getPgliteRuntime()) })
  await pglite.waitReady
  return createPgliteDatabaseClient(pglite)
}

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
