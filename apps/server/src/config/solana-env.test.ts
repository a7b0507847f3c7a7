import { describe, expect, it } from 'vitest'
import { parseServerEnv } from './server-env.ts'

// The app server parses every section it owns (the host's, the signer's, its own); these tests
// read the variables through parseServerEnv, as src/main.ts does.
// Outside dev mode the master key is required; these tests are about other variables.
const masterKey = '5e'.repeat(32)
const deployed = { SIGNER_MASTER_KEY: masterKey }

/** Base58 (Bitcoin's alphabet), for building SOLANA_SPONSOR_KEY values. */
function encodeBase58(bytes: Uint8Array): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
  let number = BigInt(`0x${Buffer.from(bytes).toString('hex')}`)
  let text = ''
  while (number > 0n) {
    text = alphabet[Number(number % 58n)] + text
    number /= 58n
  }
  const leadingZeros = bytes.findIndex((byte) => byte !== 0)
  return '1'.repeat(leadingZeros < 0 ? bytes.length : leadingZeros) + text
}

describe('the Solana section', () => {
  it('reads the Solana settings: LiteSVM in dev mode without SOLANA_RPC_URL, the devnet-solana policy by default, SOLANA_SPONSOR_KEY checked', () => {
    const dev = parseServerEnv({ DEV_MODE: 'true' })
    expect(dev.solanaDevnet).toBe(true)
    expect(dev.solanaRpcUrl).toBeUndefined()
    expect(dev.solanaSponsorDefaultPolicyId).toBe('devnet-solana')
    expect(dev.solanaSponsorPolicies).toEqual([
      {
        id: 'devnet-solana',
        programs: [
          '11111111111111111111111111111111',
          'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
          'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
          'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
          'ComputeBudget111111111111111111111111111111',
        ],
        maxFeeLamports: 50_000n,
        dailyFeeCapLamports: 10_000_000n,
        globalDailyFeeCapLamports: 1_000_000_000n,
      },
    ])
    expect(parseServerEnv({ DEV_MODE: 'true', SOLANA_RPC_URL: 'http://127.0.0.1:8899' }).solanaDevnet).toBe(
      false,
    )
    const policies = JSON.stringify([
      {
        id: 'transfers',
        programs: ['11111111111111111111111111111111'],
        maxFeeLamports: 10000,
        dailyFeeCapLamports: '500000',
        globalDailyFeeCapLamports: '50000000',
      },
      {
        id: 'other',
        programs: ['ComputeBudget111111111111111111111111111111'],
        maxFeeLamports: '5000',
        dailyFeeCapLamports: 5000,
        globalDailyFeeCapLamports: 5000,
      },
    ])
    // A 64-byte key: 64 bytes of 0x01 in base58.
    const key = encodeBase58(new Uint8Array(64).fill(1))
    const config = parseServerEnv({
      ...deployed,
      SOLANA_RPC_URL: 'https://solana.example/rpc',
      SOLANA_SPONSOR_KEY: key,
      SOLANA_SPONSOR_POLICIES: policies,
      SOLANA_SPONSOR_DEFAULT_POLICY: 'other',
    })
    expect(config).toMatchObject({
      solanaRpcUrl: 'https://solana.example/rpc',
      solanaDevnet: false,
      solanaSponsorKey: key,
      solanaSponsorDefaultPolicyId: 'other',
      solanaSponsorPolicies: [
        {
          id: 'transfers',
          programs: ['11111111111111111111111111111111'],
          maxFeeLamports: 10_000n,
          dailyFeeCapLamports: 500_000n,
          globalDailyFeeCapLamports: 50_000_000n,
        },
        {
          id: 'other',
          programs: ['ComputeBudget111111111111111111111111111111'],
          maxFeeLamports: 5_000n,
          dailyFeeCapLamports: 5_000n,
          globalDailyFeeCapLamports: 5_000n,
        },
      ],
    })
    expect(
      parseServerEnv({ ...deployed, SOLANA_SPONSOR_POLICIES: policies }).solanaSponsorDefaultPolicyId,
    ).toBe('transfers')
    expect(() =>
      parseServerEnv({
        ...deployed,
        SOLANA_SPONSOR_POLICIES: policies,
        SOLANA_SPONSOR_DEFAULT_POLICY: 'nope',
      }),
    ).toThrow(/SOLANA_SPONSOR_DEFAULT_POLICY: "nope" is not the id of a policy in SOLANA_SPONSOR_POLICIES/)
    expect(() =>
      parseServerEnv({
        ...deployed,
        SOLANA_SPONSOR_POLICIES:
          '[{"id":"x","programs":["0xabc"],"maxFeeLamports":1,"dailyFeeCapLamports":1,"globalDailyFeeCapLamports":1}]',
      }),
    ).toThrow(
      /SOLANA_SPONSOR_POLICIES: \[0\]\.programs\.\[0\]: must be a base58 program id|SOLANA_SPONSOR_POLICIES: \[0\]\.programs\[0\]: must be a base58 program id/,
    )
    expect(() =>
      parseServerEnv({
        ...deployed,
        SOLANA_SPONSOR_POLICIES:
          '[{"id":"x","programs":["11111111111111111111111111111111"],"maxFeeLamports":-1,"dailyFeeCapLamports":1,"globalDailyFeeCapLamports":1}]',
      }),
    ).toThrow(/\[0\]\.maxFeeLamports: must be a whole number of lamports/)
    // Every policy names what all users together may be granted a day.
    expect(() =>
      parseServerEnv({
        ...deployed,
        SOLANA_SPONSOR_POLICIES:
          '[{"id":"x","programs":["11111111111111111111111111111111"],"maxFeeLamports":1,"dailyFeeCapLamports":1}]',
      }),
    ).toThrow(/\[0\]\.globalDailyFeeCapLamports: must be a whole number of lamports/)
    // 32 bytes is a public key, not a secret key.
    expect(() =>
      parseServerEnv({ ...deployed, SOLANA_SPONSOR_KEY: '11111111111111111111111111111111' }),
    ).toThrow(/SOLANA_SPONSOR_KEY: must be a 64-byte Solana secret key in base58/)
    expect(() => parseServerEnv({ ...deployed, SOLANA_SPONSOR_KEY: `${key.slice(1)}0` })).toThrow(
      /SOLANA_SPONSOR_KEY: must be/,
    )
    expect(() => parseServerEnv({ ...deployed, SOLANA_RPC_URL: 'ws://solana' })).toThrow(
      /SOLANA_RPC_URL: must be the http\(s\) URL of a Solana JSON-RPC node/,
    )
  })

  it('PRODUCTION=true needs SOLANA_SPONSOR_KEY and SOLANA_RPC_URL with Solana policies', () => {
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
    }
    expect(parseServerEnv(production).solanaSponsorPolicies).toEqual([])
    const withPolicies = {
      ...production,
      SOLANA_SPONSOR_POLICIES:
        '[{"id":"transfers","programs":["11111111111111111111111111111111"],"maxFeeLamports":10000,"dailyFeeCapLamports":100000,"globalDailyFeeCapLamports":10000000}]',
    }
    let message = ''
    try {
      parseServerEnv(withPolicies)
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain(
      '  SOLANA_SPONSOR_KEY: required in production when SOLANA_SPONSOR_POLICIES is set',
    )
    expect(message).toContain('  SOLANA_RPC_URL: required in production when SOLANA_SPONSOR_POLICIES is set')
    const complete = parseServerEnv({
      ...withPolicies,
      SOLANA_RPC_URL: 'https://solana.example/rpc',
      SOLANA_SPONSOR_KEY: encodeBase58(new Uint8Array(64).fill(7)),
    })
    expect(complete.solanaSponsorDefaultPolicyId).toBe('transfers')
    expect(complete.solanaDevnet).toBe(false)
  })
})
