import type { LinkResponse } from '@quicklinks/core/api/link'
import type { LinkFormInput, UpdateLinkInput as UpdateLinkRequestInput } from '@quicklinks/core/api/links'

/** A payment link as the owner's API answers it (docs/api.md#link-object). */
export type Link = LinkResponse

/**
 * A link's fixed amount on the wire (docs/api.md#link-object `amount`): a decimal string in its
 * token, null to let the payer choose. Spelled here beside the core request types until they name
 * it; a server without amounts ignores the field.
 */
type LinkAmountField = { amount?: string | null }

/** The body of POST /api/links as the link form sends it. */
export type CreateLinkInput = LinkFormInput & LinkAmountField

/** The body of PUT /api/links/{id}, with the id of the link it changes. */
export type UpdateLinkInput = UpdateLinkRequestInput & LinkAmountField & { id: string }

/** The link's fixed amount, or null when the payer chooses (or the answer names none). */
export function readLinkAmount(link: Link): string | null {
  const amount: unknown = (link as Link & LinkAmountField).amount
  return typeof amount === 'string' && amount.length > 0 ? amount : null
}

/** The fields of PUT /api/links/{id} taken from a stored link, to change one of them. */
export function toUpdateLinkInput(link: Link): UpdateLinkInput {
  return {
    id: link.id,
    alias: link.alias,
    alias_slug: link.alias_slug,
    message: link.message,
    account_type: link.account_type,
    enabled: link.enabled,
    favorite: link.favorite,
    notify_payments: link.notify_payments,
    settings: link.settings,
    amount: readLinkAmount(link),
  }
}

/** The public address of a link: site origin plus /pay/{alias_slug} (docs/product.md#public-address). */
export function buildPublicLinkUrl(slug: string, origin: string = window.location.origin): string {
  return `${origin}/pay/${slug}`
}
