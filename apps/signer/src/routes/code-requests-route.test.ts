import type { LightMyRequestResponse } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  createFrameKey,
  csrfToken,
  readCode,
  type SignerTestApp,
} from '../../test/build-signer-test-app.ts'
import { signInMarkerCookieName } from '../services/otp/sign-in-marker.ts'

// Strangers asking for sign-in codes to someone else's address (docs/decisions/0022): their sends
// are counted per requester, never against the owner, and a browser that signed in recently has a
// reserve no stranger can spend, which a lock caused by strangers' wrong codes does not stop.

type Sent = { orgId: string; otpId: string; code: string; frame: ReturnType<typeof createFrameKey> }

describe('code requests by strangers', () => {
  let testApp: SignerTestApp
  afterEach(async () => {
    await testApp.close()
  })

  /** A POST as a browser at `remoteAddress` does it, with its marker cookie if it holds one. */
  function post(path: string, body: Record<string, unknown>, from: { ip: string; marker?: string }) {
    return testApp.app.inject({
      method: 'POST',
      url: `/signer/v1/${path}`,
      cookies: {
        csrf_token: csrfToken,
        ...(from.marker === undefined ? {} : { [signInMarkerCookieName]: from.marker }),
      },
      headers: { 'x-csrf-token': csrfToken },
      payload: body,
      remoteAddress: from.ip,
    })
  }

  async function askCode(email: string, from: { ip: string; marker?: string }) {
    const frame = createFrameKey()
    const response = await post('auth', { email, targetPublicKey: frame.targetPublicKey }, from)
    return { response, frame }
  }

  async function askCodeOrFail(email: string, from: { ip: string; marker?: string }): Promise<Sent> {
    const { response, frame } = await askCode(email, from)
    expect(response.statusCode, response.body).toBe(200)
    const code = readCode(testApp.delivery.emails.at(-1)?.text ?? '')
    return { ...response.json<{ orgId: string; otpId: string }>(), code, frame }
  }

  function enter(sent: Sent, otpCode: string, from: { ip: string; marker?: string }) {
    return post(
      'otp',
      { orgId: sent.orgId, otpId: sent.otpId, otpCode, targetPublicKey: sent.frame.targetPublicKey },
      from,
    )
  }

  /**
   * Strangers at `ips` ask for codes to `email`, each 3 every 3 minutes, until every one is refused;
   * how many went out, and the last refusal.
   */
  async function flood(
    email: string,
    ips: string[],
  ): Promise<{ sent: number; refusal: LightMyRequestResponse }> {
    let sent = 0
    const refused = new Map<string, LightMyRequestResponse>()
    for (;;) {
      for (const ip of ips.filter((candidate) => !refused.has(candidate))) {
        for (let index = 0; index < 3 && !refused.has(ip); index += 1) {
          const { response } = await askCode(email, { ip })
          if (response.statusCode === 200) sent += 1
          else refused.set(ip, response)
        }
      }
      const last = [...refused.values()].at(-1)
      if (refused.size === ips.length && last !== undefined) return { sent, refusal: last }
      testApp.clock.advance(3 * 60_000 + 1_000)
    }
  }

  it('10 and more code requests by a stranger neither stop the owner getting a code nor retire it', async () => {
    testApp = await buildSignerTestApp()
    const email = 'owner@example.com'
    const stranger = { ip: '198.51.100.66' }

    // The stranger asks for codes to the owner's address, 3 every 3 minutes, until refused.
    const { sent, refusal } = await flood(email, [stranger.ip])
    expect(sent).toBe(10)
    expect(refusal.statusCode).toBe(429)
    expect(refusal.json().error.message).toMatch(/^Too many codes were sent to this address today\./)
    expect((await askCode(email, stranger)).response.statusCode).toBe(429)

    // The owner, in a new browser (another address, no marker), still gets a code…
    const owner = { ip: '203.0.113.5' }
    const live = await askCodeOrFail(email, owner)
    // …which another stranger's request made after it does not retire…
    await askCodeOrFail(email, { ip: '198.51.100.67' })
    // …and which signs the owner in.
    const signedIn = await enter(live, live.code, owner)
    expect(signedIn.statusCode, signedIn.body).toBe(200)
    expect(signedIn.json().isNewUser).toBe(true)
  })

  it('strangers at many addresses, and the lock their wrong codes cause, do not stop a browser that signed in recently', async () => {
    testApp = await buildSignerTestApp()
    const email = 'reserved@example.com'
    const home = { ip: '203.0.113.9' }
    const first = await askCodeOrFail(email, home)
    const signedIn = await enter(first, first.code, home)
    expect(signedIn.statusCode, signedIn.body).toBe(200)
    const cookie = signedIn.cookies.find((candidate) => candidate.name === signInMarkerCookieName)
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/signer/v1' })
    const marker = cookie?.value ?? ''

    // Strangers at three addresses spend what strangers together may send to the address today…
    testApp.clock.advance(3 * 60_000 + 1_000)
    const strangers = ['198.51.100.1', '198.51.100.2', '198.51.100.3']
    const { sent, refusal } = await flood(email, strangers)
    // Thirty in all: the owner's first code, asked without a marker yet, was one of them.
    expect(sent).toBe(29)
    expect(refusal.json().error.message).toMatch(/^Too many codes were sent to this address today\./)
    // …so a fourth address, and a browser without a marker, are refused.
    expect((await askCode(email, { ip: '198.51.100.4' })).response.statusCode).toBe(429)
    expect((await askCode(email, { ip: '203.0.113.10' })).response.statusCode).toBe(429)

    // Then they make the address's codes fail ten times: the address is locked for an hour.
    testApp.clock.advance(24 * 60 * 60_000)
    let last: LightMyRequestResponse | undefined
    for (let failures = 0, codes = 0; failures < 10; codes += 1) {
      const guessed = await askCodeOrFail(email, { ip: strangers[codes % 3] ?? '' })
      for (let attempt = 0; attempt < 3 && failures < 10; attempt += 1, failures += 1) {
        last = await enter(guessed, guessed.code === '000000' ? '111111' : '000000', { ip: '198.51.100.1' })
      }
    }
    expect(last?.statusCode).toBe(429)
    expect((await askCode(email, { ip: '203.0.113.10' })).response.statusCode).toBe(429)

    // The owner's browser, at a new address, holds its marker: it gets a code, and the code works.
    const roaming = { ip: '192.0.2.200', marker }
    const reserved = await askCodeOrFail(email, roaming)
    const back = await enter(reserved, reserved.code, roaming)
    expect(back.statusCode, back.body).toBe(200)
    expect(back.json().orgId).toBe(signedIn.json().orgId)

    // A marker that is altered, or another account's, reserves nothing.
    const forged = `${marker.slice(0, -2)}${marker.endsWith('AA') ? 'BB' : 'AA'}`
    expect((await askCode(email, { ip: '192.0.2.201', marker: forged })).response.statusCode).toBe(429)
    const other = await askCodeOrFail('someone-else@example.com', { ip: '192.0.2.202' })
    const otherSignedIn = await enter(other, other.code, { ip: '192.0.2.202' })
    const otherMarker = otherSignedIn.cookies.find((candidate) => candidate.name === signInMarkerCookieName)
    expect(
      (await askCode(email, { ip: '192.0.2.202', marker: otherMarker?.value })).response.statusCode,
    ).toBe(429)
  })
})
