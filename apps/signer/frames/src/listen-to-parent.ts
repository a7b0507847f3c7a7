import { AppError } from '@quicklinks/core/app-error'
import type { FrameRequest, FrameResponse } from '@quicklinks/protocol/frame-messages'
import { isFrameRequest } from '@quicklinks/protocol/frame-messages'
import { signerRefusalReasons } from '@quicklinks/protocol/signer-activities'

/** Answers one request; a rejection becomes an `ERROR` answer. */
export type FrameRequestHandler = (request: FrameRequest) => Promise<FrameResponse>

/**
 * Accepts the parent's MessageChannel (protocol in packages/protocol/src/frame-messages.ts): only
 * an `INIT_EMBEDDED_KEY` `postMessage` whose `event.origin` is exactly `parentOrigin` and whose
 * source is this frame's parent, carrying a port. From then on the frame answers on that port
 * only; a later handshake from the same parent (e.g. the SDK reconnecting) replaces the port.
 *
 * Why: window messages from any other page, frame or extension are ignored, and the answers
 * (stamps, public keys) travel on a port that only the app page holds.
 */
export function listenToParent(input: {
  window: Window
  parentOrigin: string
  handle: FrameRequestHandler
}): void {
  let current: MessagePort | undefined
  input.window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (event.origin !== input.parentOrigin || event.source !== input.window.parent) return
    if (!isFrameRequest(event.data) || event.data.type !== 'INIT_EMBEDDED_KEY') return
    const port = event.ports[0]
    if (port === undefined) return
    current?.close()
    current = port
    port.onmessage = (message: MessageEvent<unknown>) => {
      if (isFrameRequest(message.data)) void answer(port, message.data, input.handle)
    }
    void answer(port, event.data, input.handle)
  })
}

async function answer(port: MessagePort, request: FrameRequest, handle: FrameRequestHandler): Promise<void> {
  let response: FrameResponse
  try {
    response = await handle(request)
  } catch (error) {
    response = {
      type: 'ERROR',
      requestId: request.requestId,
      message: error instanceof AppError ? error.userMessage : 'Unknown error',
      ...(error instanceof AppError ? { code: error.code } : {}),
      ...readRefusalReason(error),
    }
  }
  port.postMessage(response)
}

/** The table's refusal reason an AppError carries in `details.reason`, if any. */
function readRefusalReason(error: unknown): { reason?: keyof typeof signerRefusalReasons } {
  const reason = error instanceof AppError ? error.details?.reason : undefined
  return typeof reason === 'string' && Object.hasOwn(signerRefusalReasons, reason)
    ? { reason: reason as keyof typeof signerRefusalReasons }
    : {}
}
