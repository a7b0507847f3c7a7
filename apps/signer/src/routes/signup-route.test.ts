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
import { decryptCredentialBundle } from '../crypto/bundles/decrypt-credential-bundle.ts'
import { deleteExpiredSignerRows } from '../services/maintenance/delete-expired-signer-rows.ts'

// `signup`, the account-creation call (docs/signer.md#signup-auth, docs/decisions/0019): it answers
// the ids and addresses of a wallet reserved for its code, alike for every contact, and the code
// turns that reservation into the account only for a contact that has none.

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const evmAddressPattern = /^0x[0-9a-fA-F]{40}$/
const solanaAddressPattern = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

type SignupAnswer = { orgId: string; otpId: string; address: string; userId: string; solanaAddress: string }

describe('signer signup route', () => {
  let testApp: SignerTestApp
  afterEach(async () => {
    await testApp.close()
  })

  async function signup(contact: { email: string } | { phone: string }, frame = createFrameKey()) {
    const response = await testApp.post('signup', { ...contact, targetPublicKey: frame.targetPublicKey })
    expect(response.statusCode).toBe(200)
    return { answer: response.json<SignupAnswer>(), frame }
  }

  /** Enters the latest code mailed (or texted) to `to`; returns the signed-in client. */
  async function enterCode(
    answer: SignupAnswer,
    frame: { privateKey: string; targetPublicKey: string },
    to: string,
  ): Promise<SignedInClient> {
    const message = to.startsWith('+')
      ? testApp.delivery.sms.findLast((sms) => sms.to === to)?.body
      : testApp.delivery.emails.findLast((mail) => mail.to === to)?.text
    const otp = await testApp.post('otp', {
      orgId: answer.orgId,
      otpId: answer.otpId,
      otpCode: readCode(message ?? ''),
      targetPublicKey: frame.targetPublicKey,
    })
    expect(otp.statusCode).toBe(200)
    const { credentialBundle, isNewUser } = otp.json<{ credentialBundle: string; isNewUser: boolean }>()
    const session = await decryptCredentialBundle({
      bundle: credentialBundle,
      embeddedPrivateKey: frame.privateKey,
    })
    return {
      orgId: answer.orgId,
      sessionPrivateKey: session.privateKey,
      sessionPublicKey: session.publicKey,
      isNewUser,
    }
  }

  async function whoami(client: SignedInClient) {
    const response = await postStamped(testApp, 'whoami', client, { type: 'ACTIVITY_TYPE_WHOAMI' })
    expect(response.statusCode).toBe(200)
    return response.json<{ orgId: string; userId: string; address: string; solanaAddress: string }>()
  }

  async function countRows(
    table: 'signer_users' | 'signer_session_keys' | 'signer_wallets' | 'signer_wallet_reservations',
  ): Promise<number> {
    const result = await testApp.database.db.execute<{ count: number }>(
      sql`select count(*)::int as count from ${sql.identifier(table)}`,
    )
    return result.rows[0]?.count ?? 0
  }

  it('answers a new contact the orgId, otpId, user id and addresses its code then signs in to, and nothing signs before', async () => {
    testApp = await buildSignerTestApp()
    const lookedUp = (await testApp.post('lookup', { email: 'fresh@example.com' })).json<{ orgId: string }>()
    const { answer, frame } = await signup({ email: ' Fresh@Example.com ' })
    expect(Object.keys(answer).sort()).toEqual(['address', 'orgId', 'otpId', 'solanaAddress', 'userId'])
    expect(answer).toEqual({
      orgId: lookedUp.orgId,
      otpId: expect.stringMatching(uuidPattern),
      address: expect.stringMatching(evmAddressPattern),
      userId: expect.stringMatching(uuidPattern),
      solanaAddress: expect.stringMatching(solanaAddressPattern),
    })
    expect(testApp.delivery.emails.at(-1)?.to).toBe('fresh@example.com')

    // Reserved, not created: no user, no wallet, no session key until the code is used.
    expect(await countRows('signer_users')).toBe(0)
    expect(await countRows('signer_wallets')).toBe(0)
    expect(await countRows('signer_session_keys')).toBe(0)

    const client = await enterCode(answer, frame, 'fresh@example.com')
    expect(client.isNewUser).toBe(true)
    expect(await whoami(client)).toMatchObject({
      orgId: answer.orgId,
      userId: answer.userId,
      address: answer.address,
      solanaAddress: answer.solanaAddress,
    })
    expect(await countRows('signer_wallet_reservations')).toBe(0)
  })

  it('signs an SMS signup in to the reserved wallet too', async () => {
    testApp = await buildSignerTestApp()
    const { answer, frame } = await signup({ phone: '+14155550199' })
    const client = await enterCode(answer, frame, '+14155550199')
    expect(client.isNewUser).toBe(true)
    expect(await whoami(client)).toMatchObject({ userId: answer.userId, address: answer.address })
  })

  it('opens a signup magic link to the reserved wallet', async () => {
    testApp = await buildSignerTestApp()
    const frame = createFrameKey()
    const response = await testApp.post('signup', {
      email: 'linked@example.com',
      emailMode: 'magicLink',
      targetPublicKey: frame.targetPublicKey,
    })
    const answer = response.json<SignupAnswer>()
    const href = /href="([^"]+)"/
      .exec(testApp.delivery.emails.at(-1)?.html ?? '')?.[1]
      ?.replaceAll('&amp;', '&')
    const link = new URL(href ?? 'http://missing')
    expect(link.searchParams.get('isSignup')).toBe('true')
    const opened = await testApp.post('magic-link', {
      orgId: link.searchParams.get('orgId'),
      token: link.searchParams.get('bundle'),
      targetPublicKey: frame.targetPublicKey,
    })
    expect(opened.statusCode).toBe(200)
    expect(opened.json().isNewUser).toBe(true)
    const session = await decryptCredentialBundle({
      bundle: opened.json().credentialBundle,
      embeddedPrivateKey: frame.privateKey,
    })
    const me = await whoami({
      orgId: answer.orgId,
      sessionPrivateKey: session.privateKey,
      sessionPublicKey: session.publicKey,
      isNewUser: true,
    })
    expect(me).toMatchObject({ userId: answer.userId, address: answer.address })
  })

  it('answers a contact with an account in the same shape, without its wallet, and the code signs in to the existing wallet', async () => {
    testApp = await buildSignerTestApp()
    const member = await signInByEmail(testApp, 'member@example.com')
    const memberWallet = await whoami(member)

    const first = await signup({ email: 'member@example.com' })
    const second = await signup({ email: 'member@example.com' })
    const stranger = await signup({ email: 'stranger@example.com' })
    for (const { answer } of [first, second, stranger]) {
      expect(Object.keys(answer).sort()).toEqual(['address', 'orgId', 'otpId', 'solanaAddress', 'userId'])
      expect(answer.address).toMatch(evmAddressPattern)
      expect(answer.userId).toMatch(uuidPattern)
      expect(answer.solanaAddress).toMatch(solanaAddressPattern)
    }
    expect(first.answer.orgId).toBe(member.orgId)
    // Nothing of the account is handed out before its code: not its address, not its user id.
    for (const { answer } of [first, second]) {
      expect(answer.address).not.toBe(memberWallet.address)
      expect(answer.solanaAddress).not.toBe(memberWallet.solanaAddress)
      expect(answer.userId).not.toBe(memberWallet.userId)
    }
    // Each code gets its own reservation, for members and strangers alike: repeating a signup
    // changes the addresses either way, so comparing answers tells nothing.
    expect(second.answer.address).not.toBe(first.answer.address)
    const again = await signup({ email: 'stranger@example.com' })
    expect(again.answer.address).not.toBe(stranger.answer.address)

    const signedIn = await enterCode(second.answer, second.frame, 'member@example.com')
    expect(signedIn.isNewUser).toBe(false)
    expect(await whoami(signedIn)).toMatchObject({
      orgId: member.orgId,
      userId: memberWallet.userId,
      address: memberWallet.address,
    })
    // The member's reservation went with the code; one user, one wallet.
    const reserved = await testApp.database.db.execute<{ address: string }>(
      sql`select evm_address as address from signer_wallet_reservations`,
    )
    expect(reserved.rows.map((row) => row.address)).not.toContain(second.answer.address)
    expect(await countRows('signer_wallets')).toBe(1)
  })

  it('keeps answering auth with only orgId and otpId, and its code makes a fresh wallet', async () => {
    testApp = await buildSignerTestApp()
    const frame = createFrameKey()
    const response = await testApp.post('auth', {
      email: 'plain@example.com',
      emailMode: 'otp',
      targetPublicKey: frame.targetPublicKey,
    })
    expect(Object.keys(response.json()).sort()).toEqual(['orgId', 'otpId'])
    expect(await countRows('signer_wallet_reservations')).toBe(0)
    const client = await enterCode(
      { ...response.json(), address: '', userId: '', solanaAddress: '' },
      frame,
      'plain@example.com',
    )
    expect(client.isNewUser).toBe(true)
    expect((await whoami(client)).address).toMatch(evmAddressPattern)
  })

  it('drops the reservation of a replaced code, and of an expired one at the next sweep', async () => {
    testApp = await buildSignerTestApp()
    const first = await signup({ email: 'twice@example.com' })
    testApp.clock.advance(1000)
    const second = await signup({ email: 'twice@example.com' })
    await deleteExpiredSignerRows(testApp.database.db, testApp.clock.now())
    const left = await testApp.database.db.execute<{ otp_id: string }>(
      sql`select otp_id from signer_wallet_reservations`,
    )
    expect(left.rows.map((row) => row.otp_id)).toEqual([second.answer.otpId])
    expect(first.answer.address).not.toBe(second.answer.address)

    testApp.clock.advance(11 * 60_000)
    await deleteExpiredSignerRows(testApp.database.db, testApp.clock.now())
    expect(await countRows('signer_wallet_reservations')).toBe(0)
  })
})
