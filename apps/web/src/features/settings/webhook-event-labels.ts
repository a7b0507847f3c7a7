import { type WebhookEventType, webhookEventTypes } from '@quicklinks/core/api/webhooks'

/** What each event means, as the endpoint form explains it. */
export const webhookEventDescriptions: Record<WebhookEventType, string> = {
  'payment.processing': 'A payment was sent and is confirming',
  'payment.succeeded': 'A payment was confirmed',
  'payment.failed': 'A payment failed',
  'payment.refunded': 'A payment was refunded',
  'invoice.paid': 'An invoice was paid in full',
  'invoice.paid_over': 'An invoice was paid more than due',
  'invoice.underpaid': 'An invoice was paid less than due',
  'invoice.expired': 'An invoice expired unpaid',
  'invoice.paid_late': 'An invoice was paid after it expired',
  'link.created': 'A payment link was created',
  'link.updated': 'A payment link was changed',
  'link.deleted': 'A payment link was deleted',
}

/** The form's groups of event checkboxes, by the part of the event type before the dot. */
export const webhookEventGroups: { label: string; events: WebhookEventType[] }[] = [
  { label: 'Payments', events: webhookEventTypes.filter((type) => type.startsWith('payment.')) },
  { label: 'Invoices', events: webhookEventTypes.filter((type) => type.startsWith('invoice.')) },
  { label: 'Links', events: webhookEventTypes.filter((type) => type.startsWith('link.')) },
]
