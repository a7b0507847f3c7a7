import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  createFrameKey,
  postStamped,
  proveContact,
  readCode,
  type SignerTestApp,
  signInByEmail,
} from '../../test/build-signer-test-app.ts'
import { createTotpCode } from '../../test/create-totp-code.ts'
import { decryptCredentialBundle } from '../crypto/bundles/decrypt-credential-bundle.ts'
import { totpChallengeEndedMessage } from '../services/mfa/totp-failure-budget.ts'

// An attacker who has the first factor (the e-mail code) grinds the authenticator code
// (docs/signer.md#auth-validate-multi-factors): a challenge ends at its third wrong code, every
// third wrong code locks the step for longer, and the day's tenth refuses every code, the right one
// included, until the day has passed: no lock resets that count. The signer's clock is moved.

type ErrorBody = { error: { code: string; message: string; details: Record<string, unknown> } }

describe('second factor: codes that cannot be ground down', () => {
  let testApp: SignerTestApp
  afterEach(async () => {
    await testApp.close()
  })

  it('ends a challenge at its third wrong code, locks for longer each time, and refuses the 11th code of the day, right or wrong, until the day has passed', async () => {
    testApp = await buildSignerTestApp()
    const email = 'grinded@example.com'
    const owner = await signInByEmail(testApp, email)
    const requested = await postStamped(testApp, 'auth-request-multi-factor', owner, {
      type: 'ACTIVITY_TYPE_ADD_MFA',
      // Adding a way in takes a step-up (docs/signer.md#step-up): a code to the account's e-mail.
      parameters: {
        multiFactorType: 'totp',
        stepUp: { verificationToken: await proveContact(testApp, { email }) },
      },
    })
    const { multiFactorId, multiFactorSecret } = requested.json<{
      multiFactorId: string
      multiFactorSecret: string
    }>()
    const codeFor = (steps: number) => createTotpCode(multiFactorSecret, testApp.clock.now(), steps)
    const confirmed = await postStamped(testApp, 'auth-verify-multi-factor', owner, {
      type: 'ACTIVITY_TYPE_VERIFY_MFA',
      parameters: { multiFactorId, multiFactorCode: codeFor(0) },
    })
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    // Past the 3-codes-in-3-minutes cap of the address: the step-up's code was one of them.
    testApp.clock.advance(3 * 60_000 + 1_000)

    /** The attacker's sign-in with the e-mail code: a challenge waiting for the app's code. */
    async function startChallenge() {
      const frame = createFrameKey()
      const auth = await testApp.post('auth', { email, targetPublicKey: frame.targetPublicKey })
      expect(auth.statusCode, auth.body).toBe(200)
      const { orgId, otpId } = auth.json<{ orgId: string; otpId: string }>()
      const otp = await testApp.post('otp', {
        orgId,
        otpId,
        otpCode: readCode(testApp.delivery.emails.at(-1)?.text ?? ''),
        targetPublicKey: frame.targetPublicKey,
      })
      expect(otp.statusCode, otp.body).toBe(200)
      expect(otp.json().status).toBe('MFA_REQUIRED')
      return { frame, encryptedPayload: otp.json<{ encryptedPayload: string }>().encryptedPayload }
    }
    function enter(challenge: { encryptedPayload: string }, code: string) {
      return testApp.post('auth-validate-multi-factors', {
        encryptedPayload: challenge.encryptedPayload,
        multiFactors: [{ multiFactorId, multiFactorCode: code }],
      })
    }
    /** A code no step of the window accepts now. */
    function wrongCode(): string {
      const valid = new Set([codeFor(-1), codeFor(0), codeFor(1)])
      return ['000000', '111111', '222222', '333333'].find((code) => !valid.has(code)) ?? '444444'
    }
    async function expectError(
      response: Awaited<ReturnType<typeof enter>>,
      status: number,
      expected: Record<string, unknown>,
    ) {
      expect(response.statusCode, response.body).toBe(status)
      expect(response.json<ErrorBody>().error).toMatchObject(expected)
    }
    async function countSessionKeys(): Promise<number> {
      const result = await testApp.database.db.execute<{ count: number }>(
        sql`select count(*)::int as count from signer_session_keys`,
      )
      return result.rows[0]?.count ?? 0
    }
    const sessionsBefore = await countSessionKeys()
    const paused = (wait: string) =>
      `Too many wrong authenticator codes were entered, so this step is paused. Try again in ${wait}.`

    // Challenge 1: two wrong codes are refused as wrong; the third locks the step for 15 minutes.
    const first = await startChallenge()
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await expectError(await enter(first, wrongCode()), 401, { details: { reason: 'TOTP_INVALID' } })
    }
    await expectError(await enter(first, wrongCode()), 429, {
      code: 'RATE_LIMITED',
      message: paused('15 minutes'),
      details: { reason: 'TOTP_LOCKED', retryAfterSeconds: 900 },
    })
    // That challenge is over: its right code is refused.
    await expectError(await enter(first, codeFor(0)), 401, {
      message: totpChallengeEndedMessage,
      details: { reason: 'MFA_CHALLENGE_REFUSED' },
    })
    // A fresh challenge during the lock: the right code is refused too.
    await expectError(await enter(await startChallenge(), codeFor(0)), 429, {
      details: { reason: 'TOTP_LOCKED' },
    })

    // Failures 4 to 6 lock for 30 minutes, 7 to 9 for an hour: each lock is longer.
    testApp.clock.advance(15 * 60_000 + 1_000)
    for (const wait of [30, 60]) {
      const challenge = await startChallenge()
      await expectError(await enter(challenge, wrongCode()), 401, { details: { reason: 'TOTP_INVALID' } })
      await expectError(await enter(challenge, wrongCode()), 401, { details: { reason: 'TOTP_INVALID' } })
      await expectError(await enter(challenge, wrongCode()), 429, {
        details: { reason: 'TOTP_LOCKED', retryAfterSeconds: wait * 60 },
      })
      testApp.clock.advance(wait * 60_000 + 1_000)
    }

    // The tenth wrong code of the day: refused, and the contact's own budget is spent too (its
    // lock and notice, docs/decisions/0015).
    const mailsBefore = testApp.delivery.emails.length
    await expectError(await enter(await startChallenge(), wrongCode()), 429, { code: 'RATE_LIMITED' })
    expect(
      testApp.delivery.emails.slice(mailsBefore).filter((mail) => mail.subject.includes('paused')),
    ).toHaveLength(1)

    // An hour later every lock has ended, but the day's count has not: the 11th code, wrong or
    // right, is refused without being compared.
    testApp.clock.advance(60 * 60_000 + 1_000)
    const eleventh = await startChallenge()
    const dailyCap =
      /^Too many wrong authenticator codes were entered for this account today\. Try again in 2\d hours\.$/
    const wrong = await enter(eleventh, wrongCode())
    await expectError(wrong, 429, { details: { reason: 'TOTP_DAILY_CAP' } })
    expect(wrong.json<ErrorBody>().error.message).toMatch(dailyCap)
    const right = await enter(eleventh, codeFor(0))
    await expectError(right, 429, { details: { reason: 'TOTP_DAILY_CAP' } })
    expect(right.json<ErrorBody>().error.message).toMatch(dailyCap)
    expect(await countSessionKeys()).toBe(sessionsBefore)

    // Once the first wrong code is a day old, the owner's right code signs in again.
    testApp.clock.advance(Number(right.json<ErrorBody>().error.details.retryAfterSeconds) * 1000)
    const nextDay = await startChallenge()
    const signedIn = await enter(nextDay, codeFor(0))
    expect(signedIn.statusCode, signedIn.body).toBe(200)
    const bundle = signedIn.json<{ payload: { credentialBundle: string } }>().payload.credentialBundle
    await expect(
      decryptCredentialBundle({ bundle, embeddedPrivateKey: nextDay.frame.privateKey }),
    ).resolves.toBeDefined()
  })
})
