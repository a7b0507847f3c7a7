import { AppError } from '@quicklinks/core/app-error'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  postStamped,
  readCode,
  type SignedInClient,
  type SignerTestApp,
  signInByEmail,
} from '../../test/build-signer-test-app.ts'

describe('remove-email-auth and remove-phone-auth', () => {
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

  const removeEmail = (client: SignedInClient, parameters: Record<string, unknown>) =>
    postStamped(testApp, 'remove-email-auth', client, { type: 'ACTIVITY_TYPE_REMOVE_EMAIL_AUTH', parameters })
  const removePhone = (client: SignedInClient, parameters: Record<string, unknown>) =>
    postStamped(testApp, 'remove-phone-auth', client, { type: 'ACTIVITY_TYPE_REMOVE_PHONE_AUTH', parameters })
  const listMethods = async (client: SignedInClient) =>
    (
      await postStamped(testApp, 'list-auth-methods', client, { type: 'ACTIVITY_TYPE_LIST_AUTH_METHODS' })
    ).json()

  it('refuses to remove the only way to sign in, and the proof stays good for later', async () => {
    const client = await signInByEmail(testApp, 'only@example.com')
    const proof = await verifyContact('OTP_TYPE_EMAIL', 'only@example.com')
    const refused = await removeEmail(client, { verificationToken: proof })
    expect(refused.statusCode).toBe(409)
    expect(refused.json().error.message).toBe(
      'This is your only way to sign in. Add another one before you remove it.',
    )
    expect((await listMethods(client)).email).toBe('only@example.com')
    expect((await testApp.post('lookup', { email: 'only@example.com' })).json().orgId).toBe(client.orgId)

    // With a phone added, the same proof (not spent by the refusal) takes the e-mail off.
    const phoneToken = await verifyContact('OTP_TYPE_SMS', '+14155550111')
    const added = await postStamped(testApp, 'update-phone-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_PHONE_AUTH',
      parameters: {
        phone: '+14155550111',
        verificationToken: phoneToken,
        // A first phone is a new way in: the step-up is a code to the account's e-mail.
        previousContactVerificationToken: await verifyContact('OTP_TYPE_EMAIL', 'only@example.com'),
      },
    })
    expect(added.statusCode).toBe(200)
    const removed = await removeEmail(client, { verificationToken: proof })
    expect(removed.statusCode).toBe(200)
    expect(removed.json()).toMatchObject({ email: null, phone: '+14155550111' })

    // Now the phone is the last way in.
    const phoneProof = await verifyContact('OTP_TYPE_SMS', '+14155550111')
    const last = await removePhone(client, { verificationToken: phoneProof })
    expect(last.statusCode).toBe(409)
    expect((await listMethods(client)).phone).toBe('+14155550111')
  })

  it('needs a proof of the contact itself: none, another address’s, or a spent one is refused', async () => {
    const client = await signInByEmail(testApp, 'owner2@example.com')
    const elsewhere = await signInByEmail(testApp, 'owner2@example.com')
    const phoneToken = await verifyContact('OTP_TYPE_SMS', '+14155550122')
    await postStamped(testApp, 'update-phone-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_PHONE_AUTH',
      parameters: {
        phone: '+14155550122',
        verificationToken: phoneToken,
        // A first phone is a new way in: the step-up is a code to the account's e-mail.
        previousContactVerificationToken: await verifyContact('OTP_TYPE_EMAIL', 'owner2@example.com'),
      },
    })

    expect((await removeEmail(client, {})).statusCode).toBe(422)
    // A token for an address the attacker reads is not a proof of the owner's.
    const attackerToken = await verifyContact('OTP_TYPE_EMAIL', 'attacker@example.com')
    const wrong = await removeEmail(client, { verificationToken: attackerToken })
    expect(wrong.statusCode).toBe(401)
    expect(wrong.json().error.details).toMatchObject({ reason: 'VERIFICATION_REFUSED' })
    // Nor is the phone's token a proof for the e-mail.
    const phoneProof = await verifyContact('OTP_TYPE_SMS', '+14155550122')
    expect((await removeEmail(client, { verificationToken: phoneProof })).statusCode).toBe(401)
    expect((await listMethods(client)).email).toBe('owner2@example.com')

    testApp.clock.advance(181_000) // past the 3-sends-per-3-minutes limit of this address
    const proof = await verifyContact('OTP_TYPE_EMAIL', 'owner2@example.com')
    const removed = await removeEmail(client, { verificationToken: proof })
    expect(removed.statusCode).toBe(200)
    expect(await listMethods(client)).toMatchObject({ email: null, phone: '+14155550122' })
    // The address no longer leads to this account, and the other session was ended.
    testApp.clock.advance(181_000) // past the 3-sends-per-3-minutes limit of this address
    expect((await signInByEmail(testApp, 'owner2@example.com')).isNewUser).toBe(true)
    const ended = await postStamped(testApp, 'whoami', elsewhere, { type: 'ACTIVITY_TYPE_WHOAMI' })
    expect(ended.statusCode).toBe(401)

    const again = await removeEmail(client, { verificationToken: proof })
    expect(again.statusCode).toBe(404)
    expect(again.json().error.message).toBe('Your account has no e-mail address to remove.')
  })

  it('tells the removed contact and the one left (docs/signer.md#security-notices); no notice, no removal', async () => {
    const client = await signInByEmail(testApp, 'told@example.com')
    const phoneToken = await verifyContact('OTP_TYPE_SMS', '+14155550133')
    await postStamped(testApp, 'update-phone-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_PHONE_AUTH',
      parameters: {
        phone: '+14155550133',
        verificationToken: phoneToken,
        // A first phone is a new way in: the step-up is a code to the account's e-mail.
        previousContactVerificationToken: await verifyContact('OTP_TYPE_EMAIL', 'told@example.com'),
      },
    })

    // The text to the phone cannot be handed over: the e-mail stays, and its proof stays good.
    const proof = await verifyContact('OTP_TYPE_EMAIL', 'told@example.com')
    const sendSms = testApp.delivery.sendSms
    testApp.delivery.sendSms = async () => {
      throw new AppError('UPSTREAM_FAILED', { userMessage: 'We could not send the text message.' })
    }
    try {
      const failed = await removeEmail(client, { verificationToken: proof })
      expect(failed.statusCode).toBe(502)
    } finally {
      testApp.delivery.sendSms = sendSms
    }
    expect((await listMethods(client)).email).toBe('told@example.com')

    const mailsBefore = testApp.delivery.emails.length
    const smsBefore = testApp.delivery.sms.length
    expect((await removeEmail(client, { verificationToken: proof })).statusCode).toBe(200)
    const [mail] = testApp.delivery.emails.slice(mailsBefore).filter((sent) => sent.to === 'told@example.com')
    expect(mail?.subject).toBe('Your e-mail address was removed from your Quick Links account')
    expect(mail?.text).toContain('The e-mail address told@example.com was removed')
    expect(mail?.text).not.toMatch(/https?:/)
    const texts = testApp.delivery.sms.slice(smsBefore)
    expect(texts.map((text) => text.to)).toEqual(['+14155550133'])
    expect(texts[0]?.body).toContain(
      'The e-mail address to…@example.com was removed from your Quick Links account',
    )
  })
})
