import type { LinkResponse } from '@quicklinks/core/api/link'
import type { PublicLinkResponse } from '@quicklinks/core/api/pay'
import type { Link } from '../../db/schema.ts'

/** A link row in its API shape (snake_case, ISO dates). */
export function toLinkResponse(link: Link): LinkResponse {
  return {
    ...toPublicLinkResponse(link),
    amount: link.amount,
    account_type: link.accountType,
    enabled: link.enabled,
    favorite: link.favorite,
    notify_payments: link.notifyPayments,
    settings: link.settings,
    idempotency_key: link.idempotencyKey,
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
  }
}

/** Only what a payer needs: no owner, flags, settings or idempotency key. */
export function toPublicLinkResponse(link: Link): PublicLinkResponse {
  return {
    id: link.id,
    link_type: link.linkType,
    alias: link.alias,
    alias_slug: link.aliasSlug,
    receiver_address: link.receiverAddress,
    chain: link.chain,
    chain_id: link.chainId,
    token_name: link.tokenName,
    token_address: link.tokenAddress,
    message: link.message,
    amount: link.amount,
  }
}
