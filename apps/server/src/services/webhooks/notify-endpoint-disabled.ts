import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { Delivery } from '@quicklinks/runtime/delivery/create-delivery'
import { findAccountEmail } from '@quicklinks/signer/api/find-account-email'
import { eq } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { users, webhookEndpoints } from '../../db/schema.ts'
import { escapeHtml } from '../mail/escape-html.ts'

/**
 * Tells an endpoint's owner by e-mail that it was disabled after 5 days of failed deliveries,
 * and how to turn it back on (docs/api.md#webhook-retries). An owner without an e-mail, or a mail
 * server that refuses, is logged: the endpoint stays disabled and its log says why either way.
 */
export async function notifyEndpointDisabled(
  input: {
    db: Database
    delivery: Pick<Delivery, 'sendEmail'>
    logger: FastifyBaseLogger
    publicOrigin: string
  },
  endpointId: string,
): Promise<void> {
  const [row] = await input.db
    .select({ url: webhookEndpoints.url, address: users.address, email: users.email })
    .from(webhookEndpoints)
    .innerJoin(users, eq(users.id, webhookEndpoints.userId))
    .where(eq(webhookEndpoints.id, endpointId))
  if (row === undefined) return
  const email =
    (await findAccountEmail(input.db, row.address as `0x${string}`).catch(() => null)) ?? row.email
  if (email === null) {
    input.logger.warn({ endpointId }, 'Webhook endpoint disabled; its owner has no e-mail to tell')
    return
  }
  const settings = `${input.publicOrigin}/settings#webhooks`
  const lines = [
    `Every delivery to ${row.url} has failed for 5 days, so Quick Links stopped sending to it.`,
    `Fix the endpoint, then turn it back on in Settings: ${settings}`,
    'Deliveries that were waiting go out again once it is on; failed ones can be redelivered from its log.',
  ]
  try {
    await input.delivery.sendEmail({
      to: email,
      subject: 'Webhook endpoint disabled',
      text: lines.join('\n\n'),
      html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(''),
    })
  } catch (error) {
    input.logger.warn({ err: error, endpointId }, 'Webhook endpoint disabled; the notice mail was not sent')
  }
}
