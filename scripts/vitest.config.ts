import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'scripts',
    include: ['*.test.ts'],
    // Each test starts the whole local stack (devnet deploy, app server) once or twice.
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
})
