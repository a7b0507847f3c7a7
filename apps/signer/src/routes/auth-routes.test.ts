import { p256 } from '@noble/curves/nist.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { AppError } from '@quicklinks/core/app-error'
import { createLogger } from '@quicklinks/runtime/create-logger'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  createFrameKey,
  csrfToken,
  postStamped,
  readCode,
  type SignedInClient,
  type SignerTestApp,
  signInByEmail,
} from '../../test/build-signer-test-app.ts'
import { createSignerTestConfig } from '../../test/create-signer-test-config.ts'
import { buildSignerApp } from '../build-signer-app.ts'
import { decryptCredentialBundle } from '../crypto/bundles/decrypt-credential-bundle.ts'

/** The magic link in a sign-in mail's HTML. */
function readMagicLink(html: string): URL {
  const href = /href="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&')
  if (href === undefined) throw new Error('no link in the mail')
  return new URL(href)
}

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

  /** The browser side of opening a magic link: its `bundle` and `orgId`, and the frame's key. */
  function openLink(link: URL, frame: { targetPublicKey: string }) {
    return testApp.post('magic-link', {
      orgId: link.searchParams.get('orgId'),
      token: link.searchParams.get('bundle'),
      targetPublicKey: frame.targetPublicKey,
    })
  }

  async function countRows(table: 'signer_users' | 'signer_session_keys'): Promise<number> {
    const result = await testApp.database.db.execute<{ count: number }>(
      sql`select count(*)::int as count from ${sql.identifier(table)}`,
    )
    return result.rows[0]?.count ?? 0
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

  it('mails a magic link that signs in when opened in the browser that asked; the code of the same mail then dies', async () => {
    testApp = await buildSignerTestApp()
    const frame = createFrameKey()
    const auth = await testApp.post('auth', {
      email: 'link@example.com',
      emailMode: 'magicLink',
      targetPublicKey: frame.targetPublicKey,
      redirectParams: 'next=%2Fdashboard',
    })
    expect(auth.statusCode).toBe(200)
    const { orgId, otpId } = auth.json()
    const mail = testApp.delivery.emails.at(-1)
    expect(mail?.subject).toBe('Your Quick Links sign-in link')
    const link = readMagicLink(mail?.html ?? '')
    expect(link.origin + link.pathname).toBe('http://localhost:3999/login')
    expect(link.searchParams.get('orgId')).toBe(orgId)
    expect(link.searchParams.getAll('orgId')).toHaveLength(1)
    expect(link.searchParams.get('isSignup')).toBe('true')
    expect(link.searchParams.get('next')).toBe('/dashboard')
    expect(mail?.text).toContain(link.toString())

    const opened = await openLink(link, frame)
    expect(opened.statusCode).toBe(200)
    expect(opened.json()).toMatchObject({ orgId, isNewUser: true })
    const session = await decryptCredentialBundle({
      bundle: opened.json().credentialBundle,
      embeddedPrivateKey: frame.privateKey,
    })
    const me = await whoami({
      orgId,
      sessionPrivateKey: session.privateKey,
      sessionPublicKey: session.publicKey,
      isNewUser: true,
    })
    expect(me.statusCode).toBe(200)
    expect(me.json().email).toBe('link@example.com')

    // One mail, one sign-in: neither the link again nor the mail's code works now.
    const again = await openLink(link, frame)
    expect(again.statusCode).toBe(401)
    expect(again.json().error).toEqual({
      code: 'OTP_EXPIRED',
      message: 'This sign-in link no longer works. Request a new one.',
    })
    const otp = await testApp.post('otp', {
      orgId,
      otpId,
      otpCode: readCode(mail?.text ?? ''),
      targetPublicKey: frame.targetPublicKey,
    })
    expect(otp.statusCode).toBe(401)
    expect(otp.json()).toEqual(expiredBody)
  })

  it('mints nothing for a magic-link request until the link is opened: no account, no session key, whoami refused', async () => {
    testApp = await buildSignerTestApp()
    const frame = createFrameKey()
    const auth = await testApp.post('auth', {
      email: 'unopened@example.com',
      emailMode: 'magicLink',
      targetPublicKey: frame.targetPublicKey,
    })
    expect(auth.statusCode).toBe(200)
    const { orgId } = auth.json()
    const link = readMagicLink(testApp.delivery.emails.at(-1)?.html ?? '')
    expect(await countRows('signer_users')).toBe(0)
    expect(await countRows('signer_session_keys')).toBe(0)
    // The requester holds only the frame key: it signs nothing, and a forged bundle key has no row.
    const frameAsSession = {
      orgId,
      sessionPrivateKey: hexToBytes(frame.privateKey),
      sessionPublicKey: bytesToHex(p256.getPublicKey(hexToBytes(frame.privateKey), true)),
      isNewUser: true,
    }
    const before = await whoami(frameAsSession)
    expect(before.statusCode).toBe(401)
    expect(before.json().error.code).toBe('UNAUTHORIZED')

    // Opened in another browser (another frame key): refused, and the link still works where it was asked for.
    const elsewhere = await openLink(link, createFrameKey())
    expect(elsewhere.statusCode).toBe(401)
    expect(elsewhere.json().error.message).toBe(
      'This sign-in link could not be opened here. Open it in the browser where you asked for it, or request a new one.',
    )
    expect(await countRows('signer_session_keys')).toBe(0)

    const opened = await openLink(link, frame)
    expect(opened.statusCode).toBe(200)
    expect(await countRows('signer_users')).toBe(1)
    expect(await countRows('signer_session_keys')).toBe(1)
    const session = await decryptCredentialBundle({
      bundle: opened.json().credentialBundle,
      embeddedPrivateKey: frame.privateKey,
    })
    const after = await whoami({
      orgId,
      sessionPrivateKey: session.privateKey,
      sessionPublicKey: session.publicKey,
      isNewUser: true,
    })
    expect(after.statusCode).toBe(200)
    expect(after.json().email).toBe('unopened@example.com')
    expect((await whoami(frameAsSession)).statusCode).toBe(401)
  })

  it('refuses a forged or truncated magic-link token', async () => {
    testApp = await buildSignerTestApp()
    const frame = createFrameKey()
    await testApp.post('auth', {
      email: 'forged@example.com',
      emailMode: 'magicLink',
      targetPublicKey: frame.targetPublicKey,
    })
    const link = readMagicLink(testApp.delivery.emails.at(-1)?.html ?? '')
    const token = link.searchParams.get('bundle') ?? ''
    const [otpId = ''] = token.split('.')
    for (const forged of [`${otpId}.${'A'.repeat(43)}`, token.slice(0, -1), 'not-a-token']) {
      const url = new URL(link)
      url.searchParams.set('bundle', forged)
      const response = await openLink(url, frame)
      expect(response.statusCode).toBe(401)
      expect(response.json().error.message).toBe('This sign-in link no longer works. Request a new one.')
    }
    expect(await countRows('signer_session_keys')).toBe(0)
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
    // The same shape for both (docs/decisions/0019): a reservation's ids and addresses, never the member's.
    const signupKeys = ['address', 'orgId', 'otpId', 'solanaAddress', 'userId']
    expect(Object.keys(forMember.json()).sort()).toEqual(signupKeys)
    expect(Object.keys(forStranger.json()).sort()).toEqual(signupKeys)
    expect(forMember.json().address).not.toBe((await whoami(member)).json().address)
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

  it('limits code sends per IP at SIGNER_SENDS_PER_IP_PER_MINUTE', async () => {
    testApp = await buildSignerTestApp({
      signerRateLimits: { sendsPerIpPerMinute: 2, codeChecksPerIpPerMinute: 30 },
    })
    const send = (index: number) =>
      testApp.post(
        'init-otp',
        { otpType: 'OTP_TYPE_EMAIL', contact: `limit-${index}@example.com` },
        { remoteAddress: '198.51.100.9' },
      )
    expect((await send(1)).statusCode).toBe(200)
    expect((await send(2)).statusCode).toBe(200)
    const refused = await send(3)
    expect(refused.statusCode).toBe(429)
    expect(refused.json().error.code).toBe('RATE_LIMITED')
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

  describe('codes that cannot be ground down', () => {
    const lockNoticeSubject = 'Quick Links sign-in is paused for this address'
    const lockedMessage = (wait: string) =>
      `Too many wrong codes were entered for this address, so it is locked for now. Try again in ${wait}.`
    const wrongCodeFor = (code: string) => (code === '000000' ? '111111' : '000000')
    const checkCode = (sent: Awaited<ReturnType<typeof startEmailAuth>>, otpCode: string) =>
      testApp.post('otp', {
        orgId: sent.orgId,
        otpId: sent.otpId,
        otpCode,
        targetPublicKey: sent.frame.targetPublicKey,
      })

    it('locks a contact after ten wrong codes over four codes: one notice mail, even the right code refused, open again after the hour', async () => {
      testApp = await buildSignerTestApp()
      const email = 'guessed@example.com'
      const statuses: number[] = []
      // Three codes, three wrong tries each (the third kills each code): nine failures.
      for (let index = 0; index < 3; index += 1) {
        const sent = await startEmailAuth(email)
        for (let attempt = 0; attempt < 3; attempt += 1) {
          statuses.push((await checkCode(sent, wrongCodeFor(sent.code))).statusCode)
        }
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401])
      testApp.clock.advance(3 * 60_000 + 1_000)
      const fourth = await startEmailAuth(email)
      // The tenth wrong code spends the budget; the eleventh is not even checked.
      const tenth = await checkCode(fourth, wrongCodeFor(fourth.code))
      expect(tenth.statusCode).toBe(429)
      expect(tenth.json()).toEqual({
        error: {
          code: 'RATE_LIMITED',
          message: lockedMessage('60 minutes'),
          details: { retryAfterSeconds: 3600, lockedUntil: expect.any(String) },
        },
      })
      const eleventh = await checkCode(fourth, wrongCodeFor(fourth.code))
      expect(eleventh.statusCode).toBe(429)

      const notices = testApp.delivery.emails.filter((mail) => mail.subject === lockNoticeSubject)
      expect(notices).toHaveLength(1)
      expect(notices[0]?.to).toBe(email)
      const lockedUntil = new Date(tenth.json().error.details.lockedUntil)
      expect(notices[0]?.text).toContain(
        `paused sign-in with it until ${lockedUntil.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      )
      expect(notices[0]?.text).toContain('Nobody signed in')

      // The right code of the live fourth code, 30 minutes into the lock: refused, and nothing minted.
      testApp.clock.advance(5 * 60_000)
      const right = await checkCode(fourth, fourth.code)
      expect(right.statusCode).toBe(429)
      expect(right.json().error.message).toBe(lockedMessage('55 minutes'))
      expect(await countRows('signer_users')).toBe(0)
      // No new code goes out during the lock either, and the notice is not repeated.
      const send = await testApp.post('auth', { email, targetPublicKey: createFrameKey().targetPublicKey })
      expect(send.statusCode).toBe(429)
      expect(send.json().error.code).toBe('RATE_LIMITED')
      expect(testApp.delivery.emails.filter((mail) => mail.subject === lockNoticeSubject)).toHaveLength(1)

      // The lock lives in the database: a second instance on it refuses too.
      const other = await buildSignerApp(createSignerTestConfig({ sms: { provider: 'dev' } }), {
        database: testApp.database,
        logger: createLogger('silent'),
        delivery: testApp.delivery,
        signerNow: testApp.clock.now,
      })
      const onOther = await other.inject({
        method: 'POST',
        url: '/signer/v1/otp',
        cookies: { csrf_token: csrfToken },
        headers: { 'x-csrf-token': csrfToken },
        payload: {
          orgId: fourth.orgId,
          otpId: fourth.otpId,
          otpCode: fourth.code,
          targetPublicKey: fourth.frame.targetPublicKey,
        },
      })
      expect(onOther.statusCode).toBe(429)
      await other.close()

      testApp.clock.advance(55 * 60_000 + 1_000)
      const after = await startEmailAuth(email)
      const signedIn = await checkCode(after, after.code)
      expect(signedIn.statusCode).toBe(200)
      expect(signedIn.json().isNewUser).toBe(true)
    })

    it('locks a phone contact the same way, across sign-in and verification codes, and texts the notice', async () => {
      testApp = await buildSignerTestApp()
      const phone = '+447911123456'
      let failures = 0
      let last: { statusCode: number; json: () => { error: { code: string } } } | undefined
      while (failures < 10) {
        if (failures > 0 && failures % 6 === 0) testApp.clock.advance(3 * 60_000 + 1_000)
        const isVerification = failures % 2 === 1
        const sent = isVerification
          ? await testApp.post('init-otp', { otpType: 'OTP_TYPE_SMS', contact: phone })
          : await testApp.post('auth', { phone, targetPublicKey: createFrameKey().targetPublicKey })
        expect(sent.statusCode).toBe(200)
        const code = readCode(testApp.delivery.sms.at(-1)?.body ?? '')
        const { otpId, orgId } = sent.json()
        for (let attempt = 0; attempt < 3 && failures < 10; attempt += 1) {
          last = isVerification
            ? await testApp.post('verify-otp', { otpId, otpCode: wrongCodeFor(code) })
            : await testApp.post('otp', {
                orgId,
                otpId,
                otpCode: wrongCodeFor(code),
                targetPublicKey: createFrameKey().targetPublicKey,
              })
          failures += 1
        }
      }
      expect(last?.statusCode).toBe(429)
      expect(last?.json().error.code).toBe('RATE_LIMITED')
      const notices = testApp.delivery.sms.filter((sms) => sms.body.includes('too many wrong codes'))
      expect(notices).toHaveLength(1)
      expect(notices[0]?.to).toBe(phone)
      expect(notices[0]?.body).toMatch(
        /^Quick Links: too many wrong codes were entered for this number, so sign-in is paused until .+ UTC\. Nobody signed in\.$/,
      )
    })

    it('retires an older code once a newer one is sent to the same contact for the same purpose', async () => {
      testApp = await buildSignerTestApp()
      const older = await startEmailAuth('twice@example.com')
      const verification = await testApp.post('init-otp', {
        otpType: 'OTP_TYPE_EMAIL',
        contact: 'twice@example.com',
      })
      const verificationCode = readCode(testApp.delivery.emails.at(-1)?.text ?? '')
      const newer = await startEmailAuth('twice@example.com')
      expect(newer.otpId).not.toBe(older.otpId)

      const stale = await checkCode(older, older.code)
      expect(stale.statusCode).toBe(401)
      expect(stale.json()).toEqual({
        error: {
          code: 'OTP_EXPIRED',
          message: 'A newer code was sent to this address. Enter the code from the latest message.',
        },
      })
      expect((await checkCode(newer, newer.code)).statusCode).toBe(200)
      // A verification code is another purpose: the newer sign-in code did not retire it.
      const verified = await testApp.post('verify-otp', {
        otpId: verification.json().otpId,
        otpCode: verificationCode,
      })
      expect(verified.statusCode).toBe(200)
    })

    it('keeps the older code when the newer one could not be delivered', async () => {
      testApp = await buildSignerTestApp()
      const older = await startEmailAuth('flaky@example.com')
      const send = testApp.delivery.sendEmail
      testApp.delivery.sendEmail = async () => {
        throw new AppError('UPSTREAM_FAILED', {
          userMessage: 'We could not send the e-mail. Try again shortly.',
        })
      }
      const failed = await testApp.post('auth', {
        email: 'flaky@example.com',
        targetPublicKey: older.frame.targetPublicKey,
      })
      expect(failed.statusCode).toBe(502)
      testApp.delivery.sendEmail = send
      expect((await checkCode(older, older.code)).statusCode).toBe(200)
    })

    it('caps the codes sent to one contact in 24 hours, then sends again a day after the first', async () => {
      testApp = await buildSignerTestApp()
      const frame = createFrameKey()
      const send = (email: string) => testApp.post('auth', { email, targetPublicKey: frame.targetPublicKey })
      for (let index = 0; index < 10; index += 1) {
        if (index > 0 && index % 3 === 0) testApp.clock.advance(3 * 60_000 + 1_000)
        expect((await send('chatty@example.com')).statusCode).toBe(200)
      }
      testApp.clock.advance(3 * 60_000 + 1_000)
      const eleventh = await send('chatty@example.com')
      expect(eleventh.statusCode).toBe(429)
      expect(eleventh.json()).toEqual({
        error: {
          code: 'RATE_LIMITED',
          message: 'Too many codes were sent to this address today. Try again in 24 hours.',
          details: { retryAfterSeconds: expect.any(Number) },
        },
      })
      // init-otp shares the count; another contact does not.
      const verification = await testApp.post('init-otp', {
        otpType: 'OTP_TYPE_EMAIL',
        contact: 'chatty@example.com',
      })
      expect(verification.statusCode).toBe(429)
      expect((await send('quiet@example.com')).statusCode).toBe(200)
      expect(testApp.delivery.emails.filter((mail) => mail.to === 'chatty@example.com')).toHaveLength(10)

      testApp.clock.advance(eleventh.json().error.details.retryAfterSeconds * 1000)
      expect((await send('chatty@example.com')).statusCode).toBe(200)
    })

    it('caps the SMS codes sent to one number range in 24 hours, leaving other ranges and e-mail alone', async () => {
      testApp = await buildSignerTestApp({
        signerCodeSendCaps: { perContactPerDay: 10, perPhonePrefixPerDay: 3 },
      })
      const frame = createFrameKey()
      const text = (phone: string) => testApp.post('auth', { phone, targetPublicKey: frame.targetPublicKey })
      for (const phone of ['+447911000001', '+447911000002', '+447911999999']) {
        expect((await text(phone)).statusCode).toBe(200)
      }
      const fourth = await text('+44 7911 555 555')
      expect(fourth.statusCode).toBe(429)
      expect(fourth.json()).toEqual({
        error: {
          code: 'RATE_LIMITED',
          message: 'Too many codes were sent to phone numbers like this one today. Try again in 24 hours.',
          details: { retryAfterSeconds: expect.any(Number) },
        },
      })
      expect(testApp.delivery.sms).toHaveLength(3)
      const verification = await testApp.post('init-otp', {
        otpType: 'OTP_TYPE_SMS',
        contact: '+447911444444',
      })
      expect(verification.statusCode).toBe(429)
      expect((await text('+447811000001')).statusCode).toBe(200)
      expect((await text('+14155550123')).statusCode).toBe(200)
      expect((await testApp.post('auth', { email: 'unaffected@example.com' })).statusCode).toBe(200)
    })
  })
})
