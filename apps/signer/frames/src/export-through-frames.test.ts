// The export as the browser runs it, minus the browser: the auth frame's and the export frame's
// request handlers, a real BroadcastChannel between them, and the real signer (app server on
// PGlite). The test plays the app page: it may only relay what the frames hand it.
import type { FrameRequest, FrameResponse } from '@quicklinks/protocol/frame-messages'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSignerTestApp, readCode, type SignerTestApp } from '../../test/build-signer-test-app.ts'
import { createMemoryKeyStore } from './auth-key-store.ts'
import { createAuthRequestHandler, createFramesStampHandler } from './handle-auth-request.ts'
import { createExportRequestHandler, type ExportedSecret } from './handle-export-request.ts'
import { listenToFrames } from './listen-to-frames.ts'
import { requestFramesStamp } from './request-frames-stamp.ts'

let nextId = 0
const request = <T extends Omit<FrameRequest, 'requestId'>>(message: T) =>
  ({ ...message, requestId: `r${++nextId}` }) as unknown as FrameRequest

function expectAnswer<T extends FrameResponse['type']>(
  answer: FrameResponse,
  type: T,
): Extract<FrameResponse, { type: T }> {
  if (answer.type !== type) throw new Error(`expected ${type}, got ${JSON.stringify(answer)}`)
  return answer as Extract<FrameResponse, { type: T }>
}

