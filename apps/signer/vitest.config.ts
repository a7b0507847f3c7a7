import { defineProject } from 'vitest/config'

export default defineProject({ test: { name: 'signer', include: ['src/**/*.test.ts'] } })
