import { defineConfig, devices } from '@playwright/test'
import { squidStack } from './squid-stack-settings.ts'

/**
 * End-to-end suite against the real stack: the same `npm start` a newcomer runs, on its own
 * ports and data folder so it never collides with a developer's running stack.
 */
const port = Number(process.env.E2E_PORT ?? 3100)
const baseURL = `http://localhost:${port}`
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const dataDir = process.env.E2E_DATA_DIR ?? '.data/e2e'

export default defineConfig({
  testDir: './specs',
  outputDir: './.artifacts/test-results',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json']],
  use: {
    baseURL,
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-gpu',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: [
    {
      command: 'node scripts/start.mjs',
      cwd: '..',
      url: `${baseURL}/health`,
      timeout: 240_000,
      reuseExistingServer: !process.env.CI,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        FRAMES_PORT: String(port + 1),
        SMTP_PORT: process.env.E2E_SMTP_PORT ?? '2625',
        DEVNET_BASE_PORT: process.env.E2E_DEVNET_BASE_PORT ?? '8645',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // Every browser of the suite is one client (127.0.0.1): the per-client code limits would
        // count all their sign-ins together (the limits themselves are tested in the signer's suite).
        SIGNER_SENDS_PER_IP_PER_MINUTE: '1000',
        SIGNER_CODE_CHECKS_PER_IP_PER_MINUTE: '1000',
      },
    },
    {
      // A second app server with ROUTING_PROVIDER=squid against the Squid stand-in, on the first
      // stack's devnet (web servers start in order, so that devnet is up). See start-squid-stack.ts.
      command: 'node --import tsx e2e/start-squid-stack.ts',
      cwd: '..',
      url: `${squidStack.baseURL}/health`,
      timeout: 120_000,
      reuseExistingServer: !process.env.CI,
      stdout: 'pipe',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
      env: { DEVNET_DEPLOYMENT_FILE: `${dataDir}/devnet/deployment.json`, LOG_LEVEL: 'warn' },
    },
  ],
})
