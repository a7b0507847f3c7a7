import { AppError } from '@quicklinks/core/app-error'
import type { SmsProvider } from './sms-provider.ts'

export type TwilioSettings = {
  accountSid: string
  authToken: string
  /** The sending number (E.164) or alphanumeric sender id. */
  from: string
  /** Base URL of the REST API, `https://api.twilio.com` in production; tests point it at loopback. */
  apiUrl: string
}

export type TwilioSmsProviderOptions = {
  /** How long to wait for Twilio before giving up (default 10 s). */
  timeoutMs?: number
  fetch?: typeof fetch
}

// Twilio error codes that mean the recipient number itself is unusable: the user can fix these.
// 21211 invalid 'To' number, 21214 not reachable, 21408 region not enabled, 21610 unsubscribed
// (STOP), 21612 route not possible, 21614 not a mobile number.
const recipientErrorCodes = new Set([21211, 21214, 21408, 21610, 21612, 21614])

const recipientUserMessage = 'We cannot send a text message to this phone number. Check it and try again.'
const upstreamUserMessage = 'We could not send the text message. Try again shortly.'

/**
 * SMS through Twilio's REST API: `POST {apiUrl}/2010-04-01/Accounts/{sid}/Messages.json` with
 * HTTP basic auth and a form body To/From/Body; Twilio answers 201 with the queued message.
 * Rejects with AppError VALIDATION_FAILED (field `phone`) when Twilio refuses the recipient
 * number, and UPSTREAM_FAILED for anything else (bad credentials, Twilio down, timeout); the
 * internal message carries Twilio's code, never the SMS body.
 */
export function createTwilioSmsProvider(
  settings: TwilioSettings,
  options: TwilioSmsProviderOptions = {},
): SmsProvider {
  const doFetch = options.fetch ?? fetch
  const timeoutMs = options.timeoutMs ?? 10_000
  const base = settings.apiUrl.replace(/\/+$/, '')
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`

  return {
    async send({ to, body }) {
      let response: Response
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: {
            authorization,
            accept: 'application/json',
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ To: to, From: settings.from, Body: body }).toString(),
          signal: AbortSignal.timeout(timeoutMs),
        })
      } catch (error) {
        throw new AppError('UPSTREAM_FAILED', {
          message: 'Twilio did not answer',
          userMessage: upstreamUserMessage,
          cause: error,
        })
      }
      const answer = await readJson(response)
      if (response.ok) return
      const code = typeof answer.code === 'number' ? answer.code : undefined
      const detail = `Twilio answered ${response.status}${code === undefined ? '' : ` (error ${code})`}`
      const twilioMessage = typeof answer.message === 'string' ? `: ${answer.message}` : ''
      if (response.status === 400 && code !== undefined && recipientErrorCodes.has(code)) {
        // Twilio's text repeats the phone number; the code says enough.
        throw new AppError('VALIDATION_FAILED', {
          message: detail,
          userMessage: recipientUserMessage,
          field: 'phone',
        })
      }
      throw new AppError('UPSTREAM_FAILED', {
        message: `${detail}${twilioMessage}`,
        userMessage: upstreamUserMessage,
      })
    },
  }
}

async function readJson(response: Response): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await response.json()
    return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}
