import { randomBytes } from 'node:crypto'
import { decodeJwt } from 'jose'
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
import { type DevOidcProvider, startDevOidcProvider } from '../dev/start-dev-oidc-provider.ts'
import type { OAuthPopupResult } from '../services/oauth/complete-oauth-callback.ts'
import { createOAuthDirectory } from '../services/oauth/oauth-directory.ts'
import { getOAuthNonce } from '../services/oauth/oauth-request-key.ts'
import { verifyOAuthIdToken } from '../services/oauth/verify-oauth-id-token.ts'

// Social login (docs/signer.md#social-login) against a real oidc-provider (the dev provider of
// `npm start`) on loopback: the browser's part (authorization request, login page, redirects) is
// driven with fetch and a cookie jar, the signer's callback with inject. One file past 300 lines:
// every test shares that provider, the test app and the browser-side helpers below.

const callbackUrl = 'http://localhost:3999/signer/v1/oauth-callback'
let oidc: DevOidcProvider
let testApp: SignerTestApp

beforeAll(async () => {
  oidc = await startDevOidcProvider({ port: 0, redirectUris: [callbackUrl] })
  testApp = await buildSignerTestApp({
    oauthProviders: [oidc.providerConfig],
    // Every sign-in of this file comes from one address (two limited calls each); the per-address
    // limits themselves are tested with the signer's rate limits.
    signerRateLimits: { sendsPerIpPerMinute: 400, codeChecksPerIpPerMinute: 600 },
  })
})

afterAll(async () => {
  await testApp.close()
  await oidc.close()
})

type Frame = ReturnType<typeof createFrameKey>

type Flow = {
  frame: Frame
  /** The per-attempt secret the browser keeps before it leaves (docs/signer.md#oauth-attempt). */
  attempt: string
  state: string
  authorizationUrl: string
}

/** What the SDK does before opening the popup: prepare-oauth, then the authorization URL. */
async function prepareFlow(
  options: {
    frame?: Frame
    mode?: 'popup' | 'redirect'
    fetchIdTokenOnly?: boolean
    /** Puts another key than the prepared one in the state. */
    stateKey?: string
    /** Sends another nonce to the provider than the prepared one. */
    providerNonce?: string
    redirectUrl?: string
  } = {},
): Promise<Flow> {
  const frame = options.frame ?? createFrameKey()
  const nonce = getOAuthNonce(frame.targetPublicKey)
  const prepared = await testApp.post('prepare-oauth', { nonce })
  expect(prepared.statusCode, prepared.body).toBe(200)
  const config = prepared.json<{
    codeChallenge: string
    requestKey: string
    authProviders: { id: string; authEndpoint: string; clientId: string; scope?: string }[]
    oauthCallbackUrl: string
  }>()
  const provider = config.authProviders.find((candidate) => candidate.id === 'dev')
  if (provider === undefined) throw new Error('the dev provider is not listed')
  const attempt = randomBytes(32).toString('base64url')
  const state = Buffer.from(
    JSON.stringify({
      attempt,
      authProviderId: 'dev',
      requestKey: config.requestKey,
      targetPublicKey: options.stateKey ?? frame.targetPublicKey,
      mode: options.mode ?? 'popup',
      expirationSeconds: 600,
      ...(options.fetchIdTokenOnly === undefined ? {} : { fetchIdTokenOnly: options.fetchIdTokenOnly }),
      ...(options.redirectUrl === undefined ? {} : { redirectUrl: options.redirectUrl }),
    }),
  ).toString('base64url')
  const url = new URL(provider.authEndpoint)
  url.search = new URLSearchParams({
    client_id: provider.clientId,
    redirect_uri: config.oauthCallbackUrl,
    response_type: 'code',
    scope: provider.scope ?? 'openid email',
    code_challenge: config.codeChallenge,
    code_challenge_method: 'S256',
    prompt: 'select_account',
    nonce: options.providerNonce ?? nonce,
    state,
  }).toString()
  return { frame, attempt, state, authorizationUrl: url.href }
}

