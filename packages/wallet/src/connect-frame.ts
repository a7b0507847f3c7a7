import { isErrorCode } from '@quicklinks/core/app-error'
import { withTimeout } from '@quicklinks/core/with-timeout'
import {
  type FrameRequest,
  type FrameRequestInput,
  type FrameResponse,
  type FrameResponseFor,
  frameResponseTypes,
} from '@quicklinks/protocol/frame-messages'
import { createWalletError } from './wallet-error.ts'

/** A MessageChannel to a signer frame, after the handshake. */
export type FrameConnection = {
  /** The frame's embedded public key from the handshake (uncompressed P-256 hex). */
  readonly publicKey: string
  request<T extends FrameRequestInput>(message: T): Promise<FrameResponseFor<T['type']>>
  /** Closes the port; pending requests reject. */
  close(): void
}

const defaultTimeoutMs = 20_000

/**
 * Sets up the MessageChannel to a signer frame (protocol in @quicklinks/protocol/frame-messages): waits for the
 * iframe to load, posts `INIT_EMBEDDED_KEY` with a transferred port to `frameOrigin` only, and
 * resolves once the frame answers `EMBEDDED_PUBLIC_KEY` on that port.
 *
 * Why a channel: after the one origin-checked `postMessage`, nothing else on the page (other
 * frames, extensions' window messages) can talk to the frame or read its answers.
 *
 * Fails by rejecting with 'null iframe public key. Have you called/awaited .init()?' when the
 * frame answers without a key, with the frame's `ERROR` message, or with 'The signing frame did
 * not answer. Reload the page and try again.' after `timeoutMs` (the frame failed to load, was
 * served for another app origin, or is blocked by its CSP).
 */
export async function connectFrame(input: {
  iframe: HTMLIFrameElement
  frameOrigin: string
  /** Resolves once the iframe has loaded (the caller attaches the listener before setting src). */
  loaded: Promise<void>
  timeoutMs?: number
}): Promise<FrameConnection> {
  const timeoutMs = input.timeoutMs ?? defaultTimeoutMs
  await withTimeout(input.loaded, timeoutMs, frameTimeoutError)
  const frameWindow = input.iframe.contentWindow
  if (frameWindow === null) throw createWalletError('Iframe container cannot be found')

  const channel = new MessageChannel()
  const pending = new Map<
    string,
    {
      expects: FrameResponse['type']
      resolve: (response: FrameResponse) => void
      reject: (error: Error) => void
    }
  >()
  let isClosed = false

  channel.port1.onmessage = (event: MessageEvent<unknown>) => {
    const data = event.data
    if (typeof data !== 'object' || data === null) return
    const { requestId, type } = data as { requestId?: unknown; type?: unknown }
    if (typeof requestId !== 'string') return
    const waiter = pending.get(requestId)
    if (waiter === undefined) return
    pending.delete(requestId)
    if (type === 'ERROR') {
      const { message, code } = data as { message?: unknown; code?: unknown }
      waiter.reject(
        createWalletError(typeof message === 'string' && message ? message : 'Unknown error', {
          ...(isErrorCode(code) ? { code } : {}),
        }),
      )
    } else if (type === waiter.expects) {
      waiter.resolve(data as FrameResponse)
    } else {
      waiter.reject(
        createWalletError(`The signing frame answered ${String(type)} instead of ${waiter.expects}`),
      )
    }
  }

  const send = <T extends FrameRequestInput>(
    message: T,
    post: (request: FrameRequest) => void,
  ): Promise<FrameResponseFor<T['type']>> => {
    if (isClosed) return Promise.reject(createWalletError('The signing frame connection is closed.'))
    const requestId = crypto.randomUUID()
    const request = { ...message, requestId } as FrameRequest
    const answer = new Promise<FrameResponse>((resolve, reject) => {
      pending.set(requestId, { expects: frameResponseTypes[request.type], resolve, reject })
    })
    post(request)
    return withTimeout(answer, timeoutMs, frameTimeoutError).finally(() =>
      pending.delete(requestId),
    ) as Promise<FrameResponseFor<T['type']>>
  }

  const handshake = await send({ type: 'INIT_EMBEDDED_KEY' }, (request) =>
    frameWindow.postMessage(request, input.frameOrigin, [channel.port2]),
  ).catch((error: unknown) => {
    channel.port1.close()
    throw error
  })
  if (typeof handshake.targetPublicKey !== 'string' || handshake.targetPublicKey.length === 0) {
    channel.port1.close()
    throw createWalletError('null iframe public key. Have you called/awaited .init()?')
  }

  return {
    publicKey: handshake.targetPublicKey,
    request: (message) => send(message, (request) => channel.port1.postMessage(request)),
    close: () => {
      isClosed = true
      channel.port1.close()
      for (const waiter of pending.values())
        waiter.reject(createWalletError('The signing frame connection is closed.'))
      pending.clear()
    },
  }
}

/**
 * Creates an iframe for a signer frame and a promise of its `load` event, listener attached before
 * `src` is set so the event cannot be missed.
 */
export function createFrameElement(input: {
  document: Document
  id: string
  src: string
  title: string
  /** Feature policy, e.g. `clipboard-write` for the export frame's copy button. */
  allow?: string
}): { iframe: HTMLIFrameElement; loaded: Promise<void> } {
  const iframe = input.document.createElement('iframe')
  iframe.id = input.id
  iframe.title = input.title
  if (input.allow) iframe.allow = input.allow
  iframe.referrerPolicy = 'no-referrer'
  const loaded = new Promise<void>((resolve) =>
    iframe.addEventListener('load', () => resolve(), { once: true }),
  )
  iframe.src = input.src
  return { iframe, loaded }
}

const frameTimeoutError = () =>
  createWalletError('The signing frame did not answer. Reload the page and try again.')
