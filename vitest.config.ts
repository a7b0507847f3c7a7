import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

// One Vitest run for every workspace; each project keeps its own environment and setup.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'scripts'],
    // Vitest's default is one worker fewer than the cores: a single worker on the 2-core CI machine,
    // where a test file spends much of its time waiting on anvil, PGlite, a child app or a socket and
    // the second core sat mostly idle. At least two workers; the default above that.
    // (docs/decisions/0035-test-suite-cpu.md)
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
})
