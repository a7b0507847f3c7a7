import { describe, expect, it } from 'vitest'
import { createGuardedLookup, isForbiddenAddress } from './webhook-address-guard.ts'

describe('isForbiddenAddress', () => {
  it('refuses loopback, private, link-local, metadata, CGNAT, unspecified and mapped forms', () => {
    for (const address of [
      '127.0.0.1',
      '127.9.9.9',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      'not an ip',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true)
    }
  })

  it('lets public addresses through', () => {
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isForbiddenAddress(address), address).toBe(false)
    }
  })
})

describe('createGuardedLookup', () => {
  const resolve = (hostname: string, isAllowingPrivate: boolean) =>
    new Promise<{ error: Error | null; address: string }>((done) => {
      createGuardedLookup(isAllowingPrivate)(hostname, {}, (error, address) =>
        done({ error, address: String(address) }),
      )
    })

  it('refuses a name that resolves to loopback, outside dev mode', async () => {
    const refused = await resolve('localhost', false)
    expect(refused.error?.message).toMatch(/localhost resolves to .* which webhooks may not reach/)
    const allowed = await resolve('localhost', true)
    expect(allowed.error).toBeNull()
    expect(['127.0.0.1', '::1']).toContain(allowed.address)
  })

  it('refuses IP literals in forbidden ranges', async () => {
    for (const host of ['127.0.0.1', '10.0.0.1', '169.254.169.254']) {
      expect((await resolve(host, false)).error?.name, host).toBe('ForbiddenWebhookAddressError')
    }
  })
})
