import { defineProject } from 'vitest/config'

// The real-Postgres test runs initdb.
export default defineProject({
  test: { name: 'runtime', include: ['src/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 120_000 },
})
