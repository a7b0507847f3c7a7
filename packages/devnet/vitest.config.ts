import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'devnet',
    include: ['src/**/*.test.ts'],
    // The devnet imports the generated contract modules; build them first (a no-op when cached).
    globalSetup: ['./test/build-contracts-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
