import { AppError } from '@quicklinks/core/app-error'
import {
  type FramesChannel,
  type FramesChannelRequest,
  type FramesChannelResponse,
  isFramesChannelRequest,
} from './frames-channel-messages.ts'

/**
 * The auth frame's side of the frames channel (frames-channel-messages.ts): answers each
 * `STAMP_EXPORT_BODY` with `handle`'s answer, a rejection becoming `EXPORT_BODY_REFUSED`.
 * Everything else on the channel (answers of other auth frames, unknown messages) is ignored.
 *
 * Returns a function that stops listening. Never throws.
 */
export function listenToFrames(input: {
  channel: FramesChannel
  handle: (request: FramesChannelRequest) => Promise<FramesChannelResponse>
}): () => void {
  const onMessage = (event: Event) => {
    const data = (event as MessageEvent<unknown>).data
    if (isFramesChannelRequest(data)) void answer(input.channel, data, input.handle)
  }
  input.channel.addEventListener('message', onMessage)
  return () => input.channel.removeEventListener('message', onMessage)
}

async function answer(
  channel: FramesChannel,
  request: FramesChannelRequest,
  handle: (request: FramesChannelRequest) => Promise<FramesChannelResponse>,
): Promise<void> {
  let response: FramesChannelResponse
  try {
    response = await handle(request)
  } catch (error) {
    response = {
      type: 'EXPORT_BODY_REFUSED',
      requestId: request.requestId,
      message: error instanceof AppError ? error.userMessage : 'Unknown error',
      ...(error instanceof AppError ? { code: error.code } : {}),
    }
  }
  channel.postMessage(response)
}
