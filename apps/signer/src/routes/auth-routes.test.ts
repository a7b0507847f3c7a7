import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  createFrameKey,
  postStamped,
  readCode,
  type SignerTestApp,
  signInByEmail,
} from '../../test/build-signer-test-app.ts'
import { decryptCredentialBundle } from '../bundles/decrypt-credential-bundle.ts'

describe('e-mail sign-in', () => {
  let testApp: SignerTestApp
  beforeEach(async () => {
    testApp = await buildSignerTestApp()
  })
  afterEach(async () => {
    await testApp.close()
  })

  it('signs a new user in with the mailed code: the bundle opens with the frame key and whoami gives the address', async () => {
    const frame = createFrameKey()
    const auth = await testApp.post('auth', {
      email: ' New.User@Example.COM ',
      emailMode: 'otp',
      targetPublicKey: frame.targetPublicKey,
    })
    expect(auth.statusCode).toBe(200)
    const { orgId, otpId } = auth.json()
    expect(orgId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)

    expect(testApp.delivery.emails).toHaveLength(1)
    const mail = testApp.delivery.emails[0]
    expect(mail?.to).toBe('new.user@example.com')
    const code = readCode(mail?.text ?? '')
    expect(mail?.html).toContain(code)

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

    const whoami = await postStamped(
      testApp,
      'whoami',
      { orgId, sessionPrivateKey: session.privateKey, sessionPublicKey: session.publicKey, isNewUser },
      { type: 'ACTIVITY_TYPE_WHOAMI' },
    )
    expect(whoami.statusCode).toBe(200)
    expect(whoami.json()).toEqual({
      orgId,
      userId: expect.any(String),
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      solanaAddress: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/),
      email: 'new.user@example.com',
      phone: null,
      walletId: expect.any(String),
    })
  })

  it('signs a returning user in to the same wallet, not as a new user', async () => {
    const first = await signInByEmail(testApp, 'back@example.com')
    const second = await signInByEmail(testApp, 'back@example.com')
    expect(second.orgId).toBe(first.orgId)
    expect(second.isNewUser).toBe(false)
  })
})
