import {
  buildActivityBody,
  describeContactChangeActivity,
  describeContactRemovalActivity,
  parseContactChange,
  parseContactRemoval,
} from '@quicklinks/protocol/frame-only-activities'
import { signerActivities } from '@quicklinks/protocol/signer-activities'
import { type Stamp, stampHeaderName } from '@quicklinks/protocol/stamped-call'
import {
  isAccessChangeCall,
  parseAccessChangeParameters,
  parseStepUpProof,
  withStepUp,
} from '@quicklinks/protocol/step-up'
import { createEmbeddedKeyPair, getEmbeddedPublicKey } from './crypto/create-embedded-key-pair.ts'
import { createWebCryptoStamp } from './crypto/create-webcrypto-stamp.ts'
import { importSessionKey, type SessionSigningKey } from './crypto/import-session-key.ts'
import { openCredentialBundle } from './crypto/open-credential-bundle.ts'
import type { Stamper } from './stamper.ts'
import { createWalletError } from './wallet-error.ts'

/**
 * A {@link Stamper} that keeps both keys in this process's memory, as WebCrypto keys that cannot
 * be exported: the same crypto the auth frame runs, without a frame. For Node (tests, scripts)
 * and any runtime without a DOM; a browser app uses {@link createFrameStamper} instead.
 *
 * It stamps any body, exports included: in Node the caller holds the keys anyway, so there is no
 * other page to keep them from (docs/decisions/0014).
 *
 * `now` is the clock that decides whether the session key has expired (default `Date.now`).
 * Methods reject with an AppError: 'Failed to inject credential bundle' for a bundle that does not
 * open, 'No session key. Sign in first.' or 'The session has expired. Sign in again.' on stamp.
 */
export function createKeyStamper(options: { now?: () => number } = {}): Stamper {
  const now = options.now ?? Date.now
  let embeddedKeyPair: Promise<CryptoKeyPair> | undefined
  let session: { key: SessionSigningKey; organizationId: string; expiresAtMs: number } | undefined

  const getEmbeddedKeyPair = (): Promise<CryptoKeyPair> => {
    embeddedKeyPair ??= createEmbeddedKeyPair()
    return embeddedKeyPair
  }

  const requireSession = () => {
    if (session === undefined)
      throw createWalletError('No session key. Sign in first.', { code: 'UNAUTHORIZED' })
    if (session.expiresAtMs <= now()) {
      session = undefined
      throw createWalletError('The session has expired. Sign in again.', { code: 'UNAUTHORIZED' })
    }
    return session
  }

  const stamp = async (body: string): Promise<Stamp> => ({
    stampHeaderName,
    stampHeaderValue: await createWebCryptoStamp({ key: requireSession().key, body }),
  })

  return {
    kind: 'key',
    async getPublicKey() {
      return getEmbeddedPublicKey(await getEmbeddedKeyPair())
    },
    async injectCredentialBundle({ bundle, organizationId, expiresAtMs }) {
      const scalar = await openCredentialBundle({ bundle, embeddedKeyPair: await getEmbeddedKeyPair() })
      session = { key: await importSessionKey(scalar), organizationId, expiresAtMs }
    },
    stamp,
    async stampContactChange({ change, timestampMs }) {
      const parsed = parseContactChange(change)
      if (parsed === undefined) throw createWalletError('The contact change is not complete.')
      const { path, type, parameters } = describeContactChangeActivity(parsed)
      const body = buildActivityBody({
        type,
        organizationId: requireSession().organizationId,
        parameters,
        timestampMs,
      })
      return { path, body, stamp: await stamp(body) }
    },
    async stampAccessChange({ call, parameters, stepUp, timestampMs }) {
      const checked = parseAccessChangeParameters(parameters)
      const proof = parseStepUpProof(stepUp)
      if (!isAccessChangeCall(call) || checked === undefined || proof === undefined) {
        throw createWalletError('The change is not complete.')
      }
      const { path, type } = signerActivities[call]
      const body = buildActivityBody({
        type,
        organizationId: requireSession().organizationId,
        parameters: withStepUp(checked, proof),
        timestampMs,
      })
      return { path, body, stamp: await stamp(body) }
    },
    async stampContactRemoval({ removal, timestampMs }) {
      const parsed = parseContactRemoval(removal)
      if (parsed === undefined) throw createWalletError('The contact removal is not complete.')
      const { path, type, parameters } = describeContactRemovalActivity(parsed)
      const body = buildActivityBody({
        type,
        organizationId: requireSession().organizationId,
        parameters,
        timestampMs,
      })
      return { path, body, stamp: await stamp(body) }
    },
    async reset() {
      embeddedKeyPair = undefined
      session = undefined
    },
  }
}
