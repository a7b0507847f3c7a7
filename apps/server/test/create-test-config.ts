import { join } from 'node:path'
import { createSignerTestConfig } from '../../signer/test/create-signer-test-config.ts'
import { routingEnvSchema } from '../src/config/routing-env.ts'
import { type ServerConfig, serverEnvSchema } from '../src/config/server-env.ts'
import { smartAccountsEnvSchema } from '../src/config/smart-accounts-env.ts'
import { solanaEnvSchema } from '../src/config/solana-env.ts'

/**
 * An app server's config for tests: the standalone signer's test config (a throw-away data dir,
 * dev mode off, unused ports, the test master key) and the server's sections as the environment
 * leaves them (their documented defaults), with no web build, a Squid API that cannot answer and
 * payments final at once.
 */
export function createTestConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  const signer = createSignerTestConfig()
  return {
    ...signer,
    ...serverEnvSchema.parse({}),
    ...routingEnvSchema.parse({ DATA_DIR: signer.dataDir }),
    ...smartAccountsEnvSchema.parse({}),
    ...solanaEnvSchema.parse({}),
    webDistDir: join(signer.dataDir, 'no-web-build'),
    squidApiUrl: 'http://127.0.0.1:9',
    // Workers stay idle in tests unless a test turns them on with a shorter interval.
    workerIntervalMs: 1000,
    defaultConfirmations: 0,
    ...overrides,
  }
}
