import { createTestHostConfig, testSignerMasterKey } from '@quicklinks/runtime/test/create-test-config'
import { type SignerProcessConfig, signerEnvSchema } from '../src/config/signer-env.ts'

/**
 * A standalone signer's config for tests: the host's test config, and the signer's section as the
 * environment leaves it (its documented defaults) with the test master key, unused ports and the
 * frames origin the tests expect.
 */
export function createSignerTestConfig(overrides: Partial<SignerProcessConfig> = {}): SignerProcessConfig {
  return {
    ...createTestHostConfig(),
    ...signerEnvSchema.parse({ SIGNER_MASTER_KEY: testSignerMasterKey }),
    framesPort: 0,
    signerPort: 0,
    framesOrigin: 'http://localhost:3998',
    ...overrides,
  }
}
