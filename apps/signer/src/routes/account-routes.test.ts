import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  postStamped,
  readCode,
  type SignedInClient,
  type SignerTestApp,
  signInByEmail,
} from '../../test/build-signer-test-app.ts'
import { parseP256PublicKey } from '../keys/parse-p256-public-key.ts'

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

    const update = await postStamped(testApp, 'update-email-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_EMAIL_AUTH',
      parameters: { email: 'owner.new@example.com', verificationToken },
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

  it('update-phone-auth adds a verified phone, which then signs in by SMS to the same account', async () => {
    const verificationToken = await verifyContact('OTP_TYPE_SMS', '+44 20 7946 0018')
    const update = await postStamped(testApp, 'update-phone-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_PHONE_AUTH',
      parameters: { phone: '+442079460018', verificationToken },
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
