import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ServerConfig } from '../src/env.ts'

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
    jwtProviders: [],
    oauthProviders: [],
    smtpUrl: undefined,
    smtpPort: 0,
    mailFrom: 'Quick Links <no-reply@quicklinks.local>',
    sms: { provider: 'none' },
    routingProvider: 'local',
    squidApiUrl: 'http://127.0.0.1:9',
    squidIntegratorId: undefined,
    walletConnectProjectId: undefined,
    rpcUrls: {},
    relayerPrivateKey: undefined,
    // Workers stay idle in tests unless a test turns them on with a shorter interval.
    workerIntervalMs: 1000,
    confirmations: {},
    defaultConfirmations: 0,
    bundlerUrls: {},
    smartAccountContracts: {},
    paymasterSignerKey: undefined,
    sponsorPolicies: [],
    sponsorDefaultPolicyId: null,
    ...overrides,
  }
}
