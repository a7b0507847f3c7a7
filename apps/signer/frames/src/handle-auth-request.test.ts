import { p256 } from '@noble/curves/nist.js'
import { utf8ToBytes } from '@noble/hashes/utils.js'
import type { FrameRequest, FrameResponse } from '@quicklinks/wallet/frame-messages'
import { describe, expect, it } from 'vitest'
import { encryptCredentialBundle } from '../../src/bundles/encrypt-credential-bundle.ts'
import { createSessionKey } from '../../src/sessions/create-session-key.ts'
import { decodeStampHeader } from '../../src/stamps/decode-stamp-header.ts'
import { createMemoryKeyStore } from './auth-key-store.ts'
import { createAuthRequestHandler } from './handle-auth-request.ts'

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
    const body = '{}'
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
    await expect(handle(request({ type: 'STAMP_REQUEST', body: '{}' }))).rejects.toMatchObject({
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
})
