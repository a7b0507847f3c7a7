import { describe, expect, it } from 'vitest'
import { getConfirmations } from './routing-env.ts'
import { parseServerEnv } from './server-env.ts'

// The app server parses every section it owns (the host's, the signer's, its own); these tests
// read the variables through parseServerEnv, as src/main.ts does.
// Outside dev mode the master key is required; these tests are about other variables.
const masterKey = '5e'.repeat(32)
const deployed = { SIGNER_MASTER_KEY: masterKey }

describe('the routing section', () => {
  it('reads a confirmation depth per chain: CONFIRMATIONS_<chainId>, else CONFIRMATIONS_DEFAULT, else 0 in dev mode and 2 otherwise', () => {
    const config = parseServerEnv({ ...deployed, CONFIRMATIONS_8453: '5', CONFIRMATIONS_42161: '0' })
    expect(config.confirmations).toEqual({ 8453: 5, 42161: 0 })
    expect(getConfirmations(config, 8453)).toBe(5)
    expect(getConfirmations(config, 42161)).toBe(0)
    expect(getConfirmations(config, 43114)).toBe(2)
    expect(getConfirmations(parseServerEnv({ DEV_MODE: 'true' }), 43114)).toBe(0)
    expect(getConfirmations(parseServerEnv({ DEV_MODE: 'true', CONFIRMATIONS_DEFAULT: '3' }), 1)).toBe(3)
    expect(() => parseServerEnv({ ...deployed, CONFIRMATIONS_1: 'two' })).toThrow(
      /CONFIRMATIONS_1: must be a whole number of blocks, 0 to 1000/,
    )
  })

  it('reads RPC_URL_<chainId> variables and needs SQUID_INTEGRATOR_ID for the squid provider', () => {
    const config = parseServerEnv({
      ...deployed,
      RPC_URL_8453: 'https://base.example/rpc',
      RPC_URL_42161: 'http://127.0.0.1:8547',
    })
    expect(config.rpcUrls).toEqual({ 8453: 'https://base.example/rpc', 42161: 'http://127.0.0.1:8547' })
    expect(() => parseServerEnv({ ...deployed, RPC_URL_1: 'ftp://nope' })).toThrow(
      /RPC_URL_1: must be an http\(s\) URL/,
    )
    expect(() => parseServerEnv({ ...deployed, ROUTING_PROVIDER: 'squid' })).toThrow(/SQUID_INTEGRATOR_ID/)
    expect(
      parseServerEnv({ ...deployed, ROUTING_PROVIDER: 'squid', SQUID_INTEGRATOR_ID: 'acme-1' })
        .squidIntegratorId,
    ).toBe('acme-1')
  })
})
