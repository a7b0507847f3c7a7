import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { HostConfig } from '../src/env.ts'
import { defaultHttpTimeouts } from '../src/http-timeouts.ts'

/** The signer master key of test apps (32 bytes, hex); never used outside tests. */
export const testSignerMasterKey = '5e'.repeat(32)

/**
 * The host's part of a test app's config: a throw-away data dir, dev mode off, an unused port.
 * Each app's test kit adds its own sections (apps/signer/test, apps/server/test).
 */
export function createTestHostConfig(overrides: Partial<HostConfig> = {}): HostConfig {
  const dataDir = mkdtempSync(join(tmpdir(), 'ql-server-test-'))
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: undefined,
    devMode: false,
    production: false,
    publicOrigin: 'http://localhost:3999',
    logLevel: 'info',
    trustProxy: false,
    rateLimitMax: 1000,
    redisUrl: undefined,
    httpTimeouts: defaultHttpTimeouts,
    smtpUrl: undefined,
    smtpPort: 0,
    mailFrom: 'Quick Links <no-reply@quicklinks.local>',
    sms: { provider: 'none' },
    ...overrides,
  }
}
