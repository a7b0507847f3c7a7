import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'wallet',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The integration test boots the real app server on PGlite (WebAssembly Postgres).
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
})
