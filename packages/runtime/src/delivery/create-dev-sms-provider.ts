import { randomUUID } from 'node:crypto'
import type { DevSms } from '@quicklinks/core/dev-outbox'
import type { DevOutbox } from './create-dev-outbox.ts'
import type { SmsProvider } from './sms-provider.ts'

/**
 * The development SMS provider: every message lands in `outbox` (read at `GET /api/dev/sms`)
 * instead of a phone network. Never fails.
 */
export function createDevSmsProvider(
  outbox: DevOutbox<DevSms>,
  now: () => Date = () => new Date(),
): SmsProvider {
  return {
    async send({ to, body }) {
      outbox.add({ id: randomUUID(), to, body, date: now().toISOString() })
    },
  }
}
