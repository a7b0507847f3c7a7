import { AppError } from '@quicklinks/core/app-error'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  createFrameKey,
  postStamped,
  readCode,
  type SignedInClient,
  type SignerTestApp,
  signInByEmail,
} from '../../test/build-signer-test-app.ts'
import { decryptCredentialBundle } from '../bundles/decrypt-credential-bundle.ts'

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const sendLimitBody = {
  error: {
    code: 'RATE_LIMITED',
    message: 'Too many codes were sent to this address. Wait 3 minutes, then try again.',
    details: { retryAfterSeconds: expect.any(Number) },
  },
}
const expiredBody = {
  error: { code: 'OTP_EXPIRED', message: 'This code no longer works. Request a new code.' },
}

describe('signer sign-in routes', () => {
  let testApp: SignerTestApp
  afterEach(async () => {
    await testApp.close()
  })

  async function startEmailAuth(email: string, frame = createFrameKey()) {
    const response = await testApp.post('auth', {
      email,
      emailMode: 'otp',
      targetPublicKey: frame.targetPublicKey,
    })
    expect(response.statusCode).toBe(200)
    const { orgId, otpId } = response.json<{ orgId: string; otpId: string }>()
    return { orgId, otpId, frame, code: readCode(testApp.delivery.emails.at(-1)?.text ?? '') }
  }

  function whoami(client: SignedInClient) {
    return postStamped(testApp, 'whoami', client, { type: 'ACTIVITY_TYPE_WHOAMI' })
  }

  it('signs a new user in with the mailed code: the bundle opens with the frame key and whoami gives the address', async () => {
    testApp = await buildSignerTestApp()
    const { orgId, otpId, frame, code } = await startEmailAuth(' New.User@Example.COM ')
    expect(orgId).toMatch(uuidPattern)
    expect(testApp.delivery.emails).toHaveLength(1)
    const mail = testApp.delivery.emails[0]
    expect(mail?.to).toBe('new.user@example.com')
    expect(mail?.subject).toBe('Your Quick Links sign-in code')
    expect(mail?.html).toContain(code)
    expect(mail?.html).toContain('Quick Links')
    expect(mail?.text).toContain('This code expires in 10 minutes.')
    expect(mail?.text).toContain('If you did not ask for this, ignore this e-mail')

    const otp = await testApp.post('otp', {
      orgId,
      otpId,
      otpCode: code,
      targetPublicKey: frame.targetPublicKey,
    })
    expect(otp.statusCode).toBe(200)
    const { credentialBundle, isNewUser } = otp.json()
    expect(isNewUser).toBe(true)
    const session = await decryptCredentialBundle({
      bundle: credentialBundle,
      embeddedPrivateKey: frame.privateKey,
    })

    const me = await whoami({
      orgId,
      sessionPrivateKey: session.privateKey,
      sessionPublicKey: session.publicKey,
      isNewUser,
    })
    expect(me.statusCode).toBe(200)
    expect(me.json()).toEqual({
      orgId,
      userId: expect.stringMatching(uuidPattern),
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      solanaAddress: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/),
      email: 'new.user@example.com',
      phone: null,
      walletId: expect.stringMatching(uuidPattern),
    })
  })

  it('signs a returning user in to the same wallet, not as a new user', async () => {
    testApp = await buildSignerTestApp()
    const first = await signInByEmail(testApp, 'back@example.com')
    const second = await signInByEmail(testApp, 'BACK@example.com')
    expect(second.orgId).toBe(first.orgId)
    expect(second.isNewUser).toBe(false)
    expect((await whoami(second)).json().address).toBe((await whoami(first)).json().address)
  })

  it('mails a magic link whose bundle opens with the frame key, plus a code; both sign in to one account', async () => {
    testApp = await buildSignerTestApp()
    const frame = createFrameKey()
    const auth = await testApp.post('auth', {
      email: 'link@example.com',
      emailMode: 'magicLink',
      targetPublicKey: frame.targetPublicKey,
      redirectParams: 'next=%2Fdashboard&orgId=forged',
    })
    expect(auth.statusCode).toBe(200)
    const { orgId, otpId } = auth.json()
    const mail = testApp.delivery.emails.at(-1)
    expect(mail?.subject).toBe('Your Quick Links sign-in link')
    const href = /href="([^"]+)"/.exec(mail?.html ?? '')?.[1]?.replaceAll('&amp;', '&')
    const link = new URL(href ?? '')
    expect(link.origin + link.pathname).toBe('http://localhost:3999/login')
    expect(link.searchParams.get('orgId')).toBe(orgId)
    expect(link.searchParams.getAll('orgId')).toHaveLength(1)
    expect(link.searchParams.get('next')).toBe('/dashboard')
    expect(mail?.text).toContain(link.toString())

    const session = await decryptCredentialBundle({
      bundle: link.searchParams.get('bundle') ?? '',
      embeddedPrivateKey: frame.privateKey,
    })
    const fromLink = {
      orgId,
      sessionPrivateKey: session.privateKey,
      sessionPublicKey: session.publicKey,
      isNewUser: true,
    }
    const me = await whoami(fromLink)
    expect(me.statusCode).toBe(200)
    expect(me.json().email).toBe('link@example.com')

    // The same mail's code works too; the account was created for the link, so the user is new.
    const otp = await testApp.post('otp', {
      orgId,
      otpId,
      otpCode: readCode(mail?.text ?? ''),
      targetPublicKey: frame.targetPublicKey,
    })
    expect(otp.statusCode).toBe(200)
    expect(otp.json().isNewUser).toBe(true)
  })

  it('signs in by SMS code, normalising the number to E.164', async () => {
    testApp = await buildSignerTestApp()
    const frame = createFrameKey()
    const auth = await testApp.post('auth', {
      phone: '+1 (415) 555-0123',
      targetPublicKey: frame.targetPublicKey,
    })
    expect(auth.statusCode).toBe(200)
    const { orgId, otpId } = auth.json()
    expect(testApp.delivery.emails).toHaveLength(0)
    const sms = testApp.delivery.sms.at(-1)
    expect(sms?.to).toBe('+14155550123')
    expect(sms?.body).toMatch(/^Your Quick Links code is \d{6}\. It expires in 10 minutes\.$/)

    const otp = await testApp.post('otp', {
      orgId,
      otpId,
      otpCode: readCode(sms?.body ?? ''),
      targetPublicKey: frame.targetPublicKey,
    })
    expect(otp.statusCode).toBe(200)
    const session = await decryptCredentialBundle({
      bundle: otp.json().credentialBundle,
      embeddedPrivateKey: frame.privateKey,
    })
    const me = await whoami({
      orgId,
      sessionPrivateKey: session.privateKey,
      sessionPublicKey: session.publicKey,
      isNewUser: true,
    })
    expect(me.json()).toMatchObject({ orgId, phone: '+14155550123', email: null })
  })

  it('lookup answers a same-shaped, stable orgId for unknown and known contacts, and signup reveals nothing', async () => {
    testApp = await buildSignerTestApp()
    const unknown = await testApp.post('lookup', { email: 'nobody@example.com' })
    expect(unknown.statusCode).toBe(200)
    expect(unknown.json().orgId).toMatch(uuidPattern)
    expect((await testApp.post('lookup', { email: 'NOBODY@example.com' })).json()).toEqual(unknown.json())
    expect((await testApp.post('lookup', { email: 'other@example.com' })).json().orgId).not.toBe(
      unknown.json().orgId,
    )

    const before = (await testApp.post('lookup', { email: 'member@example.com' })).json().orgId
    const member = await signInByEmail(testApp, 'member@example.com')
    const after = (await testApp.post('lookup', { email: 'member@example.com' })).json().orgId
    // The account took the id lookup gave before it existed: nothing changes when someone signs up.
    expect(after).toBe(before)
    expect(member.orgId).toBe(after)
    expect(after).toMatch(uuidPattern)

    const frame = createFrameKey()
    const forMember = await testApp.post('signup', {
      email: 'member@example.com',
      targetPublicKey: frame.targetPublicKey,
    })
    const forStranger = await testApp.post('signup', {
      email: 'stranger@example.com',
      targetPublicKey: frame.targetPublicKey,
    })
    expect(forMember.statusCode).toBe(200)
    expect(forStranger.statusCode).toBe(200)
    expect(Object.keys(forMember.json()).sort()).toEqual(['orgId', 'otpId'])
    expect(Object.keys(forStranger.json()).sort()).toEqual(['orgId', 'otpId'])
    expect(forMember.json().orgId).toBe(after)
    expect(forStranger.json().orgId).toBe(
      (await testApp.post('lookup', { email: 'stranger@example.com' })).json().orgId,
    )
    expect(testApp.delivery.emails.map((mail) => mail.to).slice(-2)).toEqual([
      'member@example.com',
      'stranger@example.com',
    ])
    // No account was made for the stranger by asking for a code.
    const users = await testApp.database.db.execute<{ count: number }>(
      sql`select count(*)::int as count from signer_users where email = 'stranger@example.com'`,
    )
    expect(users.rows[0]?.count).toBe(0)
  })

  it('kills a code at the third wrong try: the right code then fails with OTP_EXPIRED', async () => {
    testApp = await buildSignerTestApp()
    const { orgId, otpId, frame, code } = await startEmailAuth('typo@example.com')
    const wrong = code === '000000' ? '111111' : '000000'
    const attempt = (otpCode: string) =>
      testApp.post('otp', { orgId, otpId, otpCode, targetPublicKey: frame.targetPublicKey })

    const first = await attempt(wrong)
    expect(first.statusCode).toBe(401)
    expect(first.json()).toEqual({
      error: {
        code: 'OTP_INVALID',
        message: 'That code is not right. You have 2 tries left.',
        details: { triesLeft: 2 },
      },
    })
    expect((await attempt(wrong)).json().error.message).toBe('That code is not right. You have 1 try left.')
    const third = await attempt(wrong)
    expect(third.statusCode).toBe(401)
    expect(third.json()).toEqual(expiredBody)
    const right = await attempt(code)
    expect(right.statusCode).toBe(401)
    expect(right.json()).toEqual(expiredBody)
  })

  it('refuses a code after 10 minutes, and a code used once', async () => {
    testApp = await buildSignerTestApp()
    const late = await startEmailAuth('late@example.com')
    testApp.clock.advance(10 * 60_000 + 1_000)
    const expired = await testApp.post('otp', {
      orgId: late.orgId,
      otpId: late.otpId,
      otpCode: late.code,
      targetPublicKey: late.frame.targetPublicKey,
    })
    expect(expired.statusCode).toBe(401)
    expect(expired.json()).toEqual(expiredBody)

    const once = await startEmailAuth('once@example.com')
    const body = {
      orgId: once.orgId,
      otpId: once.otpId,
      otpCode: once.code,
      targetPublicKey: once.frame.targetPublicKey,
    }
    expect((await testApp.post('otp', body)).statusCode).toBe(200)
    const again = await testApp.post('otp', body)
    expect(again.statusCode).toBe(401)
    expect(again.json()).toEqual(expiredBody)
  })

  it('refuses a fourth code to one contact within 3 minutes with a clear message, and sends again after', async () => {
    testApp = await buildSignerTestApp()
    const frame = createFrameKey()
    const send = (email: string) =>
      testApp.post('auth', { email, emailMode: 'otp', targetPublicKey: frame.targetPublicKey })
    for (let index = 0; index < 3; index += 1) expect((await send('busy@example.com')).statusCode).toBe(200)

    const fourth = await send('Busy@Example.com')
    expect(fourth.statusCode).toBe(429)
    expect(fourth.json()).toEqual(sendLimitBody)
    expect(fourth.json().error.details.retryAfterSeconds).toBeLessThanOrEqual(180)
    expect(testApp.delivery.emails).toHaveLength(3)
    // Another contact is not held back, and init-otp shares the contact's count.
    expect((await send('calm@example.com')).statusCode).toBe(200)
    const verify = await testApp.post('init-otp', { otpType: 'OTP_TYPE_EMAIL', contact: 'busy@example.com' })
    expect(verify.statusCode).toBe(429)

    testApp.clock.advance(3 * 60_000 + 1_000)
    expect((await send('busy@example.com')).statusCode).toBe(200)
  })

  it('forgets a code it could not deliver, so it neither works nor counts against the limit', async () => {
    testApp = await buildSignerTestApp()
    testApp.delivery.sendEmail = async () => {
      throw new AppError('UPSTREAM_FAILED', {
        userMessage: 'We could not send the e-mail. Try again shortly.',
      })
    }
    const frame = createFrameKey()
    for (let index = 0; index < 4; index += 1) {
      const response = await testApp.post('auth', {
        email: 'bounce@example.com',
        targetPublicKey: frame.targetPublicKey,
      })
      expect(response.statusCode).toBe(502)
      expect(response.json().error.message).toBe('We could not send the e-mail. Try again shortly.')
    }
    const codes = await testApp.database.db.execute<{ count: number }>(
      sql`select count(*)::int as count from signer_otps where contact = 'bounce@example.com'`,
    )
    expect(codes.rows[0]?.count).toBe(0)
  })

  it('limits lookups per IP', async () => {
    testApp = await buildSignerTestApp()
    const lookup = (remoteAddress: string) =>
      testApp.post('lookup', { email: 'someone@example.com' }, { remoteAddress })
    for (let index = 0; index < 60; index += 1) expect((await lookup('198.51.100.7')).statusCode).toBe(200)
    const refused = await lookup('198.51.100.7')
    expect(refused.statusCode).toBe(429)
    expect(refused.json().error.code).toBe('RATE_LIMITED')
    expect((await lookup('198.51.100.8')).statusCode).toBe(200)
  })

  it('answers 422 naming the field for a bad contact or target key', async () => {
    testApp = await buildSignerTestApp()
    const frame = createFrameKey()
    const badEmail = await testApp.post('auth', {
      email: 'not-an-email',
      targetPublicKey: frame.targetPublicKey,
    })
    expect(badEmail.statusCode).toBe(422)
    expect(badEmail.json().error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'email' })
    const badPhone = await testApp.post('auth', { phone: '555-0123', targetPublicKey: frame.targetPublicKey })
    expect(badPhone.json().error).toMatchObject({ field: 'phone' })
    const neither = await testApp.post('lookup', {})
    expect(neither.statusCode).toBe(422)
    const { orgId, otpId, code } = await startEmailAuth('keys@example.com')
    const badKey = await testApp.post('otp', {
      orgId,
      otpId,
      otpCode: code,
      targetPublicKey: `02${'ab'.repeat(32)}`,
    })
    expect(badKey.statusCode).toBe(422)
    expect(badKey.json().error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'targetPublicKey' })
  })

  it('keeps CSRF protection when mounted: a POST without the header is 403', async () => {
    testApp = await buildSignerTestApp()
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/signer/v1/lookup',
      cookies: { csrf_token: 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA' },
      payload: { email: 'someone@example.com' },
    })
    expect(response.statusCode).toBe(403)
    expect(response.json().error.code).toBe('CSRF_INVALID')
  })
})
