import { AppError } from '@quicklinks/core/app-error'
import { type FrameRequest, type FrameResponse, isTimestampMs } from '@quicklinks/protocol/frame-messages'
import {
  buildActivityBody,
  describeContactChangeActivity,
  describeContactRemovalActivity,
  isExportActivityType,
  isFrameOnlyActivityType,
  parseContactChange,
  parseContactRemoval,
} from '@quicklinks/protocol/frame-only-activities'
import { signerActivities, signerRefusalReasons } from '@quicklinks/protocol/signer-activities'
import { stampHeaderName } from '@quicklinks/protocol/stamped-call'
import {
  isAccessChangeCall,
  parseAccessChangeParameters,
  parseStepUpProof,
  withStepUp,
} from '@quicklinks/protocol/step-up'
import {
  createEmbeddedKeyPair,
  getEmbeddedPublicKey,
} from '@quicklinks/wallet/crypto/create-embedded-key-pair'
import { createWebCryptoStamp } from '@quicklinks/wallet/crypto/create-webcrypto-stamp'
import { importSessionKey } from '@quicklinks/wallet/crypto/import-session-key'
import { openCredentialBundle } from '@quicklinks/wallet/crypto/open-credential-bundle'
import type { AuthKeyStore, StoredSession } from './auth-key-store.ts'
import type { FramesChannelRequest, FramesChannelResponse } from './frames-channel-messages.ts'

/** How long a session key is used when the parent does not say (15 minutes, docs/product.md#constants). */
const defaultSessionMs = 900_000

/**
 * The auth frame's answers (@quicklinks/protocol/frame-messages):
 * - `INIT_EMBEDDED_KEY` → `EMBEDDED_PUBLIC_KEY`: the stored embedded key pair (ECDH P-256,
 *   private half non-extractable), made and stored on first use; kept until RESET, so a magic
 *   link opened later in this browser still opens.
 * - `INJECT_CREDENTIAL_BUNDLE` → `BUNDLE_INJECTED {ok: true}`: opens the bundle with the embedded
 *   pair and stores the session key as a non-extractable ECDSA key with its org and expiry.
 * - `STAMP_REQUEST` → `STAMP`: the `X-Stamp` of `body` (low-S DER) with the session key, only
 *   when the body's type is one the signer-call table marks `page` (signing, reads, session
 *   revocation; @quicklinks/protocol/signer-activities). Everything else (exports, contact changes,
 *   passkeys, providers, TOTP factors, multi-owner membership, unknown types) the app page may not
 *   have stamped, whatever it puts in them (docs/decisions/0014, docs/signer.md#signer-calls).
 * - `STAMP_CONTACT_CHANGE` → `STAMPED_REQUEST`: builds the update-email/phone body itself from
 *   the high-level change, for the session's organization, and stamps it.
 * - `STAMP_CONTACT_REMOVAL` → `STAMPED_REQUEST`: likewise for the remove-email/phone body.
 * - `STAMP_ACCESS_CHANGE` → `STAMPED_REQUEST`: builds a `reauth` call of the table (a passkey,
 *   provider, TOTP factor or multi-owner change) with the step-up proof in `parameters.stepUp`; the
 *   signer checks the proof (docs/signer.md#step-up).
 * - `RESET_EMBEDDED_KEY` → `RESET_DONE`: deletes both keys.
 *
 * Fails (an ERROR answer) with 'Failed to inject credential bundle' for a bundle that does not
 * open, UNAUTHORIZED 'No session key. Sign in first.' or 'The session has expired. Sign in
 * again.' on a stamp, FORBIDDEN (reason NOT_FOR_THE_PAGE) for a body the table does not give the page, and BAD_REQUEST for a body
 * that is not a JSON object with a `type`, an incomplete change, or a request the auth frame does
 * not serve.
 */
