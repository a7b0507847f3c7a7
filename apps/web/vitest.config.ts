import react from '@vitejs/plugin-react'
import { defineProject } from 'vitest/config'

export default defineProject({
  plugins: [react()],
  define: { __APP_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./test/setup.ts'],
    // Relative requests must never reach the main stack on :3000 (happy-dom's default origin).
    environmentOptions: { happyDOM: { url: 'http://localhost:5199/' } },
    // Room for a slow machine (the suite runs beside the Playwright stack on two cores); a test
    // that waits for the wrong thing still fails, on its own findBy/waitFor time-out.
    testTimeout: 20_000,
    // No retries: a test waits for the event it checks (fake timers, findBy…, waitFor), so a
    // failure is a failure, on CI as anywhere.
  },
})
