import { defineProject } from 'vitest/config'

// isolate: false shares the module cache between test files in a worker: these tests are pure (no
// mocks, no globals), and importing viem, @hpke/core and the Turnkey references once instead of per
// file cuts the run from ~20 s to ~5 s on a busy two-core machine.
// The route tests boot each app's PGlite from the snapshot test/global-setup.ts migrates (the signer's set).
export default defineProject({
  test: {
    name: 'signer',
    include: ['src/**/*.test.ts', 'frames/src/**/*.test.ts', 'test/**/*.test.ts'],
    isolate: false,
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
})
