import { p256 } from '@noble/curves/nist.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import type { FrameRequest } from '@quicklinks/protocol/frame-messages'
import { generateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { describe, expect, it, vi } from 'vitest'
import { createExportBundle, type ExportSecret } from '../../src/crypto/bundles/create-export-bundle.ts'
import { createExportRequestHandler, type ExportedSecret } from './handle-export-request.ts'

let nextId = 0
const request = <T extends Omit<FrameRequest, 'requestId'>>(message: T) =>
  ({ ...message, requestId: `r${++nextId}` }) as unknown as FrameRequest

const signingKey = p256.utils.randomSecretKey()
const pinned = bytesToHex(p256.getPublicKey(signingKey, false))

function setUp({ pin }: { pin: string | undefined } = { pin: pinned }) {
  const show = vi.fn<(secret: ExportedSecret) => void>()
  const handle = createExportRequestHandler({
    pinnedSignerPublicKey: pin,
    show,
    // These tests open bundles only; the build-and-stamp path is in export-through-frames.test.ts.
    stampExportBody: () => Promise.reject(new Error('no auth frame in this test')),
  })
  const init = async () => {
    const answer = await handle(request({ type: 'INIT_EMBEDDED_KEY' }))
    if (answer.type !== 'EMBEDDED_PUBLIC_KEY') throw new Error(`unexpected ${answer.type}`)
    return answer.targetPublicKey
  }
  return { handle, show, init }
}

const bundleFor = (
  secret: ExportSecret,
  targetPublicKey: string,
  options: { organizationId?: string; key?: Uint8Array } = {},
) =>
  createExportBundle({
    secret,
    targetPublicKey,
    organizationId: options.organizationId ?? 'org-1',
    signingKey: options.key ?? signingKey,
  })

describe('export frame requests', () => {
  it('shows the seed phrase in the frame and answers the parent only ok', async () => {
    const { handle, show, init } = setUp()
    const mnemonic = generateMnemonic(wordlist)
    const bundle = await bundleFor({ kind: 'mnemonic', mnemonic }, await init())
    const answer = await handle(
      request({ type: 'INJECT_WALLET_EXPORT_BUNDLE', bundle, organizationId: 'org-1', kind: 'SEED_PHRASE' }),
    )
    expect(answer).toEqual({ type: 'BUNDLE_INJECTED', requestId: expect.any(String), ok: true })
    expect(show).toHaveBeenCalledWith({ kind: 'SEED_PHRASE', words: mnemonic.split(' ') })
  })

  it('shows a private key as 0x hex', async () => {
    const { handle, show, init } = setUp()
    const privateKey = p256.utils.randomSecretKey()
    const bundle = await bundleFor({ kind: 'privateKey', privateKey }, await init())
    await handle(
      request({ type: 'INJECT_WALLET_EXPORT_BUNDLE', bundle, organizationId: 'org-1', kind: 'PRIVATE_KEY' }),
    )
    expect(show).toHaveBeenCalledWith({ kind: 'PRIVATE_KEY', privateKey: `0x${bytesToHex(privateKey)}` })
  })

  it('refuses a bundle signed by a key other than the pinned one', async () => {
    const { handle, show, init } = setUp()
    const bundle = await bundleFor({ kind: 'mnemonic', mnemonic: generateMnemonic(wordlist) }, await init(), {
      key: p256.utils.randomSecretKey(),
    })
    await expect(
      handle(
        request({
          type: 'INJECT_WALLET_EXPORT_BUNDLE',
          bundle,
          organizationId: 'org-1',
          kind: 'SEED_PHRASE',
        }),
      ),
    ).rejects.toMatchObject({ reason: 'SIGNER_NOT_PINNED' })
    expect(show).not.toHaveBeenCalled()
  })

  it('refuses a bundle made for another organization', async () => {
    const { handle, show, init } = setUp()
    const bundle = await bundleFor({ kind: 'mnemonic', mnemonic: generateMnemonic(wordlist) }, await init(), {
      organizationId: 'org-2',
    })
    await expect(
      handle(
        request({
          type: 'INJECT_WALLET_EXPORT_BUNDLE',
          bundle,
          organizationId: 'org-1',
          kind: 'SEED_PHRASE',
        }),
      ),
    ).rejects.toMatchObject({ reason: 'ORGANIZATION_MISMATCH' })
    expect(show).not.toHaveBeenCalled()
  })

  it('uses each key for one bundle only, and a fresh key per export', async () => {
    const { handle, init } = setUp()
    const first = await init()
    const second = await init()
    expect(second).not.toBe(first)
    const bundle = await bundleFor({ kind: 'mnemonic', mnemonic: generateMnemonic(wordlist) }, second)
    const inject = () =>
      handle(
        request({
          type: 'INJECT_WALLET_EXPORT_BUNDLE',
          bundle,
          organizationId: 'org-1',
          kind: 'SEED_PHRASE',
        }),
      )
    await inject()
    await expect(inject()).rejects.toMatchObject({ userMessage: 'Failed to inject wallet export bundle' })
  })

  it('refuses a seed-phrase export whose content is a private key', async () => {
    const { handle, show, init } = setUp()
    const bundle = await bundleFor(
      { kind: 'privateKey', privateKey: p256.utils.randomSecretKey() },
      await init(),
    )
    await expect(
      handle(
        request({
          type: 'INJECT_WALLET_EXPORT_BUNDLE',
          bundle,
          organizationId: 'org-1',
          kind: 'SEED_PHRASE',
        }),
      ),
    ).rejects.toMatchObject({ userMessage: 'The exported secret is not a seed phrase.' })
    expect(show).not.toHaveBeenCalled()
  })

  it('refuses every bundle when served without a pinned key', async () => {
    const { handle, init } = setUp({ pin: undefined })
    const bundle = await bundleFor({ kind: 'mnemonic', mnemonic: generateMnemonic(wordlist) }, await init())
    await expect(
      handle(
        request({
          type: 'INJECT_WALLET_EXPORT_BUNDLE',
          bundle,
          organizationId: 'org-1',
          kind: 'SEED_PHRASE',
        }),
      ),
    ).rejects.toMatchObject({ userMessage: 'The export frame is not configured.' })
  })
})
