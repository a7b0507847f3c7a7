/**
 * The channel between the two signer frames: a BroadcastChannel named {@link framesChannelName}
 * on the frames origin. The browser delivers its messages only to documents of the same origin
 * (and storage partition), so the app page (another origin) can neither post on it nor read it;
 * it is how the export frame has its own export request stamped with the auth frame's session key
 * (docs/decisions/0014).
 *
 * Every auth frame of the partition (one per tab of the app) may answer; they share one
 * IndexedDB, so they give the same answer, and the export frame takes the first.
 */
export const framesChannelName = 'quicklinks-signer-frames'

export type FramesChannelRequest = {
  type: 'STAMP_EXPORT_BODY'
  requestId: string
  /** The exact body to stamp: an export activity, encrypted to the export frame's own key. */
  body: string
}

export type FramesChannelResponse =
  | { type: 'EXPORT_BODY_STAMPED'; requestId: string; stampHeaderValue: string }
  /** `message` is safe to show; `code` is an AppError code. */
  | { type: 'EXPORT_BODY_REFUSED'; requestId: string; message: string; code?: string }

/** A BroadcastChannel, or a stand-in in tests: only what the frames use of it. */
export type FramesChannel = Pick<BroadcastChannel, 'postMessage' | 'addEventListener' | 'removeEventListener'>

/** Whether a value looks like a request on the frames channel. Never throws. */
export function isFramesChannelRequest(value: unknown): value is FramesChannelRequest {
  if (typeof value !== 'object' || value === null) return false
  const { type, requestId, body } = value as Record<string, unknown>
  return type === 'STAMP_EXPORT_BODY' && typeof requestId === 'string' && typeof body === 'string'
}
