import { describe, expect, it } from 'vitest'
import { parseServerEnv } from './server-env.ts'

// The app server parses every section it owns (the host's, the signer's, its own); these tests
// read the variables through parseServerEnv, as src/main.ts does.
// Outside dev mode the master key is required; these tests are about other variables.
const masterKey = '5e'.repeat(32)
const deployed = { SIGNER_MASTER_KEY: masterKey }

describe('the smart-accounts section', () => {
  it('reads BUNDLER_URL_<chainId> and the per-chain smart-account contract addresses', () => {
    const factory = '0x1111111111111111111111111111111111111111'
    const paymaster = '0x2222222222222222222222222222222222222222'
    const config = parseServerEnv({
      ...deployed,
      BUNDLER_URL_8453: 'https://bundler.example/base',
      SMART_ACCOUNT_FACTORY_8453: factory,
      PAYMASTER_ADDRESS_8453: paymaster,
      SIMPLE_7702_ACCOUNT_10: factory,
    })
    expect(config.bundlerUrls).toEqual({ 8453: 'https://bundler.example/base' })
    expect(config.smartAccountContracts).toEqual({
      8453: { accountFactory: factory, paymaster },
      10: { simple7702Account: factory },
    })
    expect(() => parseServerEnv({ ...deployed, BUNDLER_URL_1: 'ws://bundler' })).toThrow(
      /BUNDLER_URL_1: must be an http\(s\) URL/,
    )
    expect(() => parseServerEnv({ ...deployed, MULTI_OWNER_ACCOUNT_FACTORY_1: '0x12' })).toThrow(
      /MULTI_OWNER_ACCOUNT_FACTORY_1: must be a 20-byte hex address/,
    )
  })

  it('reads SPONSOR_POLICIES, defaults to the devnet policy in dev mode, and checks SPONSOR_DEFAULT_POLICY', () => {
    expect(parseServerEnv(deployed).sponsorPolicies).toEqual([])
    const dev = parseServerEnv({ DEV_MODE: 'true' })
    expect(dev.sponsorPolicies.map((policy) => policy.id)).toEqual(['devnet-wallet'])
    expect(dev.sponsorDefaultPolicyId).toBe('devnet-wallet')
    const policies = JSON.stringify([
      {
        id: 'wallet',
        chainIds: [8453],
        accounts: 'embedded',
        tokens: ['USDC', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'],
        dailyGasCapWei: '1000000000000000',
        globalDailyGasCapWei: '100000000000000000',
      },
      {
        id: 'router',
        accounts: 'embedded',
        contracts: ['0x1111111111111111111111111111111111111111'],
        dailyGasCapWei: '1',
        globalDailyGasCapWei: '1',
      },
    ])
    const config = parseServerEnv({
      ...deployed,
      SPONSOR_POLICIES: policies,
      SPONSOR_DEFAULT_POLICY: 'router',
    })
    expect(config.sponsorPolicies).toEqual([
      {
        id: 'wallet',
        chainIds: [8453],
        accounts: 'embedded',
        tokens: ['USDC', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'],
        contracts: [],
        dailyGasCapWei: 1_000_000_000_000_000n,
        globalDailyGasCapWei: 100_000_000_000_000_000n,
      },
      {
        id: 'router',
        accounts: 'embedded',
        tokens: [],
        contracts: ['0x1111111111111111111111111111111111111111'],
        dailyGasCapWei: 1n,
        globalDailyGasCapWei: 1n,
      },
    ])
    expect(config.sponsorDefaultPolicyId).toBe('router')
    expect(parseServerEnv({ ...deployed, SPONSOR_POLICIES: policies }).sponsorDefaultPolicyId).toBe('wallet')
    expect(() =>
      parseServerEnv({ ...deployed, SPONSOR_POLICIES: policies, SPONSOR_DEFAULT_POLICY: 'other' }),
    ).toThrow(/SPONSOR_DEFAULT_POLICY: "other" is not the id of a policy/)
    expect(() =>
      parseServerEnv({
        ...deployed,
        SPONSOR_POLICIES: '[{"id":"x","accounts":"anyone","dailyGasCapWei":"1"}]',
      }),
    ).toThrow(/SPONSOR_POLICIES: \[0\]\.accounts: must be "embedded"/)
    expect(() =>
      parseServerEnv({
        ...deployed,
        SPONSOR_POLICIES: '[{"id":"x","accounts":"embedded","dailyGasCapWei":1}]',
      }),
    ).toThrow(/\[0\]\.dailyGasCapWei: must be a whole number of wei, as a string/)
    // Every policy has a budget for all its users together, never below one user's.
    expect(() =>
      parseServerEnv({
        ...deployed,
        SPONSOR_POLICIES: '[{"id":"x","accounts":"embedded","dailyGasCapWei":"10"}]',
      }),
    ).toThrow(/\[0\]\.globalDailyGasCapWei: must be a whole number of wei, as a string/)
    expect(() =>
      parseServerEnv({
        ...deployed,
        SPONSOR_POLICIES:
          '[{"id":"x","accounts":"embedded","dailyGasCapWei":"10","globalDailyGasCapWei":"9"}]',
      }),
    ).toThrow(/\[0\]\.globalDailyGasCapWei: globalDailyGasCapWei \(all users together\) must be at least/)
    expect(() => parseServerEnv({ ...deployed, PAYMASTER_SIGNER_KEY: '0x12' })).toThrow(
      /PAYMASTER_SIGNER_KEY: must be/,
    )
  })

  it('PRODUCTION=true needs PAYMASTER_SIGNER_KEY with policies, and each bundler chain its contracts', () => {
    const production = {
      ...deployed,
      PRODUCTION: 'true',
      DATABASE_URL: 'postgres://app@db:5432/quicklinks',
      REDIS_URL: 'redis://redis.internal:6379',
      PUBLIC_ORIGIN: 'https://pay.example.com',
      FRAMES_ORIGIN: 'https://frames.example.com',
      SMTP_URL: 'smtps://mailer:secret@smtp.example.com',
      RPC_URL_8453: 'https://base.example/rpc',
      ROUTING_PROVIDER: 'squid',
      SQUID_INTEGRATOR_ID: 'quick-links',
      BUNDLER_URL_8453: 'https://bundler.example/base',
      SPONSOR_POLICIES:
        '[{"id":"wallet","accounts":"embedded","tokens":["USDC"],"dailyGasCapWei":"1000","globalDailyGasCapWei":"100000"}]',
    }
    let message = ''
    try {
      parseServerEnv(production)
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain('  PAYMASTER_SIGNER_KEY: required in production when SPONSOR_POLICIES is set')
    expect(message).toContain(
      '  BUNDLER_URL_8453: smart accounts on chain 8453 also need SMART_ACCOUNT_FACTORY_8453, MULTI_OWNER_ACCOUNT_FACTORY_8453, SIMPLE_7702_ACCOUNT_8453, PAYMASTER_ADDRESS_8453',
    )
    const address = '0x1111111111111111111111111111111111111111'
    const complete = parseServerEnv({
      ...production,
      PAYMASTER_SIGNER_KEY: `0x${'ab'.repeat(32)}`,
      SMART_ACCOUNT_FACTORY_8453: address,
      MULTI_OWNER_ACCOUNT_FACTORY_8453: address,
      SIMPLE_7702_ACCOUNT_8453: address,
      PAYMASTER_ADDRESS_8453: address,
    })
    expect(complete.sponsorDefaultPolicyId).toBe('wallet')
  })
})
