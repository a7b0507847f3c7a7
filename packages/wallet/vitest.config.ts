import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'wallet',
    // The SDK against the real signer is tested in apps/signer (test/wallet-sdk-integration.test.ts):
    // a package depends on no app.
    include: ['src/**/*.test.ts'],
  },
})
