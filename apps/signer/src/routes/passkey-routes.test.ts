import { AppError } from '@quicklinks/core/app-error'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  buildStampedBody,
  createFrameKey,
  postStamped,
  proveContact,
  type SignedInClient,
  type SignerTestApp,
  signInByEmail,
} from '../../test/build-signer-test-app.ts'
import { createSoftwarePasskey, type SoftwarePasskey } from '../../test/software-passkey.ts'
import { decryptCredentialBundle } from '../crypto/bundles/decrypt-credential-bundle.ts'

// Passkeys (docs/signer.md#passkeys) with a software authenticator that builds attestations and
// assertions as a browser hands them over; the signer's app origin is http://localhost:3999.

const origin = 'http://localhost:3999'
const rpId = 'localhost'

type ErrorBody = { error: { code: string; message: string; details?: { reason?: string } } }

describe('signer passkey routes', () => {
  let testApp: SignerTestApp
  afterEach(async () => {
    await testApp.close()
  })

  async function getChallenge(): Promise<string> {
    const response = await testApp.post('passkey-challenge', {})
    expect(response.statusCode, response.body).toBe(200)
    const answer = response.json<{ challenge: string; rp: { id: string; name: string }; timeout: number }>()
    expect(answer.rp).toEqual({ id: rpId, name: rpId })
    expect(answer.timeout).toBe(300_000)
    return answer.challenge
  }

  /** Signs up with a new passkey and opens the first session from the bundle. */
  async function signUp(passkey = createSoftwarePasskey({ origin, rpId })) {
    const challenge = await getChallenge()
    const frame = createFrameKey()
    const response = await testApp.post('signup', {
      passkey: { challenge, attestation: passkey.attest(challenge) },
      email: 'someone@example.com',
      targetPublicKey: frame.targetPublicKey,
    })
    expect(response.statusCode, response.body).toBe(200)
    const answer = response.json<{
      orgId: string
      userId: string
      address: string
      otpId: string
      credentialBundle: string
      isNewUser: boolean
    }>()
    const session = await decryptCredentialBundle({
      bundle: answer.credentialBundle,
      embeddedPrivateKey: frame.privateKey,
    })
    const client: SignedInClient = {
      orgId: answer.orgId,
      sessionPrivateKey: session.privateKey,
      sessionPublicKey: session.publicKey,
      isNewUser: true,
    }
    return { passkey, answer, client }
  }

  /** The stamp-login body for a frame key, stamped by `passkey` (options change the assertion). */
  function passkeyLogin(
    passkey: SoftwarePasskey,
    options: {
      origin?: string
      rpId?: string
      counter?: number
      timestampMs?: number
      userVerified?: boolean
    } = {},
  ) {
    const frame = createFrameKey()
    const body = buildStampedBody({
      type: 'ACTIVITY_TYPE_STAMP_LOGIN',
      organizationId: 'root',
      parameters: { publicKey: frame.targetPublicKey, expirationSeconds: '900' },
      timestampMs: options.timestampMs ?? testApp.clock.now(),
    })
    const stampedRequest = {
      url: `${origin}/signer/v1/auth-passkey`,
      body,
      stamp: { stampHeaderName: 'X-Stamp-WebAuthn', stampHeaderValue: passkey.stamp(body, options) },
    }
    return { frame, request: { stampedRequest } }
  }

  /** A stamped call stamped by `passkey` (X-Stamp-WebAuthn) instead of a session key. */
  function postPasskeyStamped(
    passkey: SoftwarePasskey,
    path: string,
    input: { orgId: string; type: string; parameters: Record<string, unknown>; userVerified?: boolean },
  ) {
    const body = buildStampedBody({
      type: input.type,
      organizationId: input.orgId,
      parameters: input.parameters,
      timestampMs: testApp.clock.now(),
    })
    const stampHeaderValue = passkey.stamp(body, input.userVerified === false ? { userVerified: false } : {})
    return testApp.post(path, {
      stampedRequest: {
        url: `${origin}/signer/v1/${path}`,
        body,
        stamp: { stampHeaderName: 'X-Stamp-WebAuthn', stampHeaderValue },
      },
    })
  }

  async function whoami(client: SignedInClient) {
    const response = await postStamped(testApp, 'whoami', client, { type: 'ACTIVITY_TYPE_WHOAMI' })
    expect(response.statusCode, response.body).toBe(200)
    return response.json<{ orgId: string; userId: string; email: string | null }>()
  }

  async function listPasskeys(client: SignedInClient) {
    const response = await postStamped(testApp, 'list-auth-methods', client, {
      type: 'ACTIVITY_TYPE_LIST_AUTH_METHODS',
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json<{ passkeys: { id: string; name: string; createdAt: string }[] }>().passkeys
  }

  it('signs up with a passkey (one session at once), then signs in with it to the same account', async () => {
    testApp = await buildSignerTestApp()
    const { passkey, answer, client } = await signUp()
    expect(answer).toMatchObject({ otpId: '', isNewUser: true, address: expect.stringMatching(/^0x/) })
    const me = await whoami(client)
    expect(me).toMatchObject({ orgId: answer.orgId, userId: answer.userId })
    // The e-mail was not proven, so it is not the account's.
    expect(me.email).toBeNull()
    const [listed] = await listPasskeys(client)
    expect(listed).toMatchObject({ id: passkey.credentialId, name: expect.stringMatching(/^passkey-\d+$/) })

    const { frame, request } = passkeyLogin(passkey)
    const login = await testApp.post('auth-passkey', request)
    expect(login.statusCode, login.body).toBe(200)
    const signedIn = login.json<{ credentialBundle: string; isNewUser: boolean; orgId: string }>()
    expect(signedIn).toMatchObject({ isNewUser: false, orgId: answer.orgId })
    const session = await decryptCredentialBundle({
      bundle: signedIn.credentialBundle,
      embeddedPrivateKey: frame.privateKey,
    })
    const again = await whoami({ ...client, sessionPrivateKey: session.privateKey })
    expect(again.userId).toBe(answer.userId)

    const stored = await testApp.database.db.execute<{ data: Record<string, unknown> }>(
      sql`select data from signer_auth_methods where type = 'passkey'`,
    )
    expect(stored.rows[0]?.data).toMatchObject({ counter: 1, transports: ['internal'] })
  })

  it("answers 'No user found' for a credential no account has", async () => {
    testApp = await buildSignerTestApp()
    const stranger = createSoftwarePasskey({ origin, rpId })
    const response = await testApp.post('auth-passkey', passkeyLogin(stranger).request)
    expect(response.statusCode, response.body).toBe(404)
    expect(response.json<ErrorBody>().error.message).toBe('No user found')
  })

  it('refuses a replayed assertion, a wrong origin or rpId, a counter that went back and a stale body', async () => {
    testApp = await buildSignerTestApp()
    const { passkey } = await signUp()
    // A passkey whose counter stays 0 (as synced passkeys do): the replay store refuses the copy.
    const { request } = passkeyLogin(passkey, { counter: 0 })
    expect((await testApp.post('auth-passkey', request)).statusCode).toBe(200)
    const replay = await testApp.post('auth-passkey', request)
    expect(replay.statusCode, replay.body).toBe(409)
    expect(replay.json<ErrorBody>().error.details?.reason).toBe('REPLAYED')
    // With a counter, the copy is refused by the counter already.
    const counted = passkeyLogin(passkey).request
    expect((await testApp.post('auth-passkey', counted)).statusCode).toBe(200)
    expect((await testApp.post('auth-passkey', counted)).json<ErrorBody>().error.details?.reason).toBe(
      'SIGNATURE_INVALID',
    )

    for (const options of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { counter: 1 }]) {
      const refused = await testApp.post('auth-passkey', passkeyLogin(passkey, options).request)
      expect(refused.statusCode, `${JSON.stringify(options)}: ${refused.body}`).toBe(401)
      expect(refused.json<ErrorBody>().error.details?.reason).toBe('SIGNATURE_INVALID')
    }
    const stale = await testApp.post(
      'auth-passkey',
      passkeyLogin(passkey, { timestampMs: testApp.clock.now() - 301_000 }).request,
    )
    expect(stale.statusCode, stale.body).toBe(401)
    expect(stale.json<ErrorBody>().error.details?.reason).toBe('TIMESTAMP_STALE')
    // A session-key stamp is not a passkey sign-in.
    const wrongHeader = passkeyLogin(passkey).request
    wrongHeader.stampedRequest.stamp.stampHeaderName = 'X-Stamp'
    expect((await testApp.post('auth-passkey', wrongHeader)).statusCode).toBe(422)
  })

  it('refuses a registration with a made-up, reused or foreign-origin challenge', async () => {
    testApp = await buildSignerTestApp()
    const passkey = createSoftwarePasskey({ origin, rpId })
    const madeUp =
      'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
    const forged = await testApp.post('signup', {
      passkey: { challenge: madeUp, attestation: passkey.attest(madeUp) },
    })
    expect(forged.statusCode, forged.body).toBe(401)
    expect(forged.json<ErrorBody>().error.details?.reason).toBe('PASSKEY_CHALLENGE_INVALID')

    const challenge = await getChallenge()
    const phished = await testApp.post('signup', {
      passkey: { challenge, attestation: passkey.attest(challenge, { origin: 'https://evil.example' }) },
    })
    expect(phished.statusCode, phished.body).toBe(401)
    expect(phished.json<ErrorBody>().error.details?.reason).toBe('PASSKEY_REGISTRATION_INVALID')
    // The challenge was spent by that try.
    const reused = await testApp.post('signup', {
      passkey: { challenge, attestation: passkey.attest(challenge) },
    })
    expect(reused.json<ErrorBody>().error.details?.reason).toBe('PASSKEY_CHALLENGE_INVALID')

    testApp.clock.advance(301_000)
    const late = await getChallenge()
    testApp.clock.advance(301_000)
    const expired = await testApp.post('signup', {
      passkey: { challenge: late, attestation: passkey.attest(late) },
    })
    expect(expired.json<ErrorBody>().error.details?.reason).toBe('PASSKEY_CHALLENGE_INVALID')
  })

  it('adds and removes passkeys of the signed-in user with the step-up of an existing passkey, never the last way to sign in', async () => {
    testApp = await buildSignerTestApp()
    const { passkey: first, client } = await signUp()
    const second = createSoftwarePasskey({ origin, rpId })
    const challenge = await getChallenge()
    const add = {
      orgId: client.orgId,
      type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
      parameters: { challenge, attestation: second.attest(challenge), authenticatorName: 'Laptop' },
    }
    // An existing passkey that does not verify the user is no step-up.
    const unverified = await postPasskeyStamped(first, 'add-authenticator', { ...add, userVerified: false })
    expect(unverified.statusCode, unverified.body).toBe(403)
    expect(unverified.json<ErrorBody>().error.details?.reason).toBe('USER_VERIFICATION_REQUIRED')
    const againChallenge = await getChallenge()
    const added = await postPasskeyStamped(first, 'add-authenticator', {
      ...add,
      parameters: {
        ...add.parameters,
        challenge: againChallenge,
        attestation: second.attest(againChallenge),
      },
    })
    expect(added.statusCode, added.body).toBe(200)
    expect(added.json()).toMatchObject({ authenticatorId: second.credentialId, name: 'Laptop' })
    // A passkey-only account has no contact to tell (docs/signer.md#security-notices).
    expect([...testApp.delivery.emails, ...testApp.delivery.sms]).toEqual([])
    expect((await listPasskeys(client)).map((listed) => listed.id).sort()).toEqual(
      [first.credentialId, second.credentialId].sort(),
    )
    // The same passkey twice is refused.
    const thirdChallenge = await getChallenge()
    const twice = await postPasskeyStamped(first, 'add-authenticator', {
      ...add,
      parameters: { challenge: thirdChallenge, attestation: second.attest(thirdChallenge) },
    })
    expect(twice.statusCode, twice.body).toBe(409)

    // The second passkey signs in too.
    expect((await testApp.post('auth-passkey', passkeyLogin(second).request)).statusCode).toBe(200)

    const remove = (passkey: SoftwarePasskey, authenticatorId: string) =>
      postPasskeyStamped(passkey, 'remove-authenticator', {
        orgId: client.orgId,
        type: 'ACTIVITY_TYPE_DELETE_AUTHENTICATORS',
        parameters: { authenticatorId },
      })
    const removed = await remove(second, first.credentialId)
    expect(removed.statusCode, removed.body).toBe(200)
    expect(
      (await testApp.post('auth-passkey', passkeyLogin(first).request)).json<ErrorBody>().error.message,
    ).toBe('No user found')
    const last = await remove(second, second.credentialId)
    expect(last.statusCode, last.body).toBe(409)
    expect(last.json<ErrorBody>().error.message).toBe(
      'This is your only way to sign in. Add another one before you remove it.',
    )
    // Another user's passkey is not this user's to remove.
    const other = await signInByEmail(testApp, 'other@example.com')
    const foreign = await postStamped(testApp, 'remove-authenticator', other, {
      type: 'ACTIVITY_TYPE_DELETE_AUTHENTICATORS',
      parameters: {
        authenticatorId: second.credentialId,
        stepUp: { verificationToken: await proveContact(testApp, { email: 'other@example.com' }) },
      },
    })
    expect(foreign.statusCode, foreign.body).toBe(404)
  })

  it('refuses a passkey added by a page script on the session alone: no step-up, no passkey, no sign-in with it', async () => {
    testApp = await buildSignerTestApp()
    const client = await signInByEmail(testApp, 'victim@example.com')
    const attacker = createSoftwarePasskey({ origin, rpId })
    const challenge = await getChallenge()
    const parameters = { challenge, attestation: attacker.attest(challenge), authenticatorName: 'Mine' }
    const refused = await postStamped(testApp, 'add-authenticator', client, {
      type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
      parameters,
    })
    expect(refused.statusCode, refused.body).toBe(403)
    expect(refused.json<ErrorBody>().error.details?.reason).toBe('STEP_UP_REQUIRED')
    // A proof the script can make up, or one for its own address, is no better.
    const thiefToken = await proveContact(testApp, { email: 'thief@example.com' })
    for (const stepUp of [{ verificationToken: 'made-up' }, { verificationToken: thiefToken }]) {
      const response = await postStamped(testApp, 'add-authenticator', client, {
        type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
        parameters: { ...parameters, stepUp },
      })
      expect(response.statusCode, response.body).toBe(403)
      expect(response.json<ErrorBody>().error.details?.reason).toBe('STEP_UP_REFUSED')
    }
    expect(await listPasskeys(client)).toEqual([])
    const signIn = await testApp.post('auth-passkey', passkeyLogin(attacker).request)
    expect(signIn.json<ErrorBody>().error.message).toBe('No user found')
    // No notice went out for a change that did not happen; only the two codes did.
    expect(testApp.delivery.emails.map((mail) => mail.to)).toEqual([
      'victim@example.com',
      'thief@example.com',
    ])
  })

  it('refuses a stale or reused step-up proof', async () => {
    testApp = await buildSignerTestApp()
    const client = await signInByEmail(testApp, 'owner@example.com')
    const addWith = async (verificationToken: string) => {
      const passkey = createSoftwarePasskey({ origin, rpId })
      const challenge = await getChallenge()
      return postStamped(testApp, 'add-authenticator', client, {
        type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
        parameters: { challenge, attestation: passkey.attest(challenge), stepUp: { verificationToken } },
      })
    }
    const token = await proveContact(testApp, { email: 'owner@example.com' })
    expect((await addWith(token)).statusCode).toBe(200)
    const reused = await addWith(token)
    expect(reused.statusCode, reused.body).toBe(403)
    expect(reused.json<ErrorBody>().error.details?.reason).toBe('STEP_UP_REFUSED')

    const stale = await proveContact(testApp, { email: 'owner@example.com' })
    testApp.clock.advance(10 * 60_000 + 1_000)
    const late = await signInByEmail(testApp, 'owner@example.com')
    const passkey = createSoftwarePasskey({ origin, rpId })
    const challenge = await getChallenge()
    const response = await postStamped(testApp, 'add-authenticator', late, {
      type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
      parameters: { challenge, attestation: passkey.attest(challenge), stepUp: { verificationToken: stale } },
    })
    expect(response.statusCode, response.body).toBe(403)
    expect(response.json<ErrorBody>().error.details?.reason).toBe('STEP_UP_REFUSED')
    expect(await listPasskeys(late)).toHaveLength(1)
  })

  it('refuses a hand-built fmt "none" attestation without user verification, and a sign-in assertion without it', async () => {
    testApp = await buildSignerTestApp()
    const handBuilt = createSoftwarePasskey({ origin, rpId })
    const challenge = await getChallenge()
    const signup = await testApp.post('signup', {
      passkey: { challenge, attestation: handBuilt.attest(challenge, { userVerified: false }) },
      targetPublicKey: createFrameKey().targetPublicKey,
    })
    expect(signup.statusCode, signup.body).toBe(401)
    expect(signup.json<ErrorBody>().error.details?.reason).toBe('USER_VERIFICATION_REQUIRED')

    const client = await signInByEmail(testApp, 'uv@example.com')
    const addChallenge = await getChallenge()
    const added = await postStamped(testApp, 'add-authenticator', client, {
      type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
      parameters: {
        challenge: addChallenge,
        attestation: handBuilt.attest(addChallenge, { userVerified: false }),
        stepUp: { verificationToken: await proveContact(testApp, { email: 'uv@example.com' }) },
      },
    })
    expect(added.statusCode, added.body).toBe(401)
    expect(added.json<ErrorBody>().error.details?.reason).toBe('USER_VERIFICATION_REQUIRED')
    expect(await listPasskeys(client)).toEqual([])

    // A registered passkey signs in (no authenticator code is asked) only with the UV flag.
    const { passkey } = await signUp()
    const unverified = passkeyLogin(passkey, { userVerified: false })
    const refused = await testApp.post('auth-passkey', unverified.request)
    expect(refused.statusCode, refused.body).toBe(403)
    expect(refused.json<ErrorBody>().error.details?.reason).toBe('USER_VERIFICATION_REQUIRED')
    expect((await testApp.post('auth-passkey', passkeyLogin(passkey).request)).statusCode).toBe(200)
  })

  it('tells the owner of a passkey added with a session (docs/signer.md#security-notices); no notice, no passkey', async () => {
    testApp = await buildSignerTestApp()
    const client = await signInByEmail(testApp, 'keys@example.com')
    const added = createSoftwarePasskey({ origin, rpId })
    const addPasskey = async (name: string, verificationToken: string) => {
      const challenge = await getChallenge()
      return postStamped(testApp, 'add-authenticator', client, {
        type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
        parameters: {
          challenge,
          attestation: added.attest(challenge),
          authenticatorName: name,
          stepUp: { verificationToken },
        },
      })
    }
    const firstProof = await proveContact(testApp, { email: 'keys@example.com' })

    const sendEmail = testApp.delivery.sendEmail
    testApp.delivery.sendEmail = async () => {
      throw new AppError('UPSTREAM_FAILED', {
        userMessage: 'We could not send the e-mail. Try again shortly.',
      })
    }
    try {
      expect((await addPasskey('Laptop', firstProof)).statusCode).toBe(502)
    } finally {
      testApp.delivery.sendEmail = sendEmail
    }
    expect(await listPasskeys(client)).toEqual([])
    expect((await testApp.post('auth-passkey', passkeyLogin(added).request)).statusCode).not.toBe(200)

    const secondProof = await proveContact(testApp, { email: 'keys@example.com' })
    const mailsBefore = testApp.delivery.emails.length
    const response = await addPasskey('Work laptop, see evil.example/x', secondProof)
    expect(response.statusCode, response.body).toBe(200)
    const sent = testApp.delivery.emails.slice(mailsBefore)
    expect(sent.map((mail) => [mail.to, mail.subject])).toEqual([
      ['keys@example.com', 'A passkey was added to your Quick Links account'],
    ])
    expect(sent[0]?.text).toContain('A passkey named "Work laptop see evil example x" was added')
    expect(sent[0]?.text).toContain('Settings → Sign-in methods')
    expect(sent[0]?.text).toContain('keep working until their sessions end')
    expect(sent[0]?.text).not.toContain('evil.example')
    expect(sent[0]?.html).not.toContain('evil.example')
  })

  it('tells every contact of the account at once when a passkey is added: the e-mail and the phone', async () => {
    testApp = await buildSignerTestApp()
    const client = await signInByEmail(testApp, 'both@example.com')
    const phone = '+14155550144'
    const addedPhone = await postStamped(testApp, 'update-phone-auth', client, {
      type: 'ACTIVITY_TYPE_UPDATE_PHONE_AUTH',
      parameters: {
        phone,
        verificationToken: await proveContact(testApp, { phone }),
        previousContactVerificationToken: await proveContact(testApp, { email: 'both@example.com' }),
      },
    })
    expect(addedPhone.statusCode, addedPhone.body).toBe(200)
    const challenge = await getChallenge()
    const stepUp = { verificationToken: await proveContact(testApp, { phone }) }
    const mailsBefore = testApp.delivery.emails.length
    const smsBefore = testApp.delivery.sms.length
    const added = await postStamped(testApp, 'add-authenticator', client, {
      type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
      parameters: {
        challenge,
        attestation: createSoftwarePasskey({ origin, rpId }).attest(challenge),
        authenticatorName: 'Phone',
        stepUp,
      },
    })
    expect(added.statusCode, added.body).toBe(200)
    expect(testApp.delivery.emails.slice(mailsBefore).map((mail) => [mail.to, mail.subject])).toEqual([
      ['both@example.com', 'A passkey was added to your Quick Links account'],
    ])
    expect(testApp.delivery.sms.slice(smsBefore).map((text) => text.to)).toEqual([phone])
  })

  it('accepts a stamped route stamped by the passkey (X-Stamp-WebAuthn), and refuses it when the body changed', async () => {
    testApp = await buildSignerTestApp()
    const { passkey, answer } = await signUp()
    const body = buildStampedBody({
      type: 'ACTIVITY_TYPE_WHOAMI',
      organizationId: answer.orgId,
      parameters: {},
      timestampMs: testApp.clock.now(),
    })
    const stamp = { stampHeaderName: 'X-Stamp-WebAuthn', stampHeaderValue: passkey.stamp(body) }
    const me = await testApp.post('whoami', {
      stampedRequest: { url: `${origin}/signer/v1/whoami`, body, stamp },
    })
    expect(me.statusCode, me.body).toBe(200)
    expect(me.json()).toMatchObject({ orgId: answer.orgId, userId: answer.userId })

    const changed = body.replace('"parameters":{}', '"parameters":{"x":1}')
    const tampered = await testApp.post('whoami', {
      stampedRequest: {
        url: `${origin}/signer/v1/whoami`,
        body: changed,
        stamp: { stampHeaderName: 'X-Stamp-WebAuthn', stampHeaderValue: passkey.stamp(body) },
      },
    })
    expect(tampered.statusCode, tampered.body).toBe(401)
    expect(tampered.json<ErrorBody>().error.details?.reason).toBe('SIGNATURE_INVALID')
  })
})