describe('export built in the export frame, stamped by the auth frame, relayed by the page', () => {
  let testApp: SignerTestApp
  // One name per run: nothing else listening on the channel can answer.
  const channelName = `quicklinks-signer-frames-test-${crypto.randomUUID()}`
  const authChannel = new BroadcastChannel(channelName)
  const exportChannel = new BroadcastChannel(channelName)
  const keyStore = createMemoryKeyStore()
  const shown: ExportedSecret[] = []
  let authFrame: (request: FrameRequest) => Promise<FrameResponse>
  let exportFrame: (request: FrameRequest) => Promise<FrameResponse>
  let stopListening: () => void
  let orgId: string

  /** The page's relay: POSTs a stamped call to the signer exactly as the frame built it. */
  const relay = (call: { path: string; body: string; stamp: unknown }) =>
    testApp.post(call.path, {
      stampedRequest: {
        url: `http://localhost:3999/signer/v1/${call.path}`,
        body: call.body,
        stamp: call.stamp,
      },
    })

  beforeAll(async () => {
    testApp = await buildSignerTestApp()
    authFrame = createAuthRequestHandler({ keyStore, now: testApp.clock.now })
    stopListening = listenToFrames({
      channel: authChannel,
      handle: createFramesStampHandler({ keyStore, now: testApp.clock.now }),
    })
    const config = (await testApp.post('signer-config', {})).json<{ exportSignerPublicKey: string }>()
    exportFrame = createExportRequestHandler({
      pinnedSignerPublicKey: config.exportSignerPublicKey,
      show: (secret) => shown.push(secret),
      stampExportBody: (body) => requestFramesStamp({ channel: exportChannel, body }),
    })

    // Sign in through the auth frame: its embedded key receives the session key.
    const { targetPublicKey } = expectAnswer(
      await authFrame(request({ type: 'INIT_EMBEDDED_KEY' })),
      'EMBEDDED_PUBLIC_KEY',
    )
    const auth = await testApp.post('auth', {
      email: 'frames@example.com',
      emailMode: 'otp',
      targetPublicKey,
    })
    const started = auth.json<{ orgId: string; otpId: string }>()
    orgId = started.orgId
    const otp = await testApp.post('otp', {
      orgId,
      otpId: started.otpId,
      otpCode: readCode(testApp.delivery.emails.at(-1)?.text ?? ''),
      targetPublicKey,
    })
    expectAnswer(
      await authFrame(
        request({
          type: 'INJECT_CREDENTIAL_BUNDLE',
          bundle: otp.json().credentialBundle,
          organizationId: orgId,
          expiresAtMs: testApp.clock.now() + 600_000,
        }),
      ),
      'BUNDLE_INJECTED',
    )
  })

  afterAll(async () => {
    stopListening?.()
    authChannel.close()
    exportChannel.close()
    await testApp?.close()
  })

  async function whoami(): Promise<{ walletId: string; address: string }> {
    const body = JSON.stringify({
      type: 'ACTIVITY_TYPE_WHOAMI',
      timestampMs: String(testApp.clock.now()),
      organizationId: orgId,
      parameters: {},
    })
    const { stampHeaderName, stampHeaderValue } = expectAnswer(
      await authFrame(request({ type: 'STAMP_REQUEST', body })),
      'STAMP',
    )
    const response = await relay({ path: 'whoami', body, stamp: { stampHeaderName, stampHeaderValue } })
    expect(response.statusCode).toBe(200)
    return response.json()
  }

  it('shows the seed phrase in the export frame only; the page relays a body it did not choose', async () => {
    const { walletId, address } = await whoami()
    const call = expectAnswer(
      await exportFrame(
        request({
          type: 'STAMP_EXPORT_REQUEST',
          target: { kind: 'SEED_PHRASE', walletId },
          organizationId: orgId,
          timestampMs: testApp.clock.now(),
        }),
      ),
      'STAMPED_REQUEST',
    )
    expect(call.path).toBe('export-wallet')
    const body = JSON.parse(call.body)
    expect(body).toMatchObject({ type: 'ACTIVITY_TYPE_EXPORT_WALLET', organizationId: orgId })
    expect(body.parameters).toEqual({ walletId, targetPublicKey: expect.stringMatching(/^04[0-9a-f]{128}$/) })

    // The page may try to point the stamped body at a key of its own: the stamp no longer matches.
    const forged = call.body.replace(body.parameters.targetPublicKey, `04${'ab'.repeat(64)}`)
    expect((await relay({ ...call, body: forged })).statusCode).toBe(401)

    const response = await relay(call)
    expect(response.statusCode).toBe(200)
    const bundle: string = response.json().activity.result.exportBundle
    expectAnswer(
      await exportFrame(
        request({ type: 'INJECT_WALLET_EXPORT_BUNDLE', bundle, organizationId: orgId, kind: 'SEED_PHRASE' }),
      ),
      'BUNDLE_INJECTED',
    )
    const secret = shown.at(-1)
    if (secret?.kind !== 'SEED_PHRASE') throw new Error('no seed phrase shown')
    expect(mnemonicToAccount(secret.words.join(' ')).address).toBe(address)
    // What passed through the page carries none of the words.
    for (const word of secret.words) expect(`${call.body}${bundle}`).not.toMatch(new RegExp(`\\b${word}\\b`))
  })

  it('shows the private key of the user’s address the same way', async () => {
    const { address } = await whoami()
    const call = expectAnswer(
      await exportFrame(
        request({
          type: 'STAMP_EXPORT_REQUEST',
          target: { kind: 'PRIVATE_KEY', address },
          organizationId: orgId,
          timestampMs: testApp.clock.now(),
        }),
      ),
      'STAMPED_REQUEST',
    )
    expect(call.path).toBe('export-wallet-account')
    const response = await relay(call)
    const bundle: string = response.json().activity.result.exportBundle
    await exportFrame(
      request({ type: 'INJECT_WALLET_EXPORT_BUNDLE', bundle, organizationId: orgId, kind: 'PRIVATE_KEY' }),
    )
    const secret = shown.at(-1)
    if (secret?.kind !== 'PRIVATE_KEY') throw new Error('no private key shown')
    expect(privateKeyToAccount(secret.privateKey as `0x${string}`).address).toBe(address)
  })

  it('refuses the page an export to a key of its own: the auth frame will not stamp it', async () => {
    const { walletId } = await whoami()
    const body = JSON.stringify({
      type: 'ACTIVITY_TYPE_EXPORT_WALLET',
      timestampMs: String(testApp.clock.now()),
      organizationId: orgId,
      parameters: { walletId, targetPublicKey: `04${'cd'.repeat(64)}` },
    })
    await expect(authFrame(request({ type: 'STAMP_REQUEST', body }))).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
  })

  it('says so when no auth frame is there to stamp', async () => {
    const lonely = new BroadcastChannel(`quicklinks-signer-frames-test-${crypto.randomUUID()}`)
    try {
      await expect(requestFramesStamp({ channel: lonely, body: '{}', timeoutMs: 200 })).rejects.toMatchObject(
        {
          code: 'SERVICE_UNAVAILABLE',
          userMessage: 'The signing frame did not answer. Reload the page and try again.',
        },
      )
    } finally {
      lonely.close()
    }
  })
})
