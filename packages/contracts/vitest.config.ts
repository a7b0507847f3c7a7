import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'contracts',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Contract tests import the generated modules; build them first (a no-op when cached).
    globalSetup: ['./test/build-contracts-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
