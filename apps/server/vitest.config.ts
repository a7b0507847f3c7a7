import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts', 'test/devnet-template-setup.ts'],
    // PGlite boots a WebAssembly Postgres per test app; the real-Postgres test runs initdb.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // isolate: false: one module cache per worker for all the project's files (no vi.mock here; the
    // few fake timers and stubbed globals are restored by their files), so viem and the app graph load
    // once per run instead of once per file (CPU measured in docs/decisions/0033-test-suite-cpu.md).
    isolate: false,
  },
})
