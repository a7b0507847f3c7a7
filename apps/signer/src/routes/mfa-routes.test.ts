import { AppError } from '@quicklinks/core/app-error'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
import { decryptCredentialBundle } from '../crypto/bundles/decrypt-credential-bundle.ts'

// TOTP second factors (docs/signer.md#multi-factor) through the signer's routes, with codes
// computed here from the secret the enrolment shows, as an authenticator app would.

type Enrolment = { multiFactorId: string; multiFactorSecret: string; multiFactorTotpUrl: string }
type MfaRequired = {
  status: 'MFA_REQUIRED'
  encryptedPayload: string
  multiFactors: { multiFactorId: string; multiFactorType: string }[]
  orgId: string
}

describe('multi-factor routes', () => {
  let testApp: SignerTestApp

  beforeAll(async () => {
    testApp = await buildSignerTestApp()
  })
  afterAll(async () => {
    await testApp.close()
  })

  /** The code an authenticator app shows for `secret` at the signer's clock, `steps` periods on. */
  function codeFor(secret: string, steps = 0): string {
    return createTotpCode(secret, testApp.clock.now(), steps)
  }

  /** Moves the signer's clock into the next 30 s step, so a new code exists. */
  function nextStep(): void {
    testApp.clock.advance(30_000)
  }

  /** auth + the mailed code: the raw `otp` answer, and the frame key it was for. */
  async function signInWithCode(email: string) {
    const frame = createFrameKey()
    const auth = await testApp.post('auth', {
      email,
      emailMode: 'otp',
      targetPublicKey: frame.targetPublicKey,
    })
    expect(auth.statusCode).toBe(200)
    const { orgId, otpId } = auth.json<{ orgId: string; otpId: string }>()
    const otp = await testApp.post('otp', {
      orgId,
      otpId,
      otpCode: readCode(testApp.delivery.emails.at(-1)?.text ?? ''),
      targetPublicKey: frame.targetPublicKey,
    })
    expect(otp.statusCode).toBe(200)
    return { frame, answer: otp.json<MfaRequired | { credentialBundle: string }>() }
  }

  /** The step-up of a code to the account's e-mail or phone (docs/signer.md#step-up). */
  async function stepUpBy(contact: { email: string } | { phone: string }) {
    return { verificationToken: await proveContact(testApp, contact) }
  }

  async function enrol(client: SignedInClient, stepUp: { verificationToken: string }): Promise<Enrolment> {
    const requested = await postStamped(testApp, 'auth-request-multi-factor', client, {
      type: 'ACTIVITY_TYPE_ADD_MFA',
      parameters: { multiFactorType: 'totp', stepUp },
    })
    expect(requested.statusCode).toBe(200)
    const enrolment = requested.json<Enrolment>()
    const verified = await postStamped(testApp, 'auth-verify-multi-factor', client, {
      type: 'ACTIVITY_TYPE_VERIFY_MFA',
      parameters: {
        multiFactorId: enrolment.multiFactorId,
        multiFactorCode: codeFor(enrolment.multiFactorSecret),
      },
    })
    expect(verified.statusCode).toBe(200)
    return enrolment
  }

  function validate(body: Record<string, unknown>) {
    return testApp.post('auth-validate-multi-factors', body)
  }

  it('refuses any factor type but totp with the documented message', async () => {
    const client = await signInByEmail(testApp, 'sms-factor@example.com')
    const response = await postStamped(testApp, 'auth-request-multi-factor', client, {
      type: 'ACTIVITY_TYPE_ADD_MFA',
      parameters: { multiFactorType: 'sms', stepUp: await stepUpBy({ email: 'sms-factor@example.com' }) },
    })
    expect(response.statusCode).toBe(422)
    expect(response.json().error.message).toBe('Unsupported MFA factor type: sms')
  })

  it('enrols with a first code, then a sign-in needs a code, which works once', async () => {
    const client = await signInByEmail(testApp, 'totp-user@example.com')
    // Not on the session alone: an authenticator app is a way in (docs/signer.md#step-up).
    const unproven = await postStamped(testApp, 'auth-request-multi-factor', client, {
      type: 'ACTIVITY_TYPE_ADD_MFA',
      parameters: { multiFactorType: 'totp' },
    })
    expect(unproven.statusCode).toBe(403)
    expect(unproven.json().error.details.reason).toBe('STEP_UP_REQUIRED')
    const requested = await postStamped(testApp, 'auth-request-multi-factor', client, {
      type: 'ACTIVITY_TYPE_ADD_MFA',
      parameters: { multiFactorType: 'totp', stepUp: await stepUpBy({ email: 'totp-user@example.com' }) },
    })
    expect(requested.statusCode).toBe(200)
    const enrolment = requested.json<Enrolment>()
    expect(enrolment.multiFactorSecret).toMatch(/^[A-Z2-7]{32}$/)
    const uri = new URL(enrolment.multiFactorTotpUrl)
    expect(uri.protocol).toBe('otpauth:')
    expect(uri.searchParams.get('secret')).toBe(enrolment.multiFactorSecret)
    expect(uri.searchParams.get('issuer')).toBe('Quick Links')
    expect(decodeURIComponent(uri.pathname)).toContain('totp-user@example.com')

    // Unconfirmed, it guards nothing and is not listed.
    const before = await signInWithCode('totp-user@example.com')
    expect(before.answer).toHaveProperty('credentialBundle')
    // Past the 3-sends-per-3-minutes cap of the address, for the two sign-ins below.
    testApp.clock.advance(3 * 60_000 + 1000)
    const emptyList = await postStamped(testApp, 'auth-list-multi-factors', client, {
      type: 'ACTIVITY_TYPE_LIST_MFAS',
    })
    expect(emptyList.json()).toEqual({ multiFactors: [] })

    const wrongFirst = await postStamped(testApp, 'auth-verify-multi-factor', client, {
      type: 'ACTIVITY_TYPE_VERIFY_MFA',
      parameters: { multiFactorId: enrolment.multiFactorId, multiFactorCode: '000000' },
    })
    expect(wrongFirst.statusCode).toBe(401)
    expect(wrongFirst.json().error.message).toBe(
      'That code is not right. Enter the current code from your authenticator app.',
    )
    const enrolCode = codeFor(enrolment.multiFactorSecret)
    const confirmed = await postStamped(testApp, 'auth-verify-multi-factor', client, {
      type: 'ACTIVITY_TYPE_VERIFY_MFA',
      parameters: { multiFactorId: enrolment.multiFactorId, multiFactorCode: enrolCode },
    })
    expect(confirmed.statusCode).toBe(200)
    expect(confirmed.json().multiFactors).toEqual([
      expect.objectContaining({ multiFactorId: enrolment.multiFactorId, multiFactorType: 'totp' }),
    ])
    const listed = await postStamped(testApp, 'auth-list-multi-factors', client, {
      type: 'ACTIVITY_TYPE_LIST_MFAS',
    })
    expect(listed.json().multiFactors).toHaveLength(1)
    expect(JSON.stringify(listed.json())).not.toContain(enrolment.multiFactorSecret)

    // The e-mail code alone no longer gives a session.
    const { frame, answer } = await signInWithCode('totp-user@example.com')
    expect(answer).toEqual({
      status: 'MFA_REQUIRED',
      encryptedPayload: expect.any(String),
      multiFactors: [{ multiFactorId: enrolment.multiFactorId, multiFactorType: 'totp' }],
      orgId: client.orgId,
    })
    const { encryptedPayload } = answer as MfaRequired
    // A second sign-in waits at the same time, in another browser.
    const second = await signInWithCode('totp-user@example.com')

    // The code that confirmed the enrolment was spent there: replaying it is refused, not counted.
    const replayed = await validate({
      encryptedPayload,
      multiFactors: [{ multiFactorId: enrolment.multiFactorId, multiFactorCode: enrolCode }],
    })
    expect(replayed.statusCode).toBe(401)
    expect(replayed.json().error.message).toBe(
      'That code was already used. Wait for the next code in your authenticator app.',
    )

    nextStep()
    const code = codeFor(enrolment.multiFactorSecret)
    // Another frame's key cannot take the pending sign-in over.
    const otherKey = await validate({
      encryptedPayload,
      multiFactors: [{ multiFactorId: enrolment.multiFactorId, multiFactorCode: code }],
      targetPublicKey: createFrameKey().targetPublicKey,
    })
    expect(otherKey.statusCode).toBe(401)
    // An altered payload is refused.
    const altered = await validate({
      encryptedPayload: `${encryptedPayload.slice(0, -4)}AAAA`,
      multiFactors: [{ multiFactorId: enrolment.multiFactorId, multiFactorCode: code }],
    })
    expect(altered.statusCode).toBe(401)

    const done = await validate({
      encryptedPayload,
      multiFactors: [{ multiFactorId: enrolment.multiFactorId, multiFactorCode: code }],
      targetPublicKey: frame.targetPublicKey,
    })
    expect(done.statusCode).toBe(200)
    expect(done.json()).toMatchObject({ orgId: client.orgId, isNewUser: false })
    const session = await decryptCredentialBundle({
      bundle: done.json().payload.credentialBundle,
      embeddedPrivateKey: frame.privateKey,
    })
    const signedIn: SignedInClient = {
      orgId: client.orgId,
      sessionPrivateKey: session.privateKey,
      sessionPublicKey: session.publicKey,
      isNewUser: false,
    }
    const whoami = await postStamped(testApp, 'whoami', signedIn, { type: 'ACTIVITY_TYPE_WHOAMI' })
    expect(whoami.json().email).toBe('totp-user@example.com')

    // The payload completed its sign-in: it does not complete another, even with a fresh code.
    nextStep()
    const reused = await validate({
      encryptedPayload,
      multiFactors: [
        { multiFactorId: enrolment.multiFactorId, multiFactorCode: codeFor(enrolment.multiFactorSecret) },
      ],
    })
    expect(reused.statusCode).toBe(401)
    expect(reused.json().error.message).toBe(
      'This sign-in has expired or was already completed. Sign in again.',
    )

    // The code accepted for the first sign-in does not complete the second one.
    const accepted = await validate({
      encryptedPayload: (second.answer as MfaRequired).encryptedPayload,
      multiFactors: [{ multiFactorId: enrolment.multiFactorId, multiFactorCode: code }],
    })
    expect(accepted.statusCode).toBe(401)
    expect(accepted.json().error.details.reason).toBe('TOTP_REPLAYED')
  })

  it('counts wrong codes against the contact’s budget too: eight wrong e-mail codes and two wrong app codes lock it, even for the right code', async () => {
    const email = 'guessed@example.com'
    const client = await signInByEmail(testApp, email)
    const enrolment = await enrol(client, await stepUpBy({ email }))
    testApp.clock.advance(3 * 60_000 + 1_000)
    const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000')
    // Eight wrong e-mail codes over three codes (the third wrong try kills each).
    for (const tries of [3, 3, 2]) {
      const frame = createFrameKey()
      // From another address: the file's other tests share this app's per-IP send limit.
      const auth = await testApp.post(
        'auth',
        { email, targetPublicKey: frame.targetPublicKey },
        { remoteAddress: '198.51.100.40' },
      )
      const code = readCode(testApp.delivery.emails.at(-1)?.text ?? '')
      for (let attempt = 0; attempt < tries; attempt += 1) {
        const refused = await testApp.post('otp', {
          ...auth.json<{ orgId: string; otpId: string }>(),
          otpCode: wrongFor(code),
          targetPublicKey: frame.targetPublicKey,
        })
        expect(refused.statusCode).toBe(401)
      }
    }
    testApp.clock.advance(3 * 60_000 + 1_000)
    const { answer } = await signInWithCode(email)
    const { encryptedPayload } = answer as MfaRequired
    const right = codeFor(enrolment.multiFactorSecret)
    const wrong = right === '123456' ? '654321' : '123456'
    const enter = (multiFactorCode: string) =>
      validate({
        encryptedPayload,
        multiFactors: [{ multiFactorId: enrolment.multiFactorId, multiFactorCode }],
      })
    expect((await enter(wrong)).json().error.details.reason).toBe('TOTP_INVALID')
    const mailsBefore = testApp.delivery.emails.length
    const locking = await enter(wrong)
    expect(locking.statusCode).toBe(429)
    expect(locking.json().error.message).toMatch(/^Too many wrong codes were entered for this address/)
    // The contact is told, once.
    expect(testApp.delivery.emails.slice(mailsBefore).map((mail) => mail.to)).toEqual([email])
    expect((await enter(right)).statusCode).toBe(429)
    // The same lock stops e-mail codes for the address.
    const auth = await testApp.post(
      'auth',
      { email, emailMode: 'otp', targetPublicKey: createFrameKey().targetPublicKey },
      { remoteAddress: '198.51.100.40' },
    )
    expect(auth.statusCode).toBe(429)
    expect(auth.json().error.message).toMatch(/^Too many wrong codes were entered for this address/)
  })

  it('refuses a payload after five minutes, and a factor of another user', async () => {
    const owner = await signInByEmail(testApp, 'slow@example.com')
    const enrolment = await enrol(owner, await stepUpBy({ email: 'slow@example.com' }))
    const intruder = await signInByEmail(testApp, 'intruder@example.com')
    const intruderFactor = await enrol(intruder, await stepUpBy({ email: 'intruder@example.com' }))
    nextStep()
    const { answer } = await signInWithCode('slow@example.com')
    const { encryptedPayload } = answer as MfaRequired
    // The intruder's own factor and code do not complete the owner's sign-in.
    const foreign = await validate({
      encryptedPayload,
      multiFactors: [
        {
          multiFactorId: intruderFactor.multiFactorId,
          multiFactorCode: codeFor(intruderFactor.multiFactorSecret),
        },
      ],
    })
    expect(foreign.statusCode).toBe(422)
    // Nor can the intruder delete the owner's factor.
    const deleted = await postStamped(testApp, 'auth-delete-multi-factors', intruder, {
      type: 'ACTIVITY_TYPE_DELETE_MFAS',
      parameters: {
        multiFactorIds: [enrolment.multiFactorId],
        stepUp: {
          ...(await stepUpBy({ email: 'intruder@example.com' })),
          totpCode: codeFor(intruderFactor.multiFactorSecret),
        },
      },
    })
    expect(deleted.json().multiFactors).toEqual([
      expect.objectContaining({ multiFactorId: intruderFactor.multiFactorId }),
    ])

    testApp.clock.advance(5 * 60_000 + 1000)
    const late = await validate({
      encryptedPayload,
      multiFactors: [
        { multiFactorId: enrolment.multiFactorId, multiFactorCode: codeFor(enrolment.multiFactorSecret) },
      ],
    })
    expect(late.statusCode).toBe(401)
  })

  it('tells the owner when two-step verification is turned on or off (docs/signer.md#security-notices)', async () => {
    const client = await signInByEmail(testApp, 'noticed@example.com')
    const enrolProof = await stepUpBy({ email: 'noticed@example.com' })
    const mailsBefore = testApp.delivery.emails.length
    const enrolment = await enrol(client, enrolProof)
    const on = testApp.delivery.emails.slice(mailsBefore)
    expect(on.map((mail) => [mail.to, mail.subject])).toEqual([
      ['noticed@example.com', 'Two-step verification was turned on for your Quick Links account'],
    ])
    expect(on[0]?.text).toContain('Settings → Two-step verification')
    expect(on[0]?.text).not.toMatch(/https?:|otpauth:/)
    expect(on[0]?.text).not.toContain(enrolment.multiFactorSecret)

    // Removing it is told too; a delivery that fails leaves the factor in place.
    nextStep()
    const failedProof = {
      ...(await stepUpBy({ email: 'noticed@example.com' })),
      totpCode: codeFor(enrolment.multiFactorSecret),
    }
    const sendEmail = testApp.delivery.sendEmail
    testApp.delivery.sendEmail = async () => {
      throw new AppError('UPSTREAM_FAILED', {
        userMessage: 'We could not send the e-mail. Try again shortly.',
      })
    }
    try {
      const failed = await postStamped(testApp, 'auth-delete-multi-factors', client, {
        type: 'ACTIVITY_TYPE_DELETE_MFAS',
        parameters: { multiFactorIds: [enrolment.multiFactorId], stepUp: failedProof },
      })
      expect(failed.statusCode).toBe(502)
    } finally {
      testApp.delivery.sendEmail = sendEmail
    }
    // Past the address's 3 sends in 3 minutes, and into a new authenticator step.
    testApp.clock.advance(3 * 60_000 + 1000)
    const offProof = {
      ...(await stepUpBy({ email: 'noticed@example.com' })),
      totpCode: codeFor(enrolment.multiFactorSecret),
    }
    const offBefore = testApp.delivery.emails.length
    const deleted = await postStamped(testApp, 'auth-delete-multi-factors', client, {
      type: 'ACTIVITY_TYPE_DELETE_MFAS',
      parameters: { multiFactorIds: [enrolment.multiFactorId], stepUp: offProof },
    })
    expect(deleted.json()).toEqual({ multiFactors: [] })
    expect(testApp.delivery.emails.slice(offBefore).map((mail) => [mail.to, mail.subject])).toEqual([
      ['noticed@example.com', 'Two-step verification was turned off for your Quick Links account'],
    ])
  })

  it('delete removes the factor: sign-in by code alone again', async () => {
    const client = await signInByEmail(testApp, 'removes@example.com')
    const enrolment = await enrol(client, await stepUpBy({ email: 'removes@example.com' }))
    expect((await signInWithCode('removes@example.com')).answer).toHaveProperty('status', 'MFA_REQUIRED')
    // Past the address's 3 sends in 3 minutes, and into a new authenticator step.
    testApp.clock.advance(3 * 60_000 + 1000)
    const proof = await stepUpBy({ email: 'removes@example.com' })
    // With a factor on, the code to the e-mail is not enough: the app's code is asked too.
    const withoutCode = await postStamped(testApp, 'auth-delete-multi-factors', client, {
      type: 'ACTIVITY_TYPE_DELETE_MFAS',
      parameters: { multiFactorIds: [enrolment.multiFactorId], stepUp: proof },
    })
    expect(withoutCode.statusCode).toBe(403)
    expect(withoutCode.json().error.details.reason).toBe('STEP_UP_TOTP_REQUIRED')
    const deleted = await postStamped(testApp, 'auth-delete-multi-factors', client, {
      type: 'ACTIVITY_TYPE_DELETE_MFAS',
      parameters: {
        multiFactorIds: [enrolment.multiFactorId],
        stepUp: { ...proof, totpCode: codeFor(enrolment.multiFactorSecret) },
      },
    })
    expect(deleted.statusCode).toBe(200)
    expect(deleted.json()).toEqual({ multiFactors: [] })
    expect((await signInWithCode('removes@example.com')).answer).toHaveProperty('credentialBundle')
  })

  it('a contact change or removal on an account with a factor needs the app’s code beside the contacts’ codes', async () => {
    const email = 'contact-totp@example.com'
    const phone = '+442079460055'
    const client = await signInByEmail(testApp, email)
    const enrolment = await enrol(client, await stepUpBy({ email }))
    nextStep()
    // A first phone, proven by its own code and confirmed by a code to the e-mail.
    const addPhone = async (stepUp?: { totpCode: string }) =>
      postStamped(testApp, 'update-phone-auth', client, {
        type: 'ACTIVITY_TYPE_UPDATE_PHONE_AUTH',
        parameters: {
          phone,
          verificationToken: phoneProof,
          previousContactVerificationToken: emailProof,
          ...(stepUp === undefined ? {} : { stepUp }),
        },
      })
    const phoneProof = await proveContact(testApp, { phone })
    const emailProof = await proveContact(testApp, { email })
    const withoutApp = await addPhone()
    expect(withoutApp.statusCode).toBe(403)
    expect(withoutApp.json().error.details.reason).toBe('STEP_UP_TOTP_REQUIRED')
    const wrongApp = await addPhone({ totpCode: codeFor(enrolment.multiFactorSecret, 10) })
    expect(wrongApp.json().error.details.reason).toBe('STEP_UP_TOTP_REFUSED')
    // The refusals spent neither contact's proof: with the app's code the same proofs add the phone.
    const added = await addPhone({ totpCode: codeFor(enrolment.multiFactorSecret) })
    expect(added.statusCode).toBe(200)
    expect(added.json().phone).toBe(phone)

    nextStep()
    const removalProof = await proveContact(testApp, { phone })
    const remove = (stepUp?: { totpCode: string }) =>
      postStamped(testApp, 'remove-phone-auth', client, {
        type: 'ACTIVITY_TYPE_REMOVE_PHONE_AUTH',
        parameters: { verificationToken: removalProof, ...(stepUp === undefined ? {} : { stepUp }) },
      })
    const refused = await remove()
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error.details.reason).toBe('STEP_UP_TOTP_REQUIRED')
    const removed = await remove({ totpCode: codeFor(enrolment.multiFactorSecret) })
    expect(removed.statusCode).toBe(200)
    expect(removed.json().phone ?? null).toBeNull()
  })

  it('an SMS code of an account with a factor answers MFA_REQUIRED, and the code completes it', async () => {
    const phone = '+442079460077'
    async function smsSignIn() {
      const frame = createFrameKey()
      const auth = await testApp.post('auth', { phone, targetPublicKey: frame.targetPublicKey })
      expect(auth.statusCode).toBe(200)
      const otp = await testApp.post('otp', {
        orgId: auth.json().orgId,
        otpId: auth.json().otpId,
        otpCode: readCode(testApp.delivery.sms.at(-1)?.body ?? ''),
        targetPublicKey: frame.targetPublicKey,
      })
      expect(otp.statusCode).toBe(200)
      return { frame, answer: otp.json() }
    }
    const first = await smsSignIn()
    const session = await decryptCredentialBundle({
      bundle: first.answer.credentialBundle,
      embeddedPrivateKey: first.frame.privateKey,
    })
    const client: SignedInClient = {
      orgId: first.answer.orgId,
      sessionPrivateKey: session.privateKey,
      sessionPublicKey: session.publicKey,
      isNewUser: true,
    }
    const enrolment = await enrol(client, await stepUpBy({ phone }))
    const { frame, answer } = await smsSignIn()
    expect(answer).toMatchObject({ status: 'MFA_REQUIRED', orgId: client.orgId })
    const done = await validate({
      encryptedPayload: answer.encryptedPayload,
      multiFactors: [
        { multiFactorId: enrolment.multiFactorId, multiFactorCode: codeFor(enrolment.multiFactorSecret, 1) },
      ],
      targetPublicKey: frame.targetPublicKey,
    })
    expect(done.statusCode).toBe(200)
    expect(done.json().orgId).toBe(client.orgId)
  })

  it('a magic link of an account with a factor answers MFA_REQUIRED too', async () => {
    const client = await signInByEmail(testApp, 'linked@example.com')
    await enrol(client, await stepUpBy({ email: 'linked@example.com' }))
    const frame = createFrameKey()
    const auth = await testApp.post('auth', {
      email: 'linked@example.com',
      emailMode: 'magicLink',
      targetPublicKey: frame.targetPublicKey,
    })
    const link = /https?:\/\/\S+/.exec(testApp.delivery.emails.at(-1)?.text ?? '')?.[0] ?? ''
    const token = new URL(link).searchParams.get('bundle')
    const opened = await testApp.post('magic-link', {
      orgId: auth.json().orgId,
      token,
      targetPublicKey: frame.targetPublicKey,
    })
    expect(opened.statusCode).toBe(200)
    expect(opened.json()).toMatchObject({ status: 'MFA_REQUIRED', orgId: client.orgId })
    expect(opened.json()).not.toHaveProperty('credentialBundle')
  })
})
