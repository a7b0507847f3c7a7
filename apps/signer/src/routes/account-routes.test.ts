import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  buildStampedBody,
  postStamped,
  readCode,
  type SignedInClient,
  type SignerTestApp,
  signInByEmail,
  stampRequest,
} from '../../test/build-signer-test-app.ts'
import { parseP256PublicKey } from '../crypto/keys/parse-p256-public-key.ts'

describe('signer-config and account routes', () => {
  let testApp: SignerTestApp
  let client: SignedInClient
  beforeAll(async () => {
    testApp = await buildSignerTestApp()
    client = await signInByEmail(testApp, 'owner@example.com')
  })
  afterAll(async () => {
    await testApp.close()
  })

  async function verifyContact(otpType: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS', contact: string): Promise<string> {
    const init = await testApp.post('init-otp', { otpType, contact })
    expect(init.statusCode).toBe(200)
    const sent =
      otpType === 'OTP_TYPE_EMAIL' ? testApp.delivery.emails.at(-1)?.text : testApp.delivery.sms.at(-1)?.body
    const verify = await testApp.post('verify-otp', {
      otpId: init.json().otpId,
      otpCode: readCode(sent ?? ''),
    })
    expect(verify.statusCode).toBe(200)
    return verify.json().verificationToken
  }

  it('signer-config gives the frames, the pinned export key, the session length and the sign-in methods', async () => {
    const response = await testApp.post('signer-config', {})
    expect(response.statusCode).toBe(200)
    const config = response.json()
    expect(config).toEqual({
      framesOrigin: 'http://localhost:3998',
      authFrameUrl: 'http://localhost:3998/auth-frame',
      exportFrameUrl: 'http://localhost:3998/export-frame',
      exportSignerPublicKey: expect.stringMatching(/^04[0-9a-f]{128}$/),
      sessionExpirationSeconds: 900,
      authMethods: ['email', 'sms'],
      authProviders: [],
      oauthCallbackUrl: 'http://localhost:3999/signer/v1/oauth-callback',
    })
    expect(parseP256PublicKey(config.exportSignerPublicKey, 'uncompressed')).toBeDefined()
    // The key is the service's, stable across calls.
    expect((await testApp.post('signer-config', {})).json().exportSignerPublicKey).toBe(
      config.exportSignerPublicKey,
    )
  })

  it('offers only e-mail when no SMS provider is configured', async () => {
    const withoutSms = await buildSignerTestApp({ sms: { provider: 'none' } })
    try {
      expect((await withoutSms.post('signer-config', {})).json().authMethods).toEqual(['email'])
    } finally {
      await withoutSms.close()
    }
  })

  it('verify-otp mints a token naming the contact, and update-email-auth moves the account to it once', async () => {
    const verificationToken = await verifyContact('OTP_TYPE_EMAIL', 'Owner.New@Example.com')
    const payload = JSON.parse(
      Buffer.from(verificationToken.split('.')[1] ?? '', 'base64url').toString('utf8'),
    )
    expect(payload).toMatchObject({ contact: 'owner.new@example.com', channel: 'email' })

    // The account has an e-mail already: the change needs a code from that address too.
    const withoutOld = await postStamped(testApp, 'update-email-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_EMAIL_AUTH',
      parameters: { email: 'owner.new@example.com', verificationToken },
    })
    expect(withoutOld.statusCode).toBe(403)
    expect(withoutOld.json().error.message).toBe(
      'Confirm your current e-mail address first: enter the code sent to it.',
    )
    const previousContactVerificationToken = await verifyContact('OTP_TYPE_EMAIL', 'owner@example.com')
    const update = await postStamped(testApp, 'update-email-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_EMAIL_AUTH',
      parameters: { email: 'owner.new@example.com', verificationToken, previousContactVerificationToken },
    })
    expect(update.statusCode).toBe(200)
    expect(update.json()).toMatchObject({ orgId: client.orgId, email: 'owner.new@example.com' })
    expect((await testApp.post('lookup', { email: 'owner.new@example.com' })).json().orgId).toBe(client.orgId)

    const methods = await postStamped(testApp, 'list-auth-methods', client, {
      type: 'ACTIVITY_TYPE_LIST_AUTH_METHODS',
    })
    expect(methods.json()).toEqual({
      email: 'owner.new@example.com',
      phone: null,
      oauthProviders: [],
      passkeys: [],
    })

    const reused = await postStamped(testApp, 'update-email-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_EMAIL_AUTH',
      parameters: { email: 'owner.new@example.com', verificationToken },
    })
    expect(reused.statusCode).toBe(401)
    // The new address now signs in to the same account.
    expect((await signInByEmail(testApp, 'owner.new@example.com')).orgId).toBe(client.orgId)
  })

  it('update-phone-auth adds a first phone with its own code and one to the e-mail (the step-up), which then signs in by SMS to the same account', async () => {
    const verificationToken = await verifyContact('OTP_TYPE_SMS', '+44 20 7946 0018')
    // A first phone is a new way in: the new number's code alone is no re-authentication.
    const alone = await postStamped(testApp, 'update-phone-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_PHONE_AUTH',
      parameters: { phone: '+442079460018', verificationToken },
    })
    expect(alone.statusCode).toBe(403)
    expect(alone.json().error.details.reason).toBe('STEP_UP_REQUIRED')
    const previousContactVerificationToken = await verifyContact('OTP_TYPE_EMAIL', 'owner.new@example.com')
    const update = await postStamped(testApp, 'update-phone-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_PHONE_AUTH',
      parameters: { phone: '+442079460018', verificationToken, previousContactVerificationToken },
    })
    expect(update.statusCode).toBe(200)
    expect(update.json().phone).toBe('+442079460018')
    expect((await testApp.post('lookup', { phone: '+442079460018' })).json().orgId).toBe(client.orgId)
  })

  it('refuses a token for another contact, and a contact that belongs to another account', async () => {
    const token = await verifyContact('OTP_TYPE_EMAIL', 'mine@example.com')
    const mismatch = await postStamped(testApp, 'update-email-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_EMAIL_AUTH',
      parameters: { email: 'someone-else@example.com', verificationToken: token },
    })
    expect(mismatch.statusCode).toBe(401)

    await signInByEmail(testApp, 'taken@example.com')
    const takenToken = await verifyContact('OTP_TYPE_EMAIL', 'taken@example.com')
    const taken = await postStamped(testApp, 'update-email-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_EMAIL_AUTH',
      parameters: { email: 'taken@example.com', verificationToken: takenToken },
    })
    expect(taken.statusCode).toBe(409)
    expect(taken.json().error.message).toBe('That e-mail address belongs to another account.')

    const forged = await postStamped(testApp, 'update-email-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_EMAIL_AUTH',
      parameters: { email: 'mine@example.com', verificationToken: `${token.slice(0, -2)}xx` },
    })
    expect(forged.statusCode).toBe(401)
  })

  it('verify-otp spends codes like sign-in does: a wrong code is OTP_INVALID', async () => {
    const init = await testApp.post('init-otp', {
      otpType: 'OTP_TYPE_EMAIL',
      contact: 'checking@example.com',
    })
    const code = readCode(testApp.delivery.emails.at(-1)?.text ?? '')
    const wrong = await testApp.post('verify-otp', {
      otpId: init.json().otpId,
      otpCode: code === '123456' ? '654321' : '123456',
    })
    expect(wrong.statusCode).toBe(401)
    expect(wrong.json().error.code).toBe('OTP_INVALID')
    const badContact = await testApp.post('init-otp', { otpType: 'OTP_TYPE_SMS', contact: 'not a phone' })
    expect(badContact.statusCode).toBe(422)
    expect(badContact.json().error.field).toBe('contact')
    expect(testApp.delivery.emails.at(-1)?.subject).toBe('Your Quick Links verification code')
  })
})

