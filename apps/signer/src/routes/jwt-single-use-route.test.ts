import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildSignerTestApp, createFrameKey, type SignerTestApp } from '../../test/build-signer-test-app.ts'
import { startTestJwtIssuer, type TestJwtIssuer } from '../../test/start-test-jwt-issuer.ts'
import { decryptCredentialBundle } from '../crypto/bundles/decrypt-credential-bundle.ts'
import { getOAuthNonce } from '../services/oauth/oauth-request-key.ts'
import type { JwtProvider } from '../signer-config.ts'

// A custom JWT signs in once, for one key (docs/signer.md#auth-jwt): attacks with a captured token
// (a replay, the token put to the attacker's own key) and with tokens that name no sign-in at all.

type ErrorBody = { error: { code: string; message: string; details: { reason: string } } }

let issuer: TestJwtIssuer
let testApp: SignerTestApp
let now = Date.now

beforeAll(async () => {
  // The issuer's clock is the signer's, so moving the test clock ages its tokens.
  issuer = await startTestJwtIssuer(() => now())
})
afterAll(async () => {
  await issuer.close()
})
afterEach(async () => {
  await testApp.close()
})

async function buildApp(provider: Partial<JwtProvider> = {}): Promise<void> {
  const { issuer: iss, jwksUrl, audience } = issuer
  testApp = await buildSignerTestApp({
    jwtProviders: [{ id: 'acme', issuer: iss, jwksUrl, audience, ...provider }],
  })
  now = testApp.clock.now
}

function signIn(jwt: string, frame = createFrameKey()) {
  return testApp.post('auth-jwt', { jwt, authProvider: 'acme', targetPublicKey: frame.targetPublicKey })
}

async function countSessionKeys(): Promise<number> {
  const result = await testApp.database.db.execute<{ count: number }>(
    sql`select count(*)::int as count from signer_session_keys`,
  )
  return result.rows[0]?.count ?? 0
}

function expectRefused(
  response: Awaited<ReturnType<typeof signIn>>,
  reason: string,
  message: string | RegExp,
) {
  expect(response.statusCode, response.body).toBe(401)
  const { error } = response.json<ErrorBody>()
  expect(error).toMatchObject({ code: 'UNAUTHORIZED', details: { reason } })
  expect(error.message).toMatch(message)
}

describe('auth-jwt: a token signs in once, for one key', () => {
  it('binds a token to the key its nonce names: used twice, or for another key, it is refused', async () => {
    await buildApp()
    const victim = createFrameKey()
    const jwt = await issuer.sign({ nonce: getOAuthNonce(victim.targetPublicKey) })

    // An attacker who captured the token puts it to their own key first: refused, nothing minted.
    const attacker = createFrameKey()
    expectRefused(
      await signIn(jwt, attacker),
      'JWT_NONCE_MISMATCH',
      'The token was minted for another sign-in (its nonce is not that of this targetPublicKey).',
    )
    expect(await countSessionKeys()).toBe(0)

    // The browser it was minted for signs in, and the bundle opens with its key.
    const first = await signIn(jwt, victim)
    expect(first.statusCode, first.body).toBe(200)
    const bundle = first.json<{ credentialBundle: string }>().credentialBundle
    await expect(
      decryptCredentialBundle({ bundle, embeddedPrivateKey: victim.privateKey }),
    ).resolves.toBeDefined()

    // The same token again, even for its own key: refused.
    expectRefused(
      await signIn(jwt, victim),
      'JWT_REPLAYED',
      'This token was already used to sign in. Get a new one from your sign-in provider.',
    )
    expect(await countSessionKeys()).toBe(1)
  })

  it('refuses a token with neither nonce nor jti, saying how to mint one', async () => {
    await buildApp()
    const refused = await signIn(await issuer.sign())
    expectRefused(
      refused,
      'JWT_NONCE_MISSING',
      /^The token has no nonce claim\. Mint it with nonce = the hex SHA-256/,
    )
    // A jti does not stand in for the nonce unless the provider is configured for it.
    expectRefused(await signIn(await issuer.sign({ jti: 'once-1' })), 'JWT_NONCE_MISSING', /no nonce claim/)
    expect(await countSessionKeys()).toBe(0)
  })

  it('with requires jti: a token is single use by its jti and too old after maxAgeSeconds', async () => {
    await buildApp({ requires: 'jti', maxAgeSeconds: 120 })
    expectRefused(
      await signIn(await issuer.sign()),
      'JWT_JTI_MISSING',
      'The token has no jti claim. This provider’s tokens are single use: each needs its own jti.',
    )
    expectRefused(
      await signIn(await issuer.sign({ jti: 'no-iat', iat: undefined })),
      'JWT_CLAIMS_INVALID',
      /no iat claim/,
    )

    const jwt = await issuer.sign({ jti: 'once-2' })
    const first = await signIn(jwt)
    expect(first.statusCode, first.body).toBe(200)
    // Replayed, to the same or another key: refused.
    expectRefused(await signIn(jwt), 'JWT_REPLAYED', /already used/)
    // Another token with the same jti is the same sign-in: refused too.
    expectRefused(
      await signIn(await issuer.sign({ jti: 'once-2', sub: 'user-43' })),
      'JWT_REPLAYED',
      /already used/,
    )

    // A nonce, when a jti token carries one, must still name the key.
    expectRefused(
      await signIn(
        await issuer.sign({ jti: 'once-3', nonce: getOAuthNonce(createFrameKey().targetPublicKey) }),
      ),
      'JWT_NONCE_MISMATCH',
      /another sign-in/,
    )

    // Issued, then held past the provider's maximum age (still before its exp): refused.
    const held = await issuer.sign({ jti: 'once-4' })
    testApp.clock.advance(150_000 + 31_000)
    expectRefused(await signIn(held), 'JWT_TOO_OLD', /issued too long ago/)
    expect(await countSessionKeys()).toBe(1)
  })
})
