import { p256 } from '@noble/curves/nist.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import type { FrameRequest, FrameResponse } from '@quicklinks/protocol/frame-messages'
import { signerActivities } from '@quicklinks/protocol/signer-activities'
import { describe, expect, it } from 'vitest'
import { encryptCredentialBundle } from '../../src/crypto/bundles/encrypt-credential-bundle.ts'
import { createSessionKey } from '../../src/crypto/sessions/create-session-key.ts'
import { decodeStampHeader } from '../../src/crypto/stamps/decode-stamp-header.ts'
import { createMemoryKeyStore } from './auth-key-store.ts'
import { createAuthRequestHandler, createFramesStampHandler } from './handle-auth-request.ts'

let nextId = 0
const request = <T extends Omit<FrameRequest, 'requestId'>>(message: T) =>
  ({ ...message, requestId: `r${++nextId}` }) as unknown as FrameRequest

async function setUp(nowMs = 1_700_000_000_000) {
  let now = nowMs
  const keyStore = createMemoryKeyStore()
  const handle = createAuthRequestHandler({ keyStore, now: () => now })
  const init = async () => {
    const answer = await handle(request({ type: 'INIT_EMBEDDED_KEY' }))
    if (answer.type !== 'EMBEDDED_PUBLIC_KEY') throw new Error(`unexpected ${answer.type}`)
    return answer.targetPublicKey
  }
  return { handle, keyStore, init, setNow: (value: number) => (now = value), getNow: () => now }
}

async function signIn(
  handle: (request: FrameRequest) => Promise<FrameResponse>,
  targetPublicKey: string,
  expiresAtMs: number,
) {
  const session = createSessionKey()
  const bundle = await encryptCredentialBundle({ sessionPrivateKey: session.privateKey, targetPublicKey })
  const answer = await handle(
    request({ type: 'INJECT_CREDENTIAL_BUNDLE', bundle, organizationId: 'org-1', expiresAtMs }),
  )
  return { session, answer }
}

const whoamiBody = JSON.stringify({
  type: 'ACTIVITY_TYPE_WHOAMI',
  timestampMs: '1700000000000',
  organizationId: 'org-1',
  parameters: {},
})

/** Whether `stampHeaderValue` is a valid stamp of `body` by `publicKey` (compressed hex). */
function isStampBy(stampHeaderValue: string, body: string, publicKey: string): boolean {
  const decoded = decodeStampHeader(stampHeaderValue)
  if (!decoded.ok) return false
  return (
    decoded.stamp.publicKey === publicKey &&
    p256.verify(decoded.stamp.signature, utf8ToBytes(body), decoded.stamp.publicKeyBytes, {
      format: 'der',
      prehash: true,
    })
  )
}

