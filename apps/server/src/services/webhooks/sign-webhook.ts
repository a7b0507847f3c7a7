import { Webhook } from 'standardwebhooks'

/** The headers of one delivery, per the Standard Webhooks specification. */
export type WebhookHeaders = {
  'webhook-id': string
  'webhook-timestamp': string
  'webhook-signature': string
}

/**
 * Signs a delivery as Standard Webhooks says (docs/api.md#webhook-signatures): `v1,` + the base64
 * HMAC-SHA256 of `{id}.{timestamp}.{body}` under each secret (`whsec_` + base64), space-separated,
 * so during a rotation's grace period a receiver holding either secret verifies it. The id is the
 * event's, the same on every retry, so receivers can drop repeats.
 */
export function signWebhook(input: {
  id: string
  timestamp: Date
  body: string
  secrets: readonly string[]
}): WebhookHeaders {
  const signatures = input.secrets.map((secret) =>
    new Webhook(secret).sign(input.id, input.timestamp, input.body),
  )
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(Math.floor(input.timestamp.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  }
}