export function createAuthRequestHandler(input: { keyStore: AuthKeyStore; now?: () => number }) {
  const { keyStore } = input
  const now = input.now ?? Date.now
  const stamp = createSessionStamper(input)

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
        const type = readActivityType(request.body)
        if (type === undefined) {
          // The signer parses what this frame cannot (a leading BOM, say): stamp only what is read here.
          throw new AppError('BAD_REQUEST', {
            userMessage: 'The signing frame stamps only JSON request bodies with a type.',
          })
        }
        if (isFrameOnlyActivityType(type)) {
          throw new AppError('FORBIDDEN', {
            userMessage: `The signing frame does not stamp ${type.slice(0, 80)} for the page: exports and changes to how you sign in are made inside the wallet frames.`,
            details: { reason: signerRefusalReasons.NOT_FOR_THE_PAGE },
          })
        }
        const { stampHeaderValue } = await stamp(request.body)
        return { type: 'STAMP', requestId, stampHeaderName, stampHeaderValue }
      }
      case 'STAMP_CONTACT_CHANGE': {
        const change = parseContactChange(request.change)
        if (change === undefined || !isTimestampMs(request.timestampMs)) {
          throw new AppError('BAD_REQUEST', { userMessage: 'The contact change is not complete.' })
        }
        const { path, type, parameters } = describeContactChangeActivity(change)
        const session = await stamp.requireSession()
        const body = buildActivityBody({
          type,
          organizationId: session.organizationId,
          parameters,
          timestampMs: request.timestampMs,
        })
        const { stampHeaderValue } = await stamp(body)
        return {
          type: 'STAMPED_REQUEST',
          requestId,
          path,
          body,
          stamp: { stampHeaderName, stampHeaderValue },
        }
      }
      case 'STAMP_CONTACT_REMOVAL': {
        const removal = parseContactRemoval(request.removal)
        if (removal === undefined || !isTimestampMs(request.timestampMs)) {
          throw new AppError('BAD_REQUEST', { userMessage: 'The contact removal is not complete.' })
        }
        const { path, type, parameters } = describeContactRemovalActivity(removal)
        const session = await stamp.requireSession()
        const body = buildActivityBody({
          type,
          organizationId: session.organizationId,
          parameters,
          timestampMs: request.timestampMs,
        })
        const { stampHeaderValue } = await stamp(body)
        return {
          type: 'STAMPED_REQUEST',
          requestId,
          path,
          body,
          stamp: { stampHeaderName, stampHeaderValue },
        }
      }
      case 'STAMP_ACCESS_CHANGE': {
        const parameters = parseAccessChangeParameters(request.parameters)
        const stepUp = parseStepUpProof(request.stepUp)
        if (
          !isAccessChangeCall(request.call) ||
          parameters === undefined ||
          stepUp === undefined ||
          !isTimestampMs(request.timestampMs)
        ) {
          throw new AppError('BAD_REQUEST', { userMessage: 'The change is not complete.' })
        }
        const { path, type } = signerActivities[request.call]
        const session = await stamp.requireSession()
        const body = buildActivityBody({
          type,
          organizationId: session.organizationId,
          parameters: withStepUp(parameters, stepUp),
          timestampMs: request.timestampMs,
        })
        const { stampHeaderValue } = await stamp(body)
        return {
          type: 'STAMPED_REQUEST',
          requestId,
          path,
          body,
          stamp: { stampHeaderName, stampHeaderValue },
        }
      }
      case 'RESET_EMBEDDED_KEY':
        await keyStore.clear()
        return { type: 'RESET_DONE', requestId }
      default:
        throw new AppError('BAD_REQUEST', { userMessage: `The auth frame does not handle ${request.type}.` })
    }
  }
}

/**
 * The auth frame's answers on the frames channel (frames-channel-messages.ts), which only
 * frames-origin documents reach: `STAMP_EXPORT_BODY` → `EXPORT_BODY_STAMPED`, for export bodies
 * only (the export frame builds them to its own key). Anything else is refused: the channel is not
 * a second door to the session key.
 *
 * Fails (an `EXPORT_BODY_REFUSED` answer) with FORBIDDEN for a body that is not an export, or the
 * stamp refusals of {@link createAuthRequestHandler}.
 */
export function createFramesStampHandler(input: { keyStore: AuthKeyStore; now?: () => number }) {
  const stamp = createSessionStamper(input)
  return async (request: FramesChannelRequest): Promise<FramesChannelResponse> => {
    if (!isExportActivityType(readActivityType(request.body))) {
      throw new AppError('FORBIDDEN', { userMessage: 'The frames channel stamps export requests only.' })
    }
    const { stampHeaderValue } = await stamp(request.body)
    return { type: 'EXPORT_BODY_STAMPED', requestId: request.requestId, stampHeaderValue }
  }
}

/** Stamps with the stored session key; `requireSession` reads it (and drops an expired one). */
function createSessionStamper(input: { keyStore: AuthKeyStore; now?: () => number }) {
  const { keyStore } = input
  const now = input.now ?? Date.now
  const requireSession = async (): Promise<StoredSession> => {
    const session = await keyStore.getSession()
    if (session === undefined) {
      throw new AppError('UNAUTHORIZED', { userMessage: 'No session key. Sign in first.' })
    }
    if (session.expiresAtMs <= now()) {
      await keyStore.deleteSession()
      throw new AppError('UNAUTHORIZED', { userMessage: 'The session has expired. Sign in again.' })
    }
    return session
  }
  const stamp = async (body: string): Promise<{ stampHeaderValue: string }> => ({
    stampHeaderValue: await createWebCryptoStamp({ key: await requireSession(), body }),
  })
  return Object.assign(stamp, { requireSession })
}

/** The `type` of a JSON-object body, as the signer will read it; undefined otherwise. Never throws. */
function readActivityType(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body)
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined
    const { type } = parsed as { type?: unknown }
    return typeof type === 'string' ? type : undefined
  } catch {
    return undefined
  }
}
