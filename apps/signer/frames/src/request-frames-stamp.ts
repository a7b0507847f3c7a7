import { AppError, isErrorCode } from '@quicklinks/core/app-error'
import type { FramesChannel } from './frames-channel-messages.ts'

const defaultTimeoutMs = 10_000

/**
 * The export frame's side of the frames channel (frames-channel-messages.ts): posts the body as
 * `STAMP_EXPORT_BODY` and resolves with the `X-Stamp` value of the first auth frame that answers.
 *
 * Fails by rejecting with the auth frame's refusal (e.g. UNAUTHORIZED 'No session key. Sign in
 * first.'), or with SERVICE_UNAVAILABLE 'The signing frame did not answer. Reload the page and
 * try again.' when no auth frame answers within `timeoutMs` (none is loaded in this browser).
 */
export function requestFramesStamp(input: {
  channel: FramesChannel
  body: string
  timeoutMs?: number
}): Promise<string> {
  const { channel } = input
  const requestId = crypto.randomUUID()
  return new Promise<string>((resolve, reject) => {
    const finish = () => {
      clearTimeout(timer)
      channel.removeEventListener('message', onMessage)
    }
    const onMessage = (event: Event) => {
      const data = (event as MessageEvent<unknown>).data
      if (typeof data !== 'object' || data === null) return
      const answer = data as Record<string, unknown>
      if (answer.requestId !== requestId) return
      if (answer.type === 'EXPORT_BODY_STAMPED' && typeof answer.stampHeaderValue === 'string') {
        finish()
        resolve(answer.stampHeaderValue)
      } else if (answer.type === 'EXPORT_BODY_REFUSED') {
        finish()
        reject(
          new AppError(isErrorCode(answer.code) ? answer.code : 'BAD_REQUEST', {
            userMessage: typeof answer.message === 'string' ? answer.message : 'Unknown error',
          }),
        )
      }
    }
    const timer = setTimeout(() => {
      finish()
      reject(
        new AppError('SERVICE_UNAVAILABLE', {
          userMessage: 'The signing frame did not answer. Reload the page and try again.',
        }),
      )
    }, input.timeoutMs ?? defaultTimeoutMs)
    channel.addEventListener('message', onMessage)
    channel.postMessage({ type: 'STAMP_EXPORT_BODY', requestId, body: input.body })
  })
}
