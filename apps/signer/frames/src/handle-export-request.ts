import { p256 } from '@noble/curves/nist.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { AppError } from '@quicklinks/core/app-error'
import type { FrameRequest, FrameResponse } from '@quicklinks/wallet/frame-messages'
import { validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { BundleError } from '../../src/bundles/bundle-error.ts'
import { openExportBundle } from '../../src/bundles/open-export-bundle.ts'

/** What the export frame shows: the words of a seed phrase, or a 0x-hex private key. */
export type ExportedSecret =
  | { kind: 'SEED_PHRASE'; words: string[] }
  | { kind: 'PRIVATE_KEY'; privateKey: string }

/**
 * The export frame's answers (frame-messages.ts):
 * - `INIT_EMBEDDED_KEY` → `EMBEDDED_PUBLIC_KEY`: a FRESH P-256 key for this export, replacing any
 *   earlier one, kept in this page's memory only.
 * - `INJECT_WALLET_EXPORT_BUNDLE` → `BUNDLE_INJECTED {ok: true}`: opens the bundle with
 *   open-export-bundle (signed by the PINNED service key, for the expected organization, then
 *   HPKE), hands the secret to `show` (this frame's DOM), and forgets the key. The parent only
 *   learns `ok`.
 *
 * Fails (an ERROR answer) when the frame has no pinned key, no key was made, the bundle is
 * refused (wrong signer, bad signature, other organization, not for this key) or its content is
 * not the `kind` asked for.
 */
export function createExportRequestHandler(input: {
  pinnedSignerPublicKey: string | undefined
  show: (secret: ExportedSecret) => void
}) {
  let embeddedKey: Uint8Array | undefined

  return async (request: FrameRequest): Promise<FrameResponse> => {
    const { requestId } = request
    switch (request.type) {
      case 'INIT_EMBEDDED_KEY': {
        embeddedKey?.fill(0)
        embeddedKey = p256.utils.randomSecretKey()
        return {
          type: 'EMBEDDED_PUBLIC_KEY',
          requestId,
          targetPublicKey: bytesToHex(p256.getPublicKey(embeddedKey, false)),
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