describe('contact changes and logout end sessions', () => {
  let testApp: SignerTestApp
  beforeAll(async () => {
    testApp = await buildSignerTestApp()
  })
  afterAll(async () => {
    await testApp.close()
  })

  async function verifyContact(otpType: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS', contact: string): Promise<string> {
    const init = await testApp.post('init-otp', { otpType, contact })
    expect(init.statusCode).toBe(200)
    const sent =
      otpType === 'OTP_TYPE_EMAIL' ? testApp.delivery.emails.at(-1)?.text : testApp.delivery.sms.at(-1)?.body
    const verify = await testApp.post('verify-otp', {
      otpId: init.json().otpId,
      otpCode: readCode(sent ?? ''),
    })
    expect(verify.statusCode).toBe(200)
    return verify.json().verificationToken
  }

  const whoami = (client: SignedInClient) =>
    postStamped(testApp, 'whoami', client, { type: 'ACTIVITY_TYPE_WHOAMI' })

  /** The refusal a revoked session key gets: 401, reason KEY_REVOKED, the signer's text. */
  const expectRevoked = async (client: SignedInClient) => {
    const response = await whoami(client)
    expect(response.statusCode).toBe(401)
    expect(response.json().error).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'Your session has ended. Sign in again.',
      details: { reason: 'KEY_REVOKED' },
    })
  }

  it('an e-mail change mails the old address and ends every session but the one that made it', async () => {
    const changing = await signInByEmail(testApp, 'moving@example.com')
    const elsewhere = await signInByEmail(testApp, 'moving@example.com')
    expect((await whoami(elsewhere)).statusCode).toBe(200)
    const verificationToken = await verifyContact('OTP_TYPE_EMAIL', 'moved@example.com')
    const previousContactVerificationToken = await verifyContact('OTP_TYPE_EMAIL', 'moving@example.com')
    const mailsBefore = testApp.delivery.emails.length

    const update = await postStamped(testApp, 'update-email-auth', changing, {
      type: 'ACTIVITY_TYPE_UPDATE_EMAIL_AUTH',
      parameters: { email: 'moved@example.com', verificationToken, previousContactVerificationToken },
    })
    expect(update.statusCode).toBe(200)

    const sent = testApp.delivery.emails.slice(mailsBefore)
    expect(sent.map((mail) => mail.to)).toEqual(['moving@example.com'])
    const [notice] = sent
    expect(notice?.subject).toBe('Your Quick Links sign-in e-mail address was changed')
    expect(notice?.text).toContain(
      'The e-mail address you sign in to Quick Links with was changed to mo…@example.com',
    )
    expect(notice?.text).toContain('Every other device signed in to this account was signed out.')
    expect(notice?.text).not.toContain('moved@example.com')
    expect(notice?.html).toContain('mo…@example.com')

    await expectRevoked(elsewhere)
    const stillIn = await whoami(changing)
    expect(stillIn.statusCode).toBe(200)
    expect(stillIn.json().email).toBe('moved@example.com')
  })

  it('a first phone is announced to the e-mail; changing it needs the old number’s code and texts the old number', async () => {
    const client = await signInByEmail(testApp, 'texting@example.com')
    const firstToken = await verifyContact('OTP_TYPE_SMS', '+14155550101')
    const emailToken = await verifyContact('OTP_TYPE_EMAIL', 'texting@example.com')
    const added = await postStamped(testApp, 'update-phone-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_PHONE_AUTH',
      parameters: {
        phone: '+14155550101',
        verificationToken: firstToken,
        previousContactVerificationToken: emailToken,
      },
    })
    expect(added.statusCode).toBe(200)
    const addedNotice = testApp.delivery.emails.findLast((mail) => mail.to === 'texting@example.com')
    expect(addedNotice?.subject).toBe('A sign-in phone number was added to your Quick Links account')
    expect(addedNotice?.text).toContain(
      'A sign-in phone number (+14…01) was added to your Quick Links account',
    )

    const nextToken = await verifyContact('OTP_TYPE_SMS', '+14155550102')
    const withoutOld = await postStamped(testApp, 'update-phone-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_PHONE_AUTH',
      parameters: { phone: '+14155550102', verificationToken: nextToken },
    })
    expect(withoutOld.statusCode).toBe(403)
    expect(withoutOld.json().error.message).toBe(
      'Confirm your current phone number first: enter the code sent to it.',
    )
    // A token for another number does not stand in for the current one.
    const wrongProof = await postStamped(testApp, 'update-phone-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_PHONE_AUTH',
      parameters: {
        phone: '+14155550102',
        verificationToken: nextToken,
        previousContactVerificationToken: nextToken,
      },
    })
    expect(wrongProof.statusCode).toBe(401)

    const previousContactVerificationToken = await verifyContact('OTP_TYPE_SMS', '+14155550101')
    const smsBefore = testApp.delivery.sms.length
    const changed = await postStamped(testApp, 'update-phone-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_PHONE_AUTH',
      parameters: { phone: '+14155550102', verificationToken: nextToken, previousContactVerificationToken },
    })
    expect(changed.statusCode).toBe(200)
    expect(changed.json().phone).toBe('+14155550102')
    const texts = testApp.delivery.sms.slice(smsBefore)
    expect(texts.map((text) => text.to)).toEqual(['+14155550101'])
    expect(texts[0]?.body).toContain('The phone number you sign in to Quick Links with was changed to +14…02')
    expect((await testApp.post('lookup', { phone: '+14155550102' })).json().orgId).toBe(client.orgId)
  })

  it('revoke-session ends the key that stamps it at once; the user’s other sessions keep working', async () => {
    const leaving = await signInByEmail(testApp, 'leaving@example.com')
    const staying = await signInByEmail(testApp, 'leaving@example.com')
    // A body stamped before the logout and sent after it, as whoever copied the key would.
    const stampedEarlier = stampRequest(
      'whoami',
      leaving.sessionPrivateKey,
      buildStampedBody({
        type: 'ACTIVITY_TYPE_WHOAMI',
        organizationId: leaving.orgId,
        parameters: {},
        timestampMs: testApp.clock.now(),
      }),
    )

    const revoke = await postStamped(testApp, 'revoke-session', leaving, {
      type: 'ACTIVITY_TYPE_REVOKE_SESSION',
    })
    expect(revoke.statusCode).toBe(200)
    expect(revoke.json()).toEqual({ revoked: true })

    await expectRevoked(leaving)
    const late = await testApp.post('whoami', stampedEarlier)
    expect(late.statusCode).toBe(401)
    expect((await whoami(staying)).statusCode).toBe(200)
    // Revoking is itself a stamped call: the dead key cannot even repeat it.
    const again = await postStamped(testApp, 'revoke-session', leaving, {
      type: 'ACTIVITY_TYPE_REVOKE_SESSION',
    })
    expect(again.statusCode).toBe(401)
  })
})
