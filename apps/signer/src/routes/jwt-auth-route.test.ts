import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  createFrameKey,
  postStamped,
  type SignerTestApp,
} from '../../test/build-signer-test-app.ts'
import { createTotpCode } from '../../test/create-totp-code.ts'
import { decryptCredentialBundle } from '../crypto/bundles/decrypt-credential-bundle.ts'
import { getOAuthNonce } from '../services/oauth/oauth-request-key.ts'
import type { JwtProvider } from '../signer-config.ts'

// `auth-jwt` (docs/signer.md#auth-jwt) against an issuer whose JSON Web Key Set this test serves
// over HTTP on loopback, as a real issuer would; tokens are signed here with jose.

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>

const issuer = 'https://issuer.test.example'
const audience = 'quick-links-test'
let jwksServer: Server
let jwksUrl: string
let jwksRequests = 0
let issuerKey: KeyPair
let otherKey: KeyPair

beforeAll(async () => {
  issuerKey = await generateKeyPair('ES256')
  otherKey = await generateKeyPair('ES256')
  const jwk = { ...(await exportJWK(issuerKey.publicKey)), kid: 'issuer-key-1', alg: 'ES256', use: 'sig' }
  jwksServer = createServer((_request, response) => {
    jwksRequests += 1
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ keys: [jwk] }))
  })
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve))
  jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/.well-known/jwks.json`
})

afterAll(async () => {
  await new Promise((resolve) => jwksServer.close(resolve))
})

/** A token as the test issuer mints it; `overrides` change claims, `key`/`kid` the signature. */
async function signToken(
  overrides: JWTPayload = {},
  options: { key?: KeyPair; kid?: string; expiresInSeconds?: number } = {},
): Promise<string> {
  const nowSeconds = Math.floor(Date.now() / 1000)
  return new SignJWT({
    iss: issuer,
    aud: audience,
    sub: 'user-42',
    iat: nowSeconds,
    exp: nowSeconds + (options.expiresInSeconds ?? 300),
    ...overrides,
  })
    .setProtectedHeader({ alg: 'ES256', kid: options.kid ?? 'issuer-key-1', typ: 'JWT' })
    .sign((options.key ?? issuerKey).privateKey)
}

/** A token minted for one sign-in: its `nonce` is the hex SHA-256 of that sign-in's frame key. */
type Mint = (nonce: string) => Promise<string>

/** Mints a token bound to the sign-in's key (docs/signer.md#auth-jwt), as an app's backend would. */
function bound(overrides: JWTPayload = {}, options: Parameters<typeof signToken>[1] = {}): Mint {
  return (nonce) => signToken({ nonce, ...overrides }, options)
}

describe('signer auth-jwt route', () => {
  let testApp: SignerTestApp
  afterEach(async () => {
    await testApp.close()
  })

  const providers = (): JwtProvider[] => [{ id: 'test-issuer', issuer, jwksUrl, audience }]

  async function signInWithJwt(
    jwt: string | Mint,
    body: Record<string, unknown> = {},
    frame = createFrameKey(),
  ) {
    const response = await testApp.post('auth-jwt', {
      jwt: typeof jwt === 'string' ? jwt : await jwt(getOAuthNonce(frame.targetPublicKey)),
      authProvider: 'test-issuer',
      targetPublicKey: frame.targetPublicKey,
      expirationSeconds: 600,
      ...body,
    })
    return { response, frame }
  }

  /** Signs in and reads whoami with the session key the bundle holds. */
  async function signInAndReadWhoami(jwt: string | Mint) {
    const { response, frame } = await signInWithJwt(jwt)
    expect(response.statusCode, response.body).toBe(200)
    const answer = response.json<{ credentialBundle: string; isNewUser: boolean; orgId: string }>()
    const session = await decryptCredentialBundle({
      bundle: answer.credentialBundle,
      embeddedPrivateKey: frame.privateKey,
    })
    const me = await postStamped(
      testApp,
      'whoami',
      {
        orgId: answer.orgId,
        sessionPrivateKey: session.privateKey,
        sessionPublicKey: session.publicKey,
        isNewUser: answer.isNewUser,
      },
      { type: 'ACTIVITY_TYPE_WHOAMI' },
    )
    expect(me.statusCode, me.body).toBe(200)
    return {
      answer,
      whoami: me.json<{ orgId: string; userId: string; address: string; email: string | null }>(),
    }
  }

  async function countRows(
    table: 'signer_users' | 'signer_session_keys' | 'signer_wallets',
  ): Promise<number> {
    const result = await testApp.database.db.execute<{ count: number }>(
      sql`select count(*)::int as count from ${sql.identifier(table)}`,
    )
    return result.rows[0]?.count ?? 0
  }

  it('signs a new user in with a valid token, the same user again for the same issuer and subject, another for another subject', async () => {
    testApp = await buildSignerTestApp({ jwtProviders: providers() })

    const first = await signInAndReadWhoami(bound())
    expect(first.answer.isNewUser).toBe(true)
    expect(first.whoami).toMatchObject({
      orgId: first.answer.orgId,
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      email: null,
    })

    const again = await signInAndReadWhoami(bound())
    expect(again.answer.isNewUser).toBe(false)
    expect(again.whoami).toEqual(first.whoami)

    const other = await signInAndReadWhoami(bound({ sub: 'user-43' }))
    expect(other.answer.isNewUser).toBe(true)
    expect(other.whoami.userId).not.toBe(first.whoami.userId)
    expect(other.whoami.address).not.toBe(first.whoami.address)

    // Without authProvider the token's issuer picks the provider.
    const byIssuer = await signInWithJwt(bound(), { authProvider: undefined })
    expect(byIssuer.response.statusCode, byIssuer.response.body).toBe(200)
    expect(byIssuer.response.json().orgId).toBe(first.answer.orgId)

    expect(await countRows('signer_users')).toBe(2)
    expect(await countRows('signer_wallets')).toBe(2)
    expect(await countRows('signer_session_keys')).toBe(4)
  })

  it('refuses a wrong audience, an expired token, a garbage string, an unknown issuer and a wrong key with clear errors, and no session exists after', async () => {
    testApp = await buildSignerTestApp({ jwtProviders: providers() })
    const refusals: [string, string, number, string | RegExp][] = [
      [
        await signToken({ aud: 'another-app' }),
        'JWT_AUDIENCE_INVALID',
        401,
        'The token was issued for another application (its aud claim is not this one’s).',
      ],
      [
        await signToken({}, { expiresInSeconds: -120 }),
        'JWT_EXPIRED',
        401,
        'The token has expired. Get a new one from your sign-in provider.',
      ],
      ['garbage', 'JWT_MALFORMED', 401, /^Invalid token specified: /],
      ['a.b', 'JWT_MALFORMED', 401, /^Invalid token specified: /],
      [
        await signToken({ iss: 'https://evil.example' }),
        'JWT_ISSUER_UNKNOWN',
        401,
        'The token has issuer https://evil.example, not that of auth provider test-issuer.',
      ],
      // A key the issuer does not publish, under the issuer's key id, and under a key id of its own.
      [
        await signToken({}, { key: otherKey }),
        'JWT_SIGNATURE_INVALID',
        401,
        'The token’s signature does not match any key its issuer publishes.',
      ],
      [
        await signToken({}, { key: otherKey, kid: 'attacker-key' }),
        'JWT_SIGNATURE_INVALID',
        401,
        'The token’s signature does not match any key its issuer publishes.',
      ],
      [await signToken({ sub: undefined }), 'JWT_CLAIMS_INVALID', 401, 'The token has no sub claim.'],
    ]
    for (const [jwt, reason, status, message] of refusals) {
      const { response } = await signInWithJwt(jwt)
      expect(response.statusCode, `${reason}: ${response.body}`).toBe(status)
      const { error } = response.json<{
        error: { code: string; message: string; details: { reason: string } }
      }>()
      expect(error.code).toBe('UNAUTHORIZED')
      expect(error.details.reason).toBe(reason)
      expect(error.message).toMatch(message)
    }
    // A token that does not decode is named in jwt-decode's words.
    const { response: garbage } = await signInWithJwt('garbage')
    expect(garbage.json().error.message).toMatch(
      /^Invalid token specified: invalid (base64|json) for part #1/,
    )

    const unknownIssuer = await signInWithJwt(await signToken({ iss: 'https://evil.example' }), {
      authProvider: undefined,
    })
    expect(unknownIssuer.response.json().error.message).toBe(
      'The token’s issuer https://evil.example is not accepted here.',
    )
    const unknownProvider = await signInWithJwt(await signToken(), { authProvider: 'nobody' })
    expect(unknownProvider.response.statusCode).toBe(401)
    expect(unknownProvider.response.json().error.message).toBe('No auth provider found with id nobody')

    expect(await countRows('signer_users')).toBe(0)
    expect(await countRows('signer_session_keys')).toBe(0)
  })

  it('refuses every token when no issuer is configured, and answers 502 when the issuer keys cannot be fetched', async () => {
    testApp = await buildSignerTestApp()
    const none = await signInWithJwt(await signToken())
    expect(none.response.statusCode).toBe(401)
    expect(none.response.json().error.details.reason).toBe('JWT_PROVIDER_UNKNOWN')
    await testApp.close()

    testApp = await buildSignerTestApp({
      jwtProviders: [
        { id: 'test-issuer', issuer, jwksUrl: `${jwksUrl}-missing`.replace(/:\d+\//, ':9/'), audience },
      ],
    })
    const down = await signInWithJwt(await signToken())
    expect(down.response.statusCode).toBe(502)
    expect(down.response.json().error).toMatchObject({
      code: 'UPSTREAM_FAILED',
      details: { reason: 'JWKS_UNAVAILABLE' },
    })
    expect(await countRows('signer_session_keys')).toBe(0)
  })

  it('fetches the key set once for many sign-ins and validates the body', async () => {
    testApp = await buildSignerTestApp({ jwtProviders: providers() })
    const before = jwksRequests
    for (let index = 0; index < 3; index += 1) {
      const { response } = await signInWithJwt(bound({ sub: `user-${index}` }))
      expect(response.statusCode, response.body).toBe(200)
    }
    expect(jwksRequests - before).toBe(1)

    const noKey = await testApp.post('auth-jwt', { jwt: await signToken(), authProvider: 'test-issuer' })
    expect(noKey.statusCode).toBe(422)
    expect(noKey.json().error.field).toBe('targetPublicKey')
  })

  it('asks an account with a confirmed authenticator app for its code (docs/signer.md#mfa-required): no session until it is right, for that frame only', async () => {
    testApp = await buildSignerTestApp({ jwtProviders: providers() })
    const codeFor = (secret: string, steps = 0) => createTotpCode(secret, testApp.clock.now(), steps)
    const subject = { sub: 'user-with-factor' }
    const first = await signInWithJwt(bound(subject))
    expect(first.response.statusCode, first.response.body).toBe(200)
    const firstAnswer = first.response.json<{ credentialBundle: string; orgId: string }>()
    const firstSession = await decryptCredentialBundle({
      bundle: firstAnswer.credentialBundle,
      embeddedPrivateKey: first.frame.privateKey,
    })
    const client = {
      orgId: firstAnswer.orgId,
      sessionPrivateKey: firstSession.privateKey,
      sessionPublicKey: firstSession.publicKey,
      isNewUser: true,
    }
    // A custom-JWT account re-authenticates with a fresh token of its own, minted for this browser's
    // frame key as at sign-in (docs/signer.md#step-up).
    const nonce = getOAuthNonce(first.frame.targetPublicKey)
    const otherSubject = await signToken({ sub: 'someone-else', jti: 'step-up-other', nonce })
    const foreign = await postStamped(testApp, 'auth-request-multi-factor', client, {
      type: 'ACTIVITY_TYPE_ADD_MFA',
      parameters: { multiFactorType: 'totp', stepUp: { jwt: otherSubject } },
    })
    expect(foreign.statusCode, foreign.body).toBe(403)
    expect(foreign.json().error.details.reason).toBe('STEP_UP_REFUSED')
    const requested = await postStamped(testApp, 'auth-request-multi-factor', client, {
      type: 'ACTIVITY_TYPE_ADD_MFA',
      parameters: {
        multiFactorType: 'totp',
        stepUp: { jwt: await signToken({ ...subject, jti: 'step-up', nonce }) },
      },
    })
    expect(requested.statusCode, requested.body).toBe(200)
    const { multiFactorId, multiFactorSecret } = requested.json<{
      multiFactorId: string
      multiFactorSecret: string
    }>()
    const confirmed = await postStamped(testApp, 'auth-verify-multi-factor', client, {
      type: 'ACTIVITY_TYPE_VERIFY_MFA',
      parameters: { multiFactorId, multiFactorCode: codeFor(multiFactorSecret) },
    })
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    const sessionsBefore = await countRows('signer_session_keys')

    const { response, frame } = await signInWithJwt(bound(subject))
    expect(response.statusCode, response.body).toBe(200)
    const answer = response.json<Record<string, unknown>>()
    expect(answer).toEqual({
      status: 'MFA_REQUIRED',
      encryptedPayload: expect.any(String),
      multiFactors: [{ multiFactorId, multiFactorType: 'totp' }],
      orgId: firstAnswer.orgId,
    })
    expect(await countRows('signer_session_keys')).toBe(sessionsBefore)

    const right = codeFor(multiFactorSecret, 1)
    const validate = (code: string, targetPublicKey: string) =>
      testApp.post('auth-validate-multi-factors', {
        encryptedPayload: answer.encryptedPayload,
        multiFactors: [{ multiFactorId, multiFactorCode: code }],
        targetPublicKey,
      })
    expect((await validate(right, createFrameKey().targetPublicKey)).statusCode).toBe(401)
    const wrong = await validate(right === '123456' ? '654321' : '123456', frame.targetPublicKey)
    expect(wrong.statusCode).toBe(401)
    expect(wrong.json().error.details.reason).toBe('TOTP_INVALID')
    const validated = await validate(right, frame.targetPublicKey)
    expect(validated.statusCode, validated.body).toBe(200)
    const completed = validated.json<{ payload: { credentialBundle: string }; orgId: string }>()
    expect(completed.orgId).toBe(firstAnswer.orgId)
    const session = await decryptCredentialBundle({
      bundle: completed.payload.credentialBundle,
      embeddedPrivateKey: frame.privateKey,
    })
    const me = await postStamped(
      testApp,
      'whoami',
      { ...client, sessionPrivateKey: session.privateKey, sessionPublicKey: session.publicKey },
      { type: 'ACTIVITY_TYPE_WHOAMI' },
    )
    expect(me.statusCode, me.body).toBe(200)
    expect(me.json<{ orgId: string }>().orgId).toBe(firstAnswer.orgId)
  })
})