/** The browser at the provider: follows redirects with a cookie jar, picks an account (or cancels), until the callback. */
async function authorize(flow: Flow, choice: { accountId: string } | 'cancel'): Promise<URL> {
  const jar = new Map<string, string>()
  let url = flow.authorizationUrl
  let body: URLSearchParams | undefined
  for (let hop = 0; hop < 12; hop += 1) {
    if (url.startsWith(callbackUrl)) return new URL(url)
    const response = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(body === undefined ? {} : { body }),
    })
    body = undefined
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';')
      const separator = pair.indexOf('=')
      jar.set(pair.slice(0, separator), pair.slice(separator + 1))
    }
    const location = response.headers.get('location')
    if (location !== null) {
      url = new URL(location, url).href
      continue
    }
    const html = await response.text()
    expect(response.status, html).toBe(200)
    expect(html).toContain('<h1>Dev login</h1>')
    const uid = /action="\/interaction\/([\w-]+)\/login"/.exec(html)?.[1]
    if (uid === undefined) throw new Error(`no login form in ${html}`)
    if (choice === 'cancel') {
      url = `${oidc.issuer}/interaction/${uid}/abort`
      body = new URLSearchParams()
    } else {
      url = `${oidc.issuer}/interaction/${uid}/login`
      body = new URLSearchParams({ accountId: choice.accountId })
    }
  }
  throw new Error('too many redirects')
}

/** The auth-return parameters of a redirect-mode answer's address (its fragment). */
function readFragment(target: URL): URLSearchParams {
  return new URLSearchParams(target.hash.slice(1))
}

async function callSignerCallback(callback: URL) {
  return testApp.app.inject({ method: 'GET', url: `/signer/v1/oauth-callback${callback.search}` })
}

/** The popup page's message to its opener. */
function readPopupMessage(html: string): {
  type: string
  nonce: string
  attempt: string
  result: OAuthPopupResult
} {
  const json = /<script type="application\/json" id="oauth-result">(.*?)<\/script>/s.exec(html)?.[1]
  if (json === undefined) throw new Error(`no result in ${html}`)
  const data = JSON.parse(json) as {
    message: { type: string; nonce: string; attempt: string; result: OAuthPopupResult }
    targetOrigin: string
  }
  expect(data.targetOrigin).toBe('http://localhost:3999')
  return data.message
}

/** The whole popup flow for a test account; returns the popup result. */
async function signInWithProvider(accountId: string, options: Parameters<typeof prepareFlow>[0] = {}) {
  const flow = await prepareFlow(options)
  const callback = await authorize(flow, { accountId })
  const response = await callSignerCallback(callback)
  expect(response.statusCode, response.body).toBe(200)
  const message = readPopupMessage(response.body)
  expect(message.nonce).toBe(getOAuthNonce(flow.frame.targetPublicKey))
  return { flow, callback, result: message.result, attempt: message.attempt }
}

/** Opens a SUCCESS result's bundle with the frame key. */
async function openSession(result: OAuthPopupResult, frame: Frame): Promise<SignedInClient> {
  expect(result.status, result.error).toBe('SUCCESS')
  const session = await decryptCredentialBundle({
    bundle: result.bundle ?? '',
    embeddedPrivateKey: frame.privateKey,
  })
  return {
    orgId: result.orgId ?? '',
    sessionPrivateKey: session.privateKey,
    sessionPublicKey: session.publicKey,
    isNewUser: result.isSignup === true,
  }
}

async function whoami(client: SignedInClient) {
  const response = await postStamped(testApp, 'whoami', client, { type: 'ACTIVITY_TYPE_WHOAMI' })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<{ orgId: string; userId: string; email: string | null }>()
}

