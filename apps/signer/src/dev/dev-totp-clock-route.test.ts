import { afterEach, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  createFrameKey,
  postStamped,
  proveContact,
  readCode,
  type SignedInClient,
  type SignerTestApp,
  signInByEmail,
} from '../../test/build-signer-test-app.ts'
import { createTotpCode } from '../../test/create-totp-code.ts'
import type { SignerProcessConfig } from '../config/signer-env.ts'

// The dev-mode TOTP clock (dev-totp-clock.ts): the end-to-end suite moves it instead of waiting
// 30 s for a new code; a deployment has no such door.

const fiveMinutesMs = 5 * 60_000

describe('the dev-mode TOTP clock', () => {
  let testApp: SignerTestApp | undefined
  afterEach(async () => {
    await testApp?.close()
    testApp = undefined
  })

  /** Signs `email` up, adds an authenticator app with a code of now; answers its factor, secret and wallet address. */
  async function enrolAuthenticator(app: SignerTestApp, email: string) {
    const client = await signInByEmail(app, email)
    const address = await readWalletAddress(app, client)
    const stepUp = { verificationToken: await proveContact(app, { email }) }
    const requested = await postStamped(app, 'auth-request-multi-factor', client, {
      type: 'ACTIVITY_TYPE_ADD_MFA',
      parameters: { multiFactorType: 'totp', stepUp },
    })
    const enrolment = requested.json<{ multiFactorId: string; multiFactorSecret: string }>()
    const verified = await postStamped(app, 'auth-verify-multi-factor', client, {
      type: 'ACTIVITY_TYPE_VERIFY_MFA',
      parameters: {
        multiFactorId: enrolment.multiFactorId,
        multiFactorCode: createTotpCode(enrolment.multiFactorSecret, app.clock.now()),
      },
    })
    expect(verified.statusCode).toBe(200)
    return { ...enrolment, address }
  }

  /** An e-mail-code sign-in of `email`, which now asks for the app's code: its pending payload. */
  async function startSignIn(app: SignerTestApp, email: string): Promise<string> {
    // Past the address's 3-sends-per-3-minutes cap.
    app.clock.advance(3 * 60_000 + 1000)
    const frame = createFrameKey()
    const auth = await app.post('auth', { email, emailMode: 'otp', targetPublicKey: frame.targetPublicKey })
    const { orgId, otpId } = auth.json<{ orgId: string; otpId: string }>()
    const otp = await app.post('otp', {
      orgId,
      otpId,
      otpCode: readCode(app.delivery.emails.at(-1)?.text ?? ''),
      targetPublicKey: frame.targetPublicKey,
    })
    const answer = otp.json<{ status: string; encryptedPayload: string }>()
    expect(answer.status).toBe('MFA_REQUIRED')
    return answer.encryptedPayload
  }

  /** The EVM address of the signed-in account's wallet (whoami). */
  async function readWalletAddress(app: SignerTestApp, client: SignedInClient): Promise<string> {
    const whoami = await postStamped(app, 'whoami', client, { type: 'ACTIVITY_TYPE_WHOAMI' })
    return whoami.json<{ address: string }>().address
  }

  async function buildWith(overrides: Partial<SignerProcessConfig>): Promise<SignerTestApp> {
    testApp = await buildSignerTestApp(overrides)
    return testApp
  }

  it('in dev mode, takes the code of the step it was moved to, for that account only', async () => {
    const app = await buildWith({ devMode: true })
    const email = 'moved-clock@example.com'
    const { multiFactorId, multiFactorSecret, address } = await enrolAuthenticator(app, email)
    const encryptedPayload = await startSignIn(app, email)
    const later = createTotpCode(multiFactorSecret, app.clock.now() + fiveMinutesMs)

    const early = await app.post('auth-validate-multi-factors', {
      encryptedPayload,
      multiFactors: [{ multiFactorId, multiFactorCode: later }],
    })
    expect(early.statusCode).toBe(401)

    // Another account's clock moves alone.
    const bystanderAccount = await enrolAuthenticator(app, 'bystander@example.com')
    const bystander = await app.post('dev/totp-clock', {
      address: bystanderAccount.address,
      advanceMs: 600_000,
    })
    expect(bystander.json()).toEqual({ data: { offsetMs: 600_000 } })
    // Any case of the address.
    const moved = await app.post('dev/totp-clock', {
      address: address.toLowerCase(),
      advanceMs: fiveMinutesMs,
    })
    expect(moved.statusCode).toBe(200)
    expect(moved.json()).toEqual({ data: { offsetMs: fiveMinutesMs } })
    expect((await app.post('dev/totp-clock', { address, advanceMs: 0 })).json()).toEqual({
      data: { offsetMs: fiveMinutesMs },
    })

    const done = await app.post('auth-validate-multi-factors', {
      encryptedPayload,
      multiFactors: [{ multiFactorId, multiFactorCode: later }],
    })
    expect(done.statusCode).toBe(200)
    expect(done.json().payload).toHaveProperty('credentialBundle')
  })

  it('in dev mode, answers 404 for an address no account has and 422 for a jump past ten minutes', async () => {
    const app = await buildWith({ devMode: true })
    const unknown = await app.post('dev/totp-clock', {
      address: '0x000000000000000000000000000000000000dEaD',
      advanceMs: 30_000,
    })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().error.code).toBe('NOT_FOUND')
    const address = await readWalletAddress(app, await signInByEmail(app, 'far@example.com'))
    const tooFar = await app.post('dev/totp-clock', { address, advanceMs: 600_001 })
    expect(tooFar.statusCode).toBe(422)
  })

  for (const [name, overrides] of [
    ['in production, even with DEV_MODE set', { devMode: true, production: true }],
    ['without dev mode', { devMode: false }],
  ] as const) {
    it(`${name}, has no such route and checks codes at the service clock`, async () => {
      const app = await buildWith(overrides)
      const email = 'fixed-clock@example.com'
      const { multiFactorId, multiFactorSecret, address } = await enrolAuthenticator(app, email)
      const encryptedPayload = await startSignIn(app, email)

      const refused = await app.post('dev/totp-clock', { address, advanceMs: fiveMinutesMs })
      expect(refused.statusCode).toBe(404)
      const later = await app.post('auth-validate-multi-factors', {
        encryptedPayload,
        multiFactors: [
          {
            multiFactorId,
            multiFactorCode: createTotpCode(multiFactorSecret, app.clock.now() + fiveMinutesMs),
          },
        ],
      })
      expect(later.statusCode).toBe(401)
      const now = await app.post('auth-validate-multi-factors', {
        encryptedPayload,
        multiFactors: [
          { multiFactorId, multiFactorCode: createTotpCode(multiFactorSecret, app.clock.now(), 1) },
        ],
      })
      expect(now.statusCode).toBe(200)
      expect(now.json().payload).toHaveProperty('credentialBundle')
    })
  }
})
