import type { Stamp, StampedCall } from '@quicklinks/protocol/stamped-call'
import { connectFrame, createFrameElement, type FrameConnection } from './connect-frame.ts'
import type { Stamper } from './stamper.ts'
import { createWalletError } from './wallet-error.ts'

/** Ids of the hidden container and the auth iframe (docs/signer.md#frame-ids). */
export const defaultIframeContainerId = 'quicklinks-signer-iframe-container'
export const defaultAuthIframeId = 'quicklinks-auth-iframe'

export type FrameStamperOptions = {
  /** The auth frame's URL on the frames origin, or how to get it (e.g. from signer-config). */
  frameUrl: string | (() => Promise<string>)
  iframeContainerId?: string
  iframeElementId?: string
  /** Defaults to the global `document`. */
  document?: Document
  /** Per-request time limit (default 20 s). */
  timeoutMs?: number
}

/**
 * A {@link Stamper} backed by the auth frame: a hidden iframe on the frames origin that holds the
 * embedded key and the session key, both non-extractable, in its own IndexedDB, and answers over
 * a MessageChannel (@quicklinks/protocol/frame-messages). The frame is created on first use, in a hidden
 * container that is created, or emptied when it exists (docs/signer.md#frame-ids).
 *
 * The frame refuses to stamp export and contact-change bodies given to {@link Stamper.stamp}: a
 * contact change goes through `stampContactChange` (the frame builds the body), an export through
 * the export frame (signer-store `exportWallet`).
 *
 * Fails (on first use, then on every call until it succeeds) with 'Cannot initialize iframe in
 * non-browser environment', 'Iframe container cannot be found', 'Iframe element with ID {id}
 * already exists', 'null iframe public key. Have you called/awaited .init()?', or the frame's
 * own error message ('Failed to inject credential bundle', an expired session…).
 */
export function createFrameStamper(options: FrameStamperOptions): Stamper & { init(): Promise<void> } {
  const containerId = options.iframeContainerId ?? defaultIframeContainerId
  const iframeId = options.iframeElementId ?? defaultAuthIframeId
  let connection: Promise<FrameConnection> | undefined

  const connect = async (): Promise<FrameConnection> => {
    const document =
      options.document ?? (typeof globalThis.document === 'undefined' ? undefined : globalThis.document)
    if (document === undefined) throw createWalletError('Cannot initialize iframe in non-browser environment')
    let container = document.getElementById(containerId)
    if (container === null) {
      container = document.createElement('div')
      container.id = containerId
      container.style.display = 'none'
      container.setAttribute('aria-hidden', 'true')
      document.body?.appendChild(container)
    } else {
      container.replaceChildren()
    }
    if (document.getElementById(containerId) === null)
      throw createWalletError('Iframe container cannot be found')
    if (document.getElementById(iframeId) !== null) {
      throw createWalletError(`Iframe element with ID ${iframeId} already exists`)
    }
    const frameUrl = typeof options.frameUrl === 'string' ? options.frameUrl : await options.frameUrl()
    const { iframe, loaded } = createFrameElement({
      document,
      id: iframeId,
      src: frameUrl,
      title: 'Wallet signer',
    })
    container.appendChild(iframe)
    return connectFrame({
      iframe,
      frameOrigin: new URL(frameUrl).origin,
      loaded,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    })
  }

  const getConnection = (): Promise<FrameConnection> => {
    connection ??= connect().catch((error: unknown) => {
      connection = undefined
      throw error
    })
    return connection
  }

  return {
    kind: 'frame',
    async init() {
      await getConnection()
    },
    async getPublicKey() {
      // Asked afresh every time: another tab may have reset the key the frame keeps in IndexedDB.
      const answer = await (await getConnection()).request({ type: 'INIT_EMBEDDED_KEY' })
      if (!answer.targetPublicKey)
        throw createWalletError('null iframe public key. Have you called/awaited .init()?')
      return answer.targetPublicKey
    },
    async injectCredentialBundle({ bundle, organizationId, expiresAtMs }) {
      const answer = await (await getConnection()).request({
        type: 'INJECT_CREDENTIAL_BUNDLE',
        bundle,
        organizationId,
        expiresAtMs,
      })
      if (!answer.ok) throw createWalletError('Failed to inject credential bundle')
    },
    async stamp(body: string): Promise<Stamp> {
      const answer = await (await getConnection()).request({ type: 'STAMP_REQUEST', body })
      return { stampHeaderName: 'X-Stamp', stampHeaderValue: answer.stampHeaderValue }
    },
    async stampContactChange({ change, timestampMs }): Promise<StampedCall> {
      const answer = await (await getConnection()).request({
        type: 'STAMP_CONTACT_CHANGE',
        change,
        timestampMs,
      })
      return { path: answer.path, body: answer.body, stamp: answer.stamp }
    },
    async stampContactRemoval({ removal, timestampMs }): Promise<StampedCall> {
      const answer = await (await getConnection()).request({
        type: 'STAMP_CONTACT_REMOVAL',
        removal,
        timestampMs,
      })
      return { path: answer.path, body: answer.body, stamp: answer.stamp }
    },
    async stampAccessChange({ call, parameters, stepUp, timestampMs }): Promise<StampedCall> {
      const answer = await (await getConnection()).request({
        type: 'STAMP_ACCESS_CHANGE',
        call,
        parameters,
        stepUp,
        timestampMs,
      })
      return { path: answer.path, body: answer.body, stamp: answer.stamp }
    },
    async reset() {
      await (await getConnection()).request({ type: 'RESET_EMBEDDED_KEY' })
    },
  }
}
