import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts', 'test/devnet-template-setup.ts'],
    // PGlite boots a WebAssembly Postgres per test app; the real-Postgres test runs initdb.
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
})