describe('social login (prepare-oauth, oauth-callback)', () => {
  it('signer-config and prepare-oauth list the provider with its discovered authorization endpoint', async () => {
    const response = await testApp.post('signer-config', {})
    expect(response.statusCode, response.body).toBe(200)
    const config = response.json<{ authProviders: unknown[]; oauthCallbackUrl: string }>()
    expect(config.authProviders).toEqual([
      { id: 'dev', isCustomProvider: true, authEndpoint: `${oidc.issuer}/auth`, clientId: 'quick-links-dev' },
    ])
    expect(config.oauthCallbackUrl).toBe(callbackUrl)
    const refused = await testApp.post('prepare-oauth', { nonce: 'not-a-hash' })
    expect(refused.statusCode).toBe(422)
  })

  it('a first sign-in creates the account; the next one opens the same account', async () => {
    const first = await signInWithProvider('alice')
    expect(first.result).toMatchObject({ status: 'SUCCESS', isSignup: true, providerName: 'dev' })
    // The popup's message echoes this attempt's secret (docs/signer.md#oauth-attempt).
    expect(first.attempt).toBe(first.flow.attempt)
    const me = await whoami(await openSession(first.result, first.flow.frame))
    expect(me.orgId).toBe(first.result.orgId)
    // A provider identity is not a contact: the account has no e-mail sign-in.
    expect(me.email).toBeNull()

    const second = await signInWithProvider('alice')
    expect(second.result).toMatchObject({ status: 'SUCCESS', isSignup: false, orgId: first.result.orgId })
    expect((await whoami(await openSession(second.result, second.flow.frame))).userId).toBe(me.userId)
  })

  it('redirect mode sends the browser back to the app with the auth-return parameters in the fragment, never to another origin', async () => {
    const flow = await prepareFlow({
      mode: 'redirect',
      redirectUrl: 'http://localhost:3999/login?next=%2Flinks',
    })
    const response = await callSignerCallback(await authorize(flow, { accountId: 'alice' }))
    expect(response.statusCode).toBe(303)
    const target = new URL(response.headers.location as string)
    expect(`${target.origin}${target.pathname}`).toBe('http://localhost:3999/login')
    // The query is the app's own; the outcome is in the fragment, which no server (or proxy) sees.
    expect(target.search).toBe('?next=%2Flinks')
    const returned = readFragment(target)
    expect(returned.get('status')).toBe('SUCCESS')
    expect(returned.get('auth-provider')).toBe('dev')
    expect(returned.get('attempt')).toBe(flow.attempt)
    const session = await openSession(
      {
        status: 'SUCCESS',
        bundle: returned.get('oauth-bundle') ?? '',
        orgId: returned.get('org-id') ?? '',
      },
      flow.frame,
    )
    expect((await whoami(session)).orgId).toBe(returned.get('org-id'))

    const elsewhere = await prepareFlow({ mode: 'redirect', redirectUrl: 'https://evil.example/steal' })
    const redirected = await callSignerCallback(await authorize(elsewhere, { accountId: 'alice' }))
    expect(new URL(redirected.headers.location as string).origin).toBe('http://localhost:3999')
  })

  it('refuses a replayed callback (the same code and state)', async () => {
    const { callback, result } = await signInWithProvider('alice')
    expect(result.status).toBe('SUCCESS')
    const again = await callSignerCallback(callback)
    expect(readPopupMessage(again.body).result).toMatchObject({
      status: 'ERROR',
      error: 'This sign-in was already used. Start again.',
    })
    expect(again.body).not.toContain('"bundle"')
  })

  it('never mints a session for a frame key other than the one whose nonce was prepared', async () => {
    const other = createFrameKey()
    const swapped = await prepareFlow({ stateKey: other.targetPublicKey })
    const response = await callSignerCallback(await authorize(swapped, { accountId: 'alice' }))
    expect(readPopupMessage(response.body).result).toMatchObject({
      status: 'ERROR',
      error: 'This sign-in was prepared for another browser key. Start again.',
    })

    // The provider was asked with another nonce than the one sealed in the requestKey.
    const wrongNonce = await prepareFlow({ providerNonce: getOAuthNonce(other.targetPublicKey) })
    const refused = await callSignerCallback(await authorize(wrongNonce, { accountId: 'alice' }))
    expect(readPopupMessage(refused.body).result).toMatchObject({
      status: 'ERROR',
      error: 'The sign-in token from the provider was issued for another sign-in (its nonce does not match).',
    })
  })

  it('a state that is not the SDK’s is a 400 page that posts nothing; a cancelled login is an error result', async () => {
    const bad = await testApp.app.inject({
      method: 'GET',
      url: '/signer/v1/oauth-callback?code=x&state=garbage',
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.body).not.toContain('oauth-result')
    // A state without the browser's per-attempt secret is not the SDK's either.
    const flow0 = await prepareFlow()
    const { attempt: _attempt, ...withoutAttempt } = JSON.parse(
      Buffer.from(flow0.state, 'base64url').toString('utf8'),
    ) as Record<string, unknown>
    const noAttempt = await testApp.app.inject({
      method: 'GET',
      url: `/signer/v1/oauth-callback?code=x&state=${Buffer.from(JSON.stringify(withoutAttempt)).toString('base64url')}`,
    })
    expect(noAttempt.statusCode).toBe(400)
    expect(bad.headers['content-security-policy']).toContain("script-src 'sha256-")

    const flow = await prepareFlow()
    const response = await callSignerCallback(await authorize(flow, 'cancel'))
    expect(readPopupMessage(response.body).result).toMatchObject({
      status: 'ERROR',
      error: 'The sign-in was cancelled.',
    })
  })

  it('verifies id tokens: a wrong audience, a wrong issuer and an expired token are refused', async () => {
    const { result } = await signInWithProvider('carol', { fetchIdTokenOnly: true })
    expect(result).toMatchObject({
      status: 'FETCHED_ID_TOKEN_ONLY',
      providerName: 'dev',
      email: 'carol@example.com',
    })
    const idToken = result.idToken ?? ''
    const now = Date.now()
    const directory = createOAuthDirectory([oidc.providerConfig], () => now)
    const provider = await directory.get('dev')
    await expect(verifyOAuthIdToken(provider, idToken, { nowMs: now })).resolves.toMatchObject({
      subject: 'carol',
      isEmailVerified: true,
    })
    await expect(
      verifyOAuthIdToken(
        { ...provider, provider: { ...provider.provider, clientId: 'another-app' } },
        idToken,
        {
          nowMs: now,
        },
      ),
    ).rejects.toThrow('The sign-in token from the provider has a wrong aud claim.')
    await expect(
      verifyOAuthIdToken({ ...provider, issuer: 'http://127.0.0.1:1' }, idToken, { nowMs: now }),
    ).rejects.toThrow('The sign-in token from the provider has a wrong iss claim.')
    await expect(verifyOAuthIdToken(provider, idToken, { nowMs: now + 2 * 3600_000 })).rejects.toThrow(
      'The sign-in token from the provider has expired.',
    )
    await expect(verifyOAuthIdToken(provider, `${idToken.slice(0, -4)}AAAA`, { nowMs: now })).rejects.toThrow(
      'The sign-in token from the provider is not valid.',
    )
  })
})

describe('account linking, add-oauth-provider and remove-oauth-provider', () => {
  /** A signed-in client from an `otp` answer opened with `frame`. */
  async function openOtpSession(
    answer: { credentialBundle: string },
    frame: Frame,
    orgId: string,
  ): Promise<SignedInClient> {
    const session = await decryptCredentialBundle({
      bundle: answer.credentialBundle,
      embeddedPrivateKey: frame.privateKey,
    })
    return {
      orgId,
      sessionPrivateKey: session.privateKey,
      sessionPublicKey: session.publicKey,
      isNewUser: false,
    }
  }

  it('a provider e-mail of an existing account asks for its e-mail code, whose sign-in in the same browser links the provider; the page never gets the id token', async () => {
    const byEmail = await signInByEmail(testApp, 'bob@example.com')
    const account = await whoami(byEmail)
    const mailsBefore = testApp.delivery.emails.length

    const linking = await signInWithProvider('bob')
    expect(linking.result).toMatchObject({
      status: 'ACCOUNT_LINKING_CONFIRMATION_REQUIRED',
      email: 'bob@example.com',
      providerName: 'dev',
      orgId: account.orgId,
    })
    expect(linking.result.bundle).toBeUndefined()
    // The identity stays at the signer under the code: no token for the page to post back.
    expect(linking.result.idToken).toBeUndefined()
    expect(linking.result.accessToken).toBeUndefined()
    expect(testApp.delivery.emails.length).toBe(mailsBefore + 1)
    const code = readCode(testApp.delivery.emails.at(-1)?.text ?? '')

    // The same code entered by another browser (frame key) is refused before it is tried.
    const elsewhere = await testApp.post('otp', {
      orgId: linking.result.orgId,
      otpId: linking.result.otpId,
      otpCode: code,
      targetPublicKey: createFrameKey().targetPublicKey,
    })
    expect(elsewhere.statusCode).toBe(401)
    expect(elsewhere.json<{ error: { details: { reason: string } } }>().error.details.reason).toBe(
      'OAUTH_LINK_REFUSED',
    )

    // The e-mail code, entered in the browser the provider flow ran in: signs in and links.
    const otp = await testApp.post('otp', {
      orgId: linking.result.orgId,
      otpId: linking.result.otpId,
      otpCode: code,
      targetPublicKey: linking.flow.frame.targetPublicKey,
    })
    expect(otp.statusCode, otp.body).toBe(200)
    const client = await openOtpSession(otp.json(), linking.flow.frame, account.orgId)
    expect((await whoami(client)).userId).toBe(account.userId)
    const notices = testApp.delivery.emails.slice(mailsBefore + 1)
    expect(notices.map((mail) => mail.subject)).toEqual([
      'A dev account was linked to your Quick Links account',
    ])

    const again = await signInWithProvider('bob')
    expect(again.result).toMatchObject({ status: 'SUCCESS', isSignup: false, orgId: account.orgId })
    expect((await whoami(await openSession(again.result, again.flow.frame))).userId).toBe(account.userId)
    testApp.clock.advance(181_000) // past the 3-sends-per-3-minutes limit of this address
    expect((await whoami(await signInByEmail(testApp, 'bob@example.com'))).userId).toBe(account.userId)
    // Back to real time: the dev provider stamps its tokens' iat with it, and a step-up checks their age.
    testApp.clock.advance(-181_000)
  })

  it('a resent linking code (same browser) still links; a code asked for from another browser takes nothing', async () => {
    const owner = await signInByEmail(testApp, 'rosa@example.com')
    const linking = await signInWithProvider('email:rosa@example.com')
    expect(linking.result.status).toBe('ACCOUNT_LINKING_CONFIRMATION_REQUIRED')
    const ask = (targetPublicKey: string) =>
      testApp.post('auth', { email: 'rosa@example.com', emailMode: 'otp', targetPublicKey })
    // Someone else asks for a code for the same e-mail: the identity stays with the browser's code.
    const stranger = await ask(createFrameKey().targetPublicKey)
    expect(stranger.statusCode, stranger.body).toBe(200)
    // 'Resend code' in the browser of the provider flow (past the 3-sends-in-3-minutes cap): the
    // new code carries the identity.
    testApp.clock.advance(3 * 60_000 + 1_000)
    const resent = await ask(linking.flow.frame.targetPublicKey)
    expect(resent.statusCode, resent.body).toBe(200)
    const { orgId, otpId } = resent.json<{ orgId: string; otpId: string }>()
    const otp = await testApp.post('otp', {
      orgId,
      otpId,
      otpCode: readCode(testApp.delivery.emails.at(-1)?.text ?? ''),
      targetPublicKey: linking.flow.frame.targetPublicKey,
    })
    expect(otp.statusCode, otp.body).toBe(200)
    const methods = await postStamped(testApp, 'list-auth-methods', owner, {
      type: 'ACTIVITY_TYPE_LIST_AUTH_METHODS',
    })
    expect(methods.json<{ oauthProviders: { subject: string }[] }>().oauthProviders).toMatchObject([
      { subject: 'email:rosa@example.com' },
    ])
    testApp.clock.advance(-(3 * 60_000 + 1_000)) // back to the dev provider's real time
  })

  it('add-oauth-provider refuses an id token whose nonce is another session’s (a token fetched by another browser)', async () => {
    const victim = await signInByEmail(testApp, 'vera@example.com')
    // The attacker fetches a token for their own identity with their own frame key.
    const attacker = await signInWithProvider('email:mallory@example.net', { fetchIdTokenOnly: true })
    expect(attacker.result.status).toBe('FETCHED_ID_TOKEN_ONLY')
    const refused = await postStamped(testApp, 'add-oauth-provider', victim, {
      type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS',
      parameters: {
        providerName: 'dev',
        oidcToken: attacker.result.idToken,
        stepUp: { verificationToken: await proveContact(testApp, { email: 'vera@example.com' }) },
      },
    })
    expect(refused.statusCode).toBe(401)
    expect(refused.json<{ error: { message: string } }>().error.message).toBe(
      'The sign-in token from the provider was issued for another sign-in (its nonce does not match).',
    )
    // Nothing was linked: the attacker's identity opens a new account of its own, not the victim's.
    const viaMallory = await signInWithProvider('email:mallory@example.net')
    expect(viaMallory.result).toMatchObject({ status: 'SUCCESS', isSignup: true })
    expect(viaMallory.result.orgId).not.toBe(victim.orgId)
  })

  it('links a provider from Settings, refuses one linked elsewhere, unlinks, and never removes the last way in', async () => {
    const owner = await signInByEmail(testApp, 'dora@example.com')
    // The provider flow runs in the owner's browser: the token's nonce is the owner session's frame key's.
    const fetched = await signInWithProvider('carol', { fetchIdTokenOnly: true, frame: owner.frame })
    const stepUp = { verificationToken: await proveContact(testApp, { email: 'dora@example.com' }) }
    const mailsBefore = testApp.delivery.emails.length
    const added = await postStamped(testApp, 'add-oauth-provider', owner, {
      type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS',
      parameters: { providerName: 'dev', oidcToken: fetched.result.idToken, stepUp },
    })
    expect(added.statusCode, added.body).toBe(200)
    expect(added.json()).toMatchObject({
      oauthProvider: { providerId: 'dev', subject: 'carol', email: 'carol@example.com' },
    })
    // The owner is told (docs/signer.md#security-notices): the provider, its e-mail, what to do.
    const notices = testApp.delivery.emails.slice(mailsBefore)
    expect(notices.map((mail) => [mail.to, mail.subject])).toEqual([
      ['dora@example.com', 'A dev account was linked to your Quick Links account'],
    ])
    expect(notices[0]?.text).toContain('A dev account (carol@example.com) was linked')
    expect(notices[0]?.text).toContain('Settings → Sign-in methods')
    const { oauthProvider } = added.json<{ oauthProvider: { issuer: string; subject: string } }>()

    // The id token works once (even with a fresh step-up).
    const replayed = await postStamped(testApp, 'add-oauth-provider', owner, {
      type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS',
      parameters: {
        providerName: 'dev',
        oidcToken: fetched.result.idToken,
        stepUp: { verificationToken: await proveContact(testApp, { email: 'dora@example.com' }) },
      },
    })
    expect(replayed.statusCode).toBe(401)

    const viaCarol = await signInWithProvider('carol')
    expect(viaCarol.result).toMatchObject({ status: 'SUCCESS', orgId: owner.orgId, isSignup: false })

    // Another account cannot take carol's identity.
    const other = await signInByEmail(testApp, 'erin@example.com')
    const taken = await signInWithProvider('carol', { fetchIdTokenOnly: true, frame: other.frame })
    const refused = await postStamped(testApp, 'add-oauth-provider', other, {
      type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS',
      parameters: {
        providerName: 'dev',
        oidcToken: taken.result.idToken,
        stepUp: { verificationToken: await proveContact(testApp, { email: 'erin@example.com' }) },
      },
    })
    expect(refused.statusCode).toBe(409)

    // Past dora's 3 codes in 3 minutes (sign-in and two step-ups).
    testApp.clock.advance(181_000)
    // Unlinking is a change of a way in too: refused on the session alone.
    const unproven = await postStamped(testApp, 'remove-oauth-provider', owner, {
      type: 'ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS',
      parameters: { issuer: oauthProvider.issuer, subject: oauthProvider.subject },
    })
    expect(unproven.statusCode).toBe(403)
    const removed = await postStamped(testApp, 'remove-oauth-provider', owner, {
      type: 'ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS',
      parameters: {
        issuer: oauthProvider.issuer,
        subject: oauthProvider.subject,
        stepUp: { verificationToken: await proveContact(testApp, { email: 'dora@example.com' }) },
      },
    })
    expect(removed.statusCode, removed.body).toBe(200)
    testApp.clock.advance(-181_000) // back to the dev provider's real time (its tokens' iat)
    const afterRemoval = await signInWithProvider('carol')
    expect(afterRemoval.result).toMatchObject({ status: 'SUCCESS', isSignup: true })
    expect(afterRemoval.result.orgId).not.toBe(owner.orgId)

    // carol's new account has only this provider: removing it is refused.
    const carol = await openSession(afterRemoval.result, afterRemoval.flow.frame)
    // Its step-up is a fresh id token of that provider identity.
    const fresh = await signInWithProvider('carol', { fetchIdTokenOnly: true })
    const last = await postStamped(testApp, 'remove-oauth-provider', carol, {
      type: 'ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS',
      parameters: {
        issuer: oauthProvider.issuer,
        subject: oauthProvider.subject,
        stepUp: { oidcToken: fresh.result.idToken, providerName: 'dev' },
      },
    })
    expect(last.statusCode).toBe(409)
    expect(last.json<{ error: { message: string } }>().error.message).toBe(
      'This is your only way to sign in. Add another one before you remove it.',
    )
  })
  it('two step-ups by the same provider identity within one second each work once (the dev provider never issues one token twice)', async () => {
    const first = await signInWithProvider('email:twice@example.com')
    const account = await openSession(first.result, first.flow.frame)
    const unlinkLast = (idToken: string) =>
      postStamped(testApp, 'remove-oauth-provider', account, {
        type: 'ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS',
        parameters: {
          issuer: oidc.issuer,
          subject: 'email:twice@example.com',
          stepUp: { oidcToken: idToken, providerName: 'dev' },
        },
      })
    const fetchIdToken = async () =>
      (
        await signInWithProvider('email:twice@example.com', {
          fetchIdTokenOnly: true,
          frame: first.flow.frame,
        })
      ).result.idToken ?? ''
    const issuedAt = (idToken: string) => decodeJwt(idToken).iat
    // Two sign-ins in the same second (the provider's iat has whole seconds): retried until they are.
    let pair: [string, string] = [await fetchIdToken(), await fetchIdToken()]
    for (let attempt = 1; attempt < 5 && issuedAt(pair[0]) !== issuedAt(pair[1]); attempt += 1) {
      pair = [await fetchIdToken(), await fetchIdToken()]
    }
    expect(issuedAt(pair[0])).toBe(issuedAt(pair[1]))
    expect(pair[0]).not.toBe(pair[1])
    // Each is accepted as the step-up (the refusal is then the last way in, not the confirmation).
    for (const idToken of pair) {
      const answer = await unlinkLast(idToken)
      expect(answer.statusCode, answer.body).toBe(409)
    }
    // And each only once.
    const replayed = await unlinkLast(pair[0])
    expect(replayed.statusCode).toBe(403)
    expect(replayed.json<{ error: { details: { reason: string } } }>().error.details.reason).toBe(
      'STEP_UP_REFUSED',
    )
  })
})

describe('a second factor after a social login (docs/signer.md#mfa-required)', () => {
  /** The code an authenticator app shows for `secret` at the signer's clock, `steps` periods on. */
  function codeFor(secret: string, steps = 0): string {
    return createTotpCode(secret, testApp.clock.now(), steps)
  }

  /** Adds and confirms an authenticator app (with the current step's code); answers its id and secret. */
  /** Enrols an app; the step-up is a fresh id token of `accountId` (a provider-only account) or a contact's proof. */
  async function enrol(client: SignedInClient, proof: string | { email: string }) {
    const stepUp =
      typeof proof === 'string'
        ? {
            oidcToken: (await signInWithProvider(proof, { fetchIdTokenOnly: true })).result.idToken,
            providerName: 'dev',
          }
        : { verificationToken: await proveContact(testApp, proof) }
    const requested = await postStamped(testApp, 'auth-request-multi-factor', client, {
      type: 'ACTIVITY_TYPE_ADD_MFA',
      parameters: { multiFactorType: 'totp', stepUp },
    })
    expect(requested.statusCode, requested.body).toBe(200)
    const enrolment = requested.json<{ multiFactorId: string; multiFactorSecret: string }>()
    const verified = await postStamped(testApp, 'auth-verify-multi-factor', client, {
      type: 'ACTIVITY_TYPE_VERIFY_MFA',
      parameters: {
        multiFactorId: enrolment.multiFactorId,
        multiFactorCode: codeFor(enrolment.multiFactorSecret),
      },
    })
    expect(verified.statusCode, verified.body).toBe(200)
    return enrolment
  }

  it('a linked identity of an account with a confirmed factor gets MFA_REQUIRED, no bundle; the app code completes it for that frame only', async () => {
    const accountId = 'email:mfa-social@example.com'
    const first = await signInWithProvider(accountId)
    const client = await openSession(first.result, first.flow.frame)
    const me = await whoami(client)
    const enrolment = await enrol(client, accountId)

    const { flow, result } = await signInWithProvider(accountId)
    expect(result).toMatchObject({
      status: 'MFA_REQUIRED',
      orgId: me.orgId,
      providerName: 'dev',
      multiFactors: [{ multiFactorId: enrolment.multiFactorId, multiFactorType: 'totp' }],
    })
    expect(result.bundle).toBeUndefined()
    const encryptedPayload = result.encryptedPayload ?? ''
    expect(encryptedPayload).not.toBe('')

    // Bound to the frame key the provider flow ran with.
    const otherFrame = await testApp.post('auth-validate-multi-factors', {
      encryptedPayload,
      multiFactors: [
        { multiFactorId: enrolment.multiFactorId, multiFactorCode: codeFor(enrolment.multiFactorSecret, 1) },
      ],
      targetPublicKey: createFrameKey().targetPublicKey,
    })
    expect(otherFrame.statusCode).toBe(401)
    const right = codeFor(enrolment.multiFactorSecret, 1)
    const wrong = await testApp.post('auth-validate-multi-factors', {
      encryptedPayload,
      multiFactors: [
        { multiFactorId: enrolment.multiFactorId, multiFactorCode: right === '123456' ? '654321' : '123456' },
      ],
      targetPublicKey: flow.frame.targetPublicKey,
    })
    expect(wrong.statusCode).toBe(401)
    expect(wrong.json<{ error: { details: { reason: string } } }>().error.details.reason).toBe('TOTP_INVALID')

    const validated = await testApp.post('auth-validate-multi-factors', {
      encryptedPayload,
      multiFactors: [{ multiFactorId: enrolment.multiFactorId, multiFactorCode: right }],
      targetPublicKey: flow.frame.targetPublicKey,
    })
    expect(validated.statusCode, validated.body).toBe(200)
    const answer = validated.json<{ payload: { credentialBundle: string }; orgId: string }>()
    const session = await openSession(
      { status: 'SUCCESS', bundle: answer.payload.credentialBundle, orgId: answer.orgId },
      flow.frame,
    )
    expect((await whoami(session)).userId).toBe(me.userId)

    // Redirect mode carries the same in the auth-return parameters, and no bundle.
    const redirect = await prepareFlow({ mode: 'redirect', redirectUrl: 'http://localhost:3999/' })
    const response = await callSignerCallback(await authorize(redirect, { accountId }))
    expect(response.statusCode).toBe(303)
    const target = readFragment(new URL(response.headers.location as string))
    expect(target.get('status')).toBe('MFA_REQUIRED')
    expect(target.get('oauth-bundle')).toBeNull()
    expect(target.get('org-id')).toBe(me.orgId)
    expect(target.get('encrypted-payload')).toBeTruthy()
    expect(JSON.parse(target.get('multi-factors') ?? '[]')).toEqual([
      { multiFactorId: enrolment.multiFactorId, multiFactorType: 'totp' },
    ])
  })

  it('an account-linking code of an account with an authenticator app links the provider only once the app code is given', async () => {
    const owner = await signInByEmail(testApp, 'mfa-link@example.com')
    const enrolment = await enrol(owner, { email: 'mfa-link@example.com' })
    const listProviders = async () =>
      (
        await postStamped(testApp, 'list-auth-methods', owner, { type: 'ACTIVITY_TYPE_LIST_AUTH_METHODS' })
      ).json<{ oauthProviders: { subject: string }[] }>().oauthProviders

    const linking = await signInWithProvider('email:mfa-link@example.com')
    expect(linking.result.status).toBe('ACCOUNT_LINKING_CONFIRMATION_REQUIRED')
    const otp = await testApp.post('otp', {
      orgId: linking.result.orgId,
      otpId: linking.result.otpId,
      otpCode: readCode(testApp.delivery.emails.at(-1)?.text ?? ''),
      targetPublicKey: linking.flow.frame.targetPublicKey,
    })
    expect(otp.statusCode, otp.body).toBe(200)
    const required = otp.json<{ status: string; encryptedPayload: string }>()
    expect(required.status).toBe('MFA_REQUIRED')
    // The e-mail alone adds no way in to an account with a second factor.
    expect(await listProviders()).toEqual([])

    const validated = await testApp.post('auth-validate-multi-factors', {
      encryptedPayload: required.encryptedPayload,
      multiFactors: [
        { multiFactorId: enrolment.multiFactorId, multiFactorCode: codeFor(enrolment.multiFactorSecret, 1) },
      ],
      targetPublicKey: linking.flow.frame.targetPublicKey,
    })
    expect(validated.statusCode, validated.body).toBe(200)
    expect(await listProviders()).toMatchObject([{ subject: 'email:mfa-link@example.com' }])
  })

  it('counts wrong codes after a social login against the user: the third locks the step and ends the challenge, even for the right code', async () => {
    const accountId = 'email:mfa-guessed@example.com'
    const first = await signInWithProvider(accountId)
    const enrolment = await enrol(await openSession(first.result, first.flow.frame), accountId)
    const { flow, result } = await signInWithProvider(accountId)
    const right = codeFor(enrolment.multiFactorSecret, 1)
    const wrong = right === '123456' ? '654321' : '123456'
    const mailsBefore = testApp.delivery.emails.length
    const attempt = (code: string) =>
      testApp.post('auth-validate-multi-factors', {
        encryptedPayload: result.encryptedPayload,
        multiFactors: [{ multiFactorId: enrolment.multiFactorId, multiFactorCode: code }],
        targetPublicKey: flow.frame.targetPublicKey,
      })
    // docs/signer.md#auth-validate-multi-factors: three wrong codes end a challenge and lock the step.
    for (let count = 1; count < 3; count += 1) expect((await attempt(wrong)).statusCode).toBe(401)
    const locking = await attempt(wrong)
    expect(locking.statusCode).toBe(429)
    expect(locking.json().error.details.reason).toBe('TOTP_LOCKED')
    const ended = await attempt(right)
    expect(ended.statusCode).toBe(401)
    expect(ended.json().error.details.reason).toBe('MFA_CHALLENGE_REFUSED')
    // No contact to notify (the provider's address is not a sign-in e-mail).
    expect(testApp.delivery.emails.length).toBe(mailsBefore)
  })
})
