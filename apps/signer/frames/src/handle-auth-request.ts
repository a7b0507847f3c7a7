import { AppError } from '@quicklinks/core/app-error'
import {
  createEmbeddedKeyPair,
  getEmbeddedPublicKey,
} from '@quicklinks/wallet/crypto/create-embedded-key-pair'
import { createWebCryptoStamp, stampHeaderName } from '@quicklinks/wallet/crypto/create-webcrypto-stamp'
import { importSessionKey } from '@quicklinks/wallet/crypto/import-session-key'
import { openCredentialBundle } from '@quicklinks/wallet/crypto/open-credential-bundle'
import type { FrameRequest, FrameResponse } from '@quicklinks/wallet/frame-messages'
import type { AuthKeyStore } from './auth-key-store.ts'

/** How long a session key is used when the parent does not say (SPEC §9: 15 minutes). */
const defaultSessionMs = 900_000

/**
 * The auth frame's answers (frame-messages.ts):
 * - `INIT_EMBEDDED_KEY` → `EMBEDDED_PUBLIC_KEY`: the stored embedded key pair (ECDH P-256,
 *   private half non-extractable), made and stored on first use; kept until RESET, so a magic
 *   link opened later in this browser still opens.
 * - `INJECT_CREDENTIAL_BUNDLE` → `BUNDLE_INJECTED {ok: true}`: opens the bundle with the embedded
 *   pair and stores the session key as a non-extractable ECDSA key with its org and expiry.
 * - `STAMP_REQUEST` → `STAMP`: the `X-Stamp` of `body` (low-S DER) with the session key.
 * - `RESET_EMBEDDED_KEY` → `RESET_DONE`: deletes both keys.
 *
 * Fails (an ERROR answer) with 'Failed to inject credential bundle' for a bundle that does not
 * open, UNAUTHORIZED 'No session key. Sign in first.' or 'The session has expired. Sign in
 * again.' on a stamp, and BAD_REQUEST for a request the auth frame does not serve.
 */
export function createAuthRequestHandler(input: { keyStore: AuthKeyStore; now?: () => number }) {
  const { keyStore } = input
  const now = input.now ?? Date.now

  const getOrCreateEmbeddedKeyPair = async (): Promise<CryptoKeyPair> =>
    (await keyStore.getEmbeddedKeyPair()) ??
    (await keyStore.addEmbeddedKeyPair(await createEmbeddedKeyPair()))

  return async (request: FrameRequest): Promise<FrameResponse> => {
    const { requestId } = request
    switch (request.type) {
      case 'INIT_EMBEDDED_KEY': {
        const keyPair = await getOrCreateEmbeddedKeyPair()
        return {
          type: 'EMBEDDED_PUBLIC_KEY',
          requestId,
          targetPublicKey: await getEmbeddedPublicKey(keyPair),
        }
      }
      case 'INJECT_CREDENTIAL_BUNDLE': {
        if (
          typeof request.bundle !== 'string' ||
          typeof request.organizationId !== 'string' ||
          !request.organizationId
        ) {
          throw new AppError('BAD_REQUEST', { userMessage: 'Failed to inject credential bundle' })
        }
        const keyPair = await keyStore.getEmbeddedKeyPair()
        if (keyPair === undefined) {
          throw new AppError('BAD_REQUEST', { userMessage: 'Failed to inject credential bundle' })
        }
        const scalar = await openCredentialBundle({ bundle: request.bundle, embeddedKeyPair: keyPair })
        const key = await importSessionKey(scalar)
        const expiresAtMs =
          typeof request.expiresAtMs === 'number' && Number.isFinite(request.expiresAtMs)
            ? request.expiresAtMs
            : now() + defaultSessionMs
        await keyStore.putSession({ ...key, organizationId: request.organizationId, expiresAtMs })
        return { type: 'BUNDLE_INJECTED', requestId, ok: true }
      }
      case 'STAMP_REQUEST': {
        if (typeof request.body !== 'string')
          throw new AppError('BAD_REQUEST', { userMessage: 'Nothing to stamp.' })
        const session = await keyStore.getSession()
        if (session === undefined) {
          throw new AppError('UNAUTHORIZED', { userMessage: 'No session key. Sign in first.' })
        }
        if (session.expiresAtMs <= now()) {
          await keyStore.deleteSession()
          throw new AppError('UNAUTHORIZED', { userMessage: 'The session has expired. Sign in again.' })
        }
        const stampHeaderValue = await createWebCryptoStamp({ key: session, body: request.body })
        return { type: 'STAMP', requestId, stampHeaderName, stampHeaderValue }
      }
      case 'RESET_EMBEDDED_KEY':
        await keyStore.clear()
        return { type: 'RESET_DONE', requestId }
      default:
        throw new AppError('BAD_REQUEST', { userMessage: `The auth frame does not handle ${request.type}.` })
    }
  }
}