describe('auth frame requests', () => {
  it('keeps one embedded key until reset, then makes a new one', async () => {
    const { handle, init } = await setUp()
    const first = await init()
    expect(first).toMatch(/^04[0-9a-f]{128}$/)
    expect(await init()).toBe(first)
    expect(await handle(request({ type: 'RESET_EMBEDDED_KEY' }))).toMatchObject({ type: 'RESET_DONE' })
    expect(await init()).not.toBe(first)
  })

  it('opens a credential bundle and stamps bodies that verify under the session key, always low-S', async () => {
    const { handle, init, getNow } = await setUp()
    const { session, answer } = await signIn(handle, await init(), getNow() + 60_000)
    expect(answer).toMatchObject({ type: 'BUNDLE_INJECTED', ok: true })
    for (let index = 0; index < 16; index++) {
      const body = JSON.stringify({
        type: 'ACTIVITY_TYPE_WHOAMI',
        timestampMs: String(index),
        organizationId: 'org-1',
      })
      const stamp = await handle(request({ type: 'STAMP_REQUEST', body }))
      if (stamp.type !== 'STAMP') throw new Error(`unexpected ${stamp.type}`)
      expect(stamp.stampHeaderName).toBe('X-Stamp')
      const decoded = decodeStampHeader(stamp.stampHeaderValue)
      if (!decoded.ok) throw new Error(decoded.message)
      expect(decoded.stamp.publicKey).toBe(session.publicKey)
      // lowS: true rejects a high-S signature.
      const isValid = p256.verify(decoded.stamp.signature, utf8ToBytes(body), decoded.stamp.publicKeyBytes, {
        format: 'der',
        prehash: true,
        lowS: true,
      })
      expect(isValid).toBe(true)
    }
  })

  it('keeps both keys non-extractable', async () => {
    const { handle, init, keyStore, getNow } = await setUp()
    await signIn(handle, await init(), getNow() + 60_000)
    const embedded = await keyStore.getEmbeddedKeyPair()
    const stored = await keyStore.getSession()
    expect(embedded?.privateKey.extractable).toBe(false)
    expect(stored?.privateKey.extractable).toBe(false)
    await expect(crypto.subtle.exportKey('jwk', stored?.privateKey as CryptoKey)).rejects.toThrow()
  })

  it('refuses a bundle made for another key', async () => {
    const { handle, init } = await setUp()
    await init()
    const other = p256.getPublicKey(p256.utils.randomSecretKey(), false)
    const otherHex = Array.from(other, (byte) => byte.toString(16).padStart(2, '0')).join('')
    await expect(signIn(handle, otherHex, Date.now() + 60_000)).rejects.toMatchObject({
      userMessage: 'Failed to inject credential bundle',
    })
  })

  it('refuses to stamp without a session, or after the session expired', async () => {
    const { handle, init, setNow, getNow } = await setUp()
    const body = whoamiBody
    await expect(handle(request({ type: 'STAMP_REQUEST', body }))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      userMessage: 'No session key. Sign in first.',
    })
    await signIn(handle, await init(), getNow() + 60_000)
    setNow(getNow() + 60_000)
    await expect(handle(request({ type: 'STAMP_REQUEST', body }))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      userMessage: 'The session has expired. Sign in again.',
    })
  })

  it('forgets the session key on reset', async () => {
    const { handle, init, getNow } = await setUp()
    await signIn(handle, await init(), getNow() + 60_000)
    await handle(request({ type: 'RESET_EMBEDDED_KEY' }))
    await expect(handle(request({ type: 'STAMP_REQUEST', body: whoamiBody }))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    })
  })

  it('does not serve export requests', async () => {
    const { handle } = await setUp()
    await expect(
      handle(
        request({
          type: 'INJECT_WALLET_EXPORT_BUNDLE',
          bundle: '{}',
          organizationId: 'o',
          kind: 'SEED_PHRASE',
        }),
      ),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' })
  })

  it('refuses to stamp an export or a contact change for the app page, whatever the body names', async () => {
    const { handle, init, getNow } = await setUp()
    await signIn(handle, await init(), getNow() + 60_000)
    const attackerKey = bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), false))
    const bodyOf = (type: string, parameters: Record<string, unknown>) =>
      JSON.stringify({ type, timestampMs: String(getNow()), organizationId: 'org-1', parameters })
    const refused = [
      bodyOf('ACTIVITY_TYPE_EXPORT_WALLET', { walletId: 'w', targetPublicKey: attackerKey }),
      bodyOf('ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT', { address: '0x1', targetPublicKey: attackerKey }),
      bodyOf('ACTIVITY_TYPE_UPDATE_EMAIL_AUTH', { email: 'thief@example.com', verificationToken: 't' }),
      bodyOf('ACTIVITY_TYPE_UPDATE_PHONE_AUTH', { phone: '+14155550123', verificationToken: 't' }),
      // Export types the signer does not have yet, and the same body with its type repeated.
      bodyOf('ACTIVITY_TYPE_EXPORT_PRIVATE_KEY', { targetPublicKey: attackerKey }),
      `{"type":"ACTIVITY_TYPE_WHOAMI",${bodyOf('ACTIVITY_TYPE_EXPORT_WALLET', { targetPublicKey: attackerKey }).slice(1)}`,
    ]
    for (const body of refused) {
      await expect(handle(request({ type: 'STAMP_REQUEST', body })), body).rejects.toMatchObject({
        code: 'FORBIDDEN',
        details: { reason: 'NOT_FOR_THE_PAGE' },
      })
    }
    // What the frame cannot read, it does not stamp: the signer strips a BOM this frame's JSON.parse refuses.
    for (const body of [
      `\uFEFF${bodyOf('ACTIVITY_TYPE_EXPORT_WALLET', { targetPublicKey: attackerKey })}`,
      'not json',
      '[]',
      '{"parameters":{}}',
    ]) {
      await expect(handle(request({ type: 'STAMP_REQUEST', body })), body).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      })
    }
    expect(await handle(request({ type: 'STAMP_REQUEST', body: whoamiBody }))).toMatchObject({
      type: 'STAMP',
    })
  })

  it('stamps for the page only the types the signer-call table marks page: no way in is added or removed by a page stamp', async () => {
    const { handle, init, getNow } = await setUp()
    await signIn(handle, await init(), getNow() + 60_000)
    const bodyOf = (type: string, parameters: Record<string, unknown> = {}) =>
      JSON.stringify({ type, timestampMs: String(getNow()), organizationId: 'org-1', parameters })
    for (const { type, builder } of Object.values(signerActivities)) {
      const asked = handle(request({ type: 'STAMP_REQUEST', body: bodyOf(type) }))
      if (builder === 'page') await expect(asked, type).resolves.toMatchObject({ type: 'STAMP' })
      else await expect(asked, type).rejects.toMatchObject({ code: 'FORBIDDEN' })
    }
    for (const type of [
      'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
      'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS',
      'ACTIVITY_TYPE_ADD_MFA',
      'ACTIVITY_TYPE_DELETE_MFAS',
      'ACTIVITY_TYPE_DELETE_AUTHENTICATORS',
      'ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS',
      'ACTIVITY_TYPE_CREATE_MULTI_OWNER',
      // A type the table does not list yet is refused too: an allowlist.
      'ACTIVITY_TYPE_CREATE_USERS',
    ]) {
      await expect(
        handle(request({ type: 'STAMP_REQUEST', body: bodyOf(type) })),
        type,
      ).rejects.toMatchObject({
        code: 'FORBIDDEN',
      })
    }
  })

  it('builds an access change with its step-up proof, for the session’s organization, and only for reauth calls', async () => {
    const { handle, init, getNow } = await setUp()
    const { session } = await signIn(handle, await init(), getNow() + 60_000)
    const answer = await handle(
      request({
        type: 'STAMP_ACCESS_CHANGE',
        call: 'removePasskey',
        parameters: { authenticatorId: 'cred-1', organizationId: 'org-2' },
        stepUp: { verificationToken: 'proof', totpCode: '123456', extra: 'dropped' },
        timestampMs: getNow(),
      }),
    )
    if (answer.type !== 'STAMPED_REQUEST') throw new Error(`unexpected ${answer.type}`)
    expect(answer.path).toBe('remove-authenticator')
    expect(JSON.parse(answer.body)).toEqual({
      type: 'ACTIVITY_TYPE_DELETE_AUTHENTICATORS',
      timestampMs: String(getNow()),
      organizationId: 'org-1',
      parameters: {
        authenticatorId: 'cred-1',
        organizationId: 'org-2',
        stepUp: { verificationToken: 'proof', totpCode: '123456' },
      },
    })
    expect(isStampBy(answer.stamp.stampHeaderValue, answer.body, session.publicKey)).toBe(true)
    for (const asked of [
      { call: 'whoami', parameters: {}, stepUp: {} },
      { call: 'exportWallet', parameters: {}, stepUp: {} },
      { call: 'toString', parameters: {}, stepUp: {} },
      { call: 'addPasskey', parameters: { stepUp: { verificationToken: 'x' } }, stepUp: {} },
      { call: 'addPasskey', parameters: {}, stepUp: { totpCode: 42 } },
    ]) {
      await expect(
        handle(request({ type: 'STAMP_ACCESS_CHANGE', ...asked, timestampMs: getNow() })),
        asked.call,
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    }
  })

  it('builds a contact change itself, for the session’s organization, and stamps it', async () => {
    const { handle, init, getNow } = await setUp()
    const { session } = await signIn(handle, await init(), getNow() + 60_000)
    const answer = await handle(
      request({
        type: 'STAMP_CONTACT_CHANGE',
        change: {
          channel: 'sms',
          contact: '+14155550123',
          verificationToken: 'new-token',
          previousContactVerificationToken: 'old-token',
          // Not part of a change: dropped, never stamped.
          targetPublicKey: '04ff',
        } as never,
        timestampMs: 1_700_000_000_123,
      }),
    )
    if (answer.type !== 'STAMPED_REQUEST') throw new Error(`unexpected ${answer.type}`)
    expect(answer.path).toBe('update-phone-auth')
    expect(JSON.parse(answer.body)).toEqual({
      type: 'ACTIVITY_TYPE_UPDATE_PHONE_AUTH',
      timestampMs: '1700000000123',
      organizationId: 'org-1',
      parameters: {
        phone: '+14155550123',
        verificationToken: 'new-token',
        previousContactVerificationToken: 'old-token',
      },
    })
    expect(answer.stamp.stampHeaderName).toBe('X-Stamp')
    expect(isStampBy(answer.stamp.stampHeaderValue, answer.body, session.publicKey)).toBe(true)
    await expect(
      handle(
        request({
          type: 'STAMP_CONTACT_CHANGE',
          change: { channel: 'pigeon', contact: 'x', verificationToken: 't' } as never,
          timestampMs: 1,
        }),
      ),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', userMessage: 'The contact change is not complete.' })
  })

  it('builds a contact removal itself and stamps it; the page cannot have one stamped', async () => {
    const { handle, init, getNow } = await setUp()
    const { session } = await signIn(handle, await init(), getNow() + 60_000)
    const answer = await handle(
      request({
        type: 'STAMP_CONTACT_REMOVAL',
        removal: { channel: 'email', verificationToken: 'proof', organizationId: 'org-2' } as never,
        timestampMs: 1_700_000_000_123,
      }),
    )
    if (answer.type !== 'STAMPED_REQUEST') throw new Error(`unexpected ${answer.type}`)
    expect(answer.path).toBe('remove-email-auth')
    expect(JSON.parse(answer.body)).toEqual({
      type: 'ACTIVITY_TYPE_REMOVE_EMAIL_AUTH',
      timestampMs: '1700000000123',
      organizationId: 'org-1',
      parameters: { verificationToken: 'proof' },
    })
    expect(isStampBy(answer.stamp.stampHeaderValue, answer.body, session.publicKey)).toBe(true)
    await expect(
      handle(
        request({ type: 'STAMP_CONTACT_REMOVAL', removal: { channel: 'sms' } as never, timestampMs: 1 }),
      ),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', userMessage: 'The contact removal is not complete.' })
    await expect(handle(request({ type: 'STAMP_REQUEST', body: answer.body }))).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
    // An account with an authenticator app: its code travels as the step-up, inside the frame's body.
    const withTotp = await handle(
      request({
        type: 'STAMP_CONTACT_REMOVAL',
        removal: { channel: 'sms', verificationToken: 'proof', totpCode: '123456' },
        timestampMs: 1_700_000_000_456,
      }),
    )
    if (withTotp.type !== 'STAMPED_REQUEST') throw new Error(`unexpected ${withTotp.type}`)
    expect(JSON.parse(withTotp.body).parameters).toEqual({
      verificationToken: 'proof',
      stepUp: { totpCode: '123456' },
    })
  })

  it('stamps export bodies on the frames channel, and nothing else there', async () => {
    const { handle, init, getNow, keyStore } = await setUp()
    const { session } = await signIn(handle, await init(), getNow() + 60_000)
    const stampOnChannel = createFramesStampHandler({ keyStore, now: getNow })
    const exportBody = JSON.stringify({
      type: 'ACTIVITY_TYPE_EXPORT_WALLET',
      timestampMs: String(getNow()),
      organizationId: 'org-1',
      parameters: { walletId: 'w', targetPublicKey: `04${'ab'.repeat(64)}` },
    })
    const answer = await stampOnChannel({ type: 'STAMP_EXPORT_BODY', requestId: 'x', body: exportBody })
    if (answer.type !== 'EXPORT_BODY_STAMPED') throw new Error(`unexpected ${answer.type}`)
    expect(isStampBy(answer.stampHeaderValue, exportBody, session.publicKey)).toBe(true)
    await expect(
      stampOnChannel({ type: 'STAMP_EXPORT_BODY', requestId: 'y', body: whoamiBody }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
      userMessage: 'The frames channel stamps export requests only.',
    })
  })
})
