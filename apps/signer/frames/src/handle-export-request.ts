import { p256 } from '@noble/curves/nist.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { AppError } from '@quicklinks/core/app-error'
import { type FrameRequest, type FrameResponse, isTimestampMs } from '@quicklinks/protocol/frame-messages'
import {
  buildActivityBody,
  describeExportActivity,
  parseExportTarget,
} from '@quicklinks/protocol/frame-only-activities'
import { validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { BundleError } from '../../src/crypto/bundles/bundle-error.ts'
import { openExportBundle } from '../../src/crypto/bundles/open-export-bundle.ts'

/** What the export frame shows: the words of a seed phrase, or a 0x-hex private key. */
export type ExportedSecret =
  | { kind: 'SEED_PHRASE'; words: string[] }
  | { kind: 'PRIVATE_KEY'; privateKey: string }

/**
 * The export frame's answers (@quicklinks/protocol/frame-messages):
 * - `INIT_EMBEDDED_KEY` → `EMBEDDED_PUBLIC_KEY`: a FRESH P-256 key for this export, replacing any
 *   earlier one, kept in this page's memory only.
 * - `STAMP_EXPORT_REQUEST` → `STAMPED_REQUEST`: a fresh key again, the export activity for
 *   `target` encrypted to it, built here and stamped by the auth frame through `stampExportBody`
 *   (the frames channel). The parent only relays it: it never chooses the key the secret is
 *   encrypted to (docs/decisions/0014).
 * - `INJECT_WALLET_EXPORT_BUNDLE` → `BUNDLE_INJECTED {ok: true}`: opens the bundle with
 *   open-export-bundle (signed by the PINNED service key, for the expected organization, then
 *   HPKE), hands the secret to `show` (this frame's DOM), and forgets the key. The parent only
 *   learns `ok`.
 *
 * Fails (an ERROR answer) when the frame has no pinned key, no key was made, the export target is
 * malformed, the auth frame refuses to stamp (no session, expired) or does not answer, the bundle
 * is refused (wrong signer, bad signature, other organization, not for this key) or its content
 * is not the `kind` asked for.
 */
export function createExportRequestHandler(input: {
  pinnedSignerPublicKey: string | undefined
  show: (secret: ExportedSecret) => void
  /** Has the auth frame stamp an export body; resolves with the `X-Stamp` value. */
  stampExportBody: (body: string) => Promise<string>
}) {
  let embeddedKey: Uint8Array | undefined
  const createKey = (): string => {
    embeddedKey?.fill(0)
    embeddedKey = p256.utils.randomSecretKey()
    return bytesToHex(p256.getPublicKey(embeddedKey, false))
  }

  return async (request: FrameRequest): Promise<FrameResponse> => {
    const { requestId } = request
    switch (request.type) {
      case 'INIT_EMBEDDED_KEY':
        return { type: 'EMBEDDED_PUBLIC_KEY', requestId, targetPublicKey: createKey() }
      case 'STAMP_EXPORT_REQUEST': {
        const target = parseExportTarget(request.target)
        const { organizationId, timestampMs } = request
        if (
          target === undefined ||
          typeof organizationId !== 'string' ||
          organizationId.length === 0 ||
          !isTimestampMs(timestampMs)
        ) {
          throw new AppError('BAD_REQUEST', { userMessage: 'The export request is not complete.' })
        }
        const { path, type, parameters } = describeExportActivity(target, createKey())
        const body = buildActivityBody({ type, organizationId, parameters, timestampMs })
        const stampHeaderValue = await input.stampExportBody(body)
        return {
          type: 'STAMPED_REQUEST',
          requestId,
          path,
          body,
          stamp: { stampHeaderName: 'X-Stamp', stampHeaderValue },
        }
      }
      case 'INJECT_WALLET_EXPORT_BUNDLE': {
        if (!input.pinnedSignerPublicKey) {
          throw new AppError('SERVICE_UNAVAILABLE', { userMessage: 'The export frame is not configured.' })
        }
        if (embeddedKey === undefined) {
          throw new AppError('BAD_REQUEST', { userMessage: 'Failed to inject wallet export bundle' })
        }
        const key = embeddedKey
        embeddedKey = undefined
        let plaintext: Uint8Array
        try {
          plaintext = await openExportBundle({
            bundle: request.bundle,
            embeddedPrivateKey: key,
            organizationId: request.organizationId,
            pinnedSignerPublicKey: input.pinnedSignerPublicKey,
          })
        } catch (error) {
          if (error instanceof BundleError) throw error
          throw new AppError('BAD_REQUEST', {
            userMessage: 'Failed to inject wallet export bundle',
            cause: error,
          })
        } finally {
          key.fill(0)
        }
        try {
          input.show(decodeSecret(plaintext, request.kind))
        } finally {
          plaintext.fill(0)
        }
        return { type: 'BUNDLE_INJECTED', requestId, ok: true }
      }
      default:
        throw new AppError('BAD_REQUEST', {
          userMessage: `The export frame does not handle ${request.type}.`,
        })
    }
  }
}

function decodeSecret(plaintext: Uint8Array, kind: unknown): ExportedSecret {
  if (kind === 'SEED_PHRASE') {
    let mnemonic: string
    try {
      mnemonic = new TextDecoder('utf-8', { fatal: true }).decode(plaintext)
    } catch {
      mnemonic = ''
    }
    if (!validateMnemonic(mnemonic, wordlist)) {
      throw new AppError('BAD_REQUEST', { userMessage: 'The exported secret is not a seed phrase.' })
    }
    return { kind: 'SEED_PHRASE', words: mnemonic.split(' ') }
  }
  if (kind === 'PRIVATE_KEY') {
    if (plaintext.length !== 32) {
      throw new AppError('BAD_REQUEST', { userMessage: 'The exported secret is not a private key.' })
    }
    return { kind: 'PRIVATE_KEY', privateKey: `0x${bytesToHex(plaintext)}` }
  }
  throw new AppError('BAD_REQUEST', { userMessage: `Unknown export mode: ${String(kind)}` })
}
