import { defineConfig } from 'vitest/config'

// One Vitest run for every workspace; each project keeps its own environment and setup.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'scripts'],
  },
})
