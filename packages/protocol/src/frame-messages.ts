import type { ContactChange, ContactRemoval, ExportKind, ExportTarget } from './frame-only-activities.ts'
import type { AccessChangeCallName, SignerRefusalReason } from './signer-activities.ts'
import type { Stamp } from './stamped-call.ts'
import type { StepUpProof } from './step-up.ts'

/**
 * The protocol between the app page and the signer frames (auth frame and export frame), shared
 * by the SDK (packages/wallet) and the frames' own code in apps/signer/frames
 * (docs/signer.md#frame-messages, docs/signer.md#frame-handshake).
 *
 * Handshake: the parent waits for the iframe's `load`, then sends ONE `window.postMessage` of an
 * `INIT_EMBEDDED_KEY` request to the frames origin (the browser drops it if the frame is on any
 * other origin), transferring a `MessagePort`. The frame accepts it only when `event.origin` is
 * the app origin it was served for and `event.source` is its parent, answers on that port, and
 * from then on listens to that port only. Every request carries a `requestId` that its answer
 * echoes; a failed request is answered `ERROR {message}`.
 *
 * What the app page cannot ask for (docs/decisions/0014, docs/signer.md#signer-calls): a
 * `STAMP_REQUEST` of any activity type the signer-call table does not mark `page` is refused. It
 * asks the export frame to build an export (`STAMP_EXPORT_REQUEST`, encrypted to the export frame's
 * own key and stamped by the auth frame over a frames-origin BroadcastChannel), or the auth frame
 * to build a contact change (`STAMP_CONTACT_CHANGE`) or any other change of a way in
 * (`STAMP_ACCESS_CHANGE`, with its step-up proof); each answers `STAMPED_REQUEST`, which the page
 * posts unchanged.
 */
export type FrameRequest =
  | { type: 'INIT_EMBEDDED_KEY'; requestId: string }
  | {
      type: 'INJECT_CREDENTIAL_BUNDLE'
      requestId: string
      bundle: string
      organizationId: string
      /** When the session key stops working (epoch ms); the frame refuses to stamp after it. */
      expiresAtMs?: number
    }
  | { type: 'STAMP_REQUEST'; requestId: string; body: string }
  /** Auth frame: builds the contact change itself, for the session's organization, and stamps it. */
  | { type: 'STAMP_CONTACT_CHANGE'; requestId: string; change: ContactChange; timestampMs: number }
  /** Auth frame: builds the removal of the e-mail or phone itself, likewise, and stamps it. */
  | { type: 'STAMP_CONTACT_REMOVAL'; requestId: string; removal: ContactRemoval; timestampMs: number }
  /**
   * Auth frame: builds a `reauth` call of the table (`call`, e.g. `addPasskey`) for the session's
   * organization, its `parameters` with the step-up proof under `stepUp`, and stamps it.
   */
  | {
      type: 'STAMP_ACCESS_CHANGE'
      requestId: string
      call: AccessChangeCallName
      parameters: Record<string, unknown>
      stepUp: StepUpProof
      timestampMs: number
    }
  /** Export frame: makes a fresh key, builds the export to it, has the auth frame stamp it. */
  | {
      type: 'STAMP_EXPORT_REQUEST'
      requestId: string
      target: ExportTarget
      organizationId: string
      timestampMs: number
    }
  | { type: 'RESET_EMBEDDED_KEY'; requestId: string }
  | {
      type: 'INJECT_WALLET_EXPORT_BUNDLE'
      requestId: string
      bundle: string
      organizationId: string
      kind: ExportKind
    }

export type FrameResponse =
  | { type: 'EMBEDDED_PUBLIC_KEY'; requestId: string; targetPublicKey: string }
  | { type: 'BUNDLE_INJECTED'; requestId: string; ok: boolean }
  | { type: 'STAMP'; requestId: string; stampHeaderName: 'X-Stamp'; stampHeaderValue: string }
  /** A call built and stamped in the frames origin: POST `{stampedRequest: {url, body, stamp}}` to `path`. */
  | { type: 'STAMPED_REQUEST'; requestId: string; path: string; body: string; stamp: Stamp }
  | { type: 'RESET_DONE'; requestId: string }
  /**
   * `message` is safe to show; `code` (an AppError code) lets the SDK tell an expired session apart;
   * `reason` (signerRefusalReasons) why the frame refused.
   */
  | { type: 'ERROR'; requestId: string; message: string; code?: string; reason?: SignerRefusalReason }

/** The answer each request expects (besides ERROR). */
export const frameResponseTypes = {
  INIT_EMBEDDED_KEY: 'EMBEDDED_PUBLIC_KEY',
  INJECT_CREDENTIAL_BUNDLE: 'BUNDLE_INJECTED',
  STAMP_REQUEST: 'STAMP',
  STAMP_CONTACT_CHANGE: 'STAMPED_REQUEST',
  STAMP_CONTACT_REMOVAL: 'STAMPED_REQUEST',
  STAMP_ACCESS_CHANGE: 'STAMPED_REQUEST',
  STAMP_EXPORT_REQUEST: 'STAMPED_REQUEST',
  RESET_EMBEDDED_KEY: 'RESET_DONE',
  INJECT_WALLET_EXPORT_BUNDLE: 'BUNDLE_INJECTED',
} as const satisfies Record<FrameRequest['type'], FrameResponse['type']>

/** The response type that answers request type `T`. */
export type FrameResponseFor<T extends FrameRequest['type']> = Extract<
  FrameResponse,
  { type: (typeof frameResponseTypes)[T] }
>

/** A request without its id: what a caller hands to a frame connection. */
export type FrameRequestInput = FrameRequest extends infer R
  ? R extends FrameRequest
    ? Omit<R, 'requestId'>
    : never
  : never

/** Whether a value looks like a frame request (type and requestId strings). Never throws. */
export function isFrameRequest(value: unknown): value is FrameRequest {
  if (typeof value !== 'object' || value === null) return false
  const { type, requestId } = value as { type?: unknown; requestId?: unknown }
  return typeof type === 'string' && Object.hasOwn(frameResponseTypes, type) && typeof requestId === 'string'
}

/** Whether a message's `timestampMs` is usable: a positive whole number of epoch milliseconds. */
export function isTimestampMs(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0
}
