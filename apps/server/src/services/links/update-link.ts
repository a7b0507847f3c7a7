import type { UpdateLinkRequest } from '@quicklinks/core/api/links'
import { createValidationError } from '@quicklinks/core/parse-input-or-throw'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq } from 'drizzle-orm'
import { type Link, links } from '../../db/schema.ts'
import type { ReadCaches } from '../cache/read-caches.ts'
import { writeAndInvalidate } from '../cache/write-and-invalidate.ts'
import { isNativeTokenAddress, type RoutingProvider } from '../payments/route/routing-provider.ts'
import { getUniqueViolation } from '../postgres/get-unique-violation.ts'
import { writeWebhookEvent } from '../webhooks/webhook-outbox.ts'
import { buildAliasSlugOrThrow, buildSlugTakenError, isAliasSlugTaken } from './check-alias-slug.ts'
import { buildLinkNotFoundError, getOwnedLinkOrThrow } from './get-owned-link-or-throw.ts'
import { readLinkAmountOrThrow } from './read-link-amount.ts'
import { toLinkResponse } from './to-link-response.ts'

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase()

/** Refuses a change of what a payer pays to: receiver, chain and token are fixed at creation. */
function assertTargetUnchanged(link: Link, request: UpdateLinkRequest): void {
  if (request.receiver_address !== undefined && !sameText(request.receiver_address, link.receiverAddress)) {
    throw createValidationError('receiver_address', 'cannot be changed')
  }
  if (request.chain !== undefined && !sameText(request.chain, link.chain)) {
    throw createValidationError('chain', 'cannot be changed')
  }
  if (request.chain_id !== undefined && Number(request.chain_id) !== link.chainId) {
    throw createValidationError('chain_id', 'cannot be changed')
  }
  if (request.token_name !== undefined && !sameText(request.token_name, link.tokenName)) {
    throw createValidationError('token_name', 'cannot be changed')
  }
  if (request.token_address !== undefined) {
    const isSame =
      sameText(request.token_address, link.tokenAddress) ||
      (isNativeTokenAddress(request.token_address.trim()) && isNativeTokenAddress(link.tokenAddress))
    if (!isSame) throw createValidationError('token_address', 'cannot be changed')
  }
}

/**
 * Updates the editable fields of the user's link (alias, alias_slug, message, amount,
 * account_type, enabled, favorite, notify_payments, settings; an amount is checked against the token's decimals
 * with `provider`'s catalogue, null clears it); fields not sent keep their values, and the slug changes only
 * when alias_slug is sent. Throws AppError NOT_FOUND for an unknown id or another user's link,
 * VALIDATION_FAILED naming the field (an id that differs from the path, a new receiver, chain or
 * token, a bad slug), CONFLICT (409, with a suggestion) when the new slug is taken. The old and
 * new slugs and the owner's list leave the read caches before this returns, and every other
 * instance's through the commit's NOTIFY.
 */
export async function updateLink(
  db: Database,
  input: { userId: string; id: string; request: UpdateLinkRequest },
  caches: ReadCaches,
  provider: RoutingProvider,
): Promise<Link> {
  const { request } = input
  const link = await getOwnedLinkOrThrow(db, { userId: input.userId, id: input.id })
  if (request.id !== undefined && request.id !== link.id) {
    throw createValidationError('id', 'must match the link id in the path')
  }
  assertTargetUnchanged(link, request)
  const amount =
    request.amount === undefined ? undefined : await readLinkAmountOrThrow(provider, link, request.amount)

  let aliasSlug: string | undefined
  if (request.alias_slug !== undefined) {
    aliasSlug = buildAliasSlugOrThrow(request.alias_slug, 'alias_slug')
    if (aliasSlug === link.aliasSlug) aliasSlug = undefined
    else if (await isAliasSlugTaken(db, aliasSlug, link.id)) throw await buildSlugTakenError(db, aliasSlug)
  }

  try {
    return await writeAndInvalidate(
      db,
      caches,
      async (tx) => {
        const [row] = await tx
          .update(links)
          .set({
            ...(request.alias === undefined ? {} : { alias: request.alias }),
            ...(aliasSlug === undefined ? {} : { aliasSlug }),
            ...(request.message === undefined ? {} : { message: request.message ?? '' }),
            ...(amount === undefined ? {} : { amount }),
            ...(request.account_type === undefined ? {} : { accountType: request.account_type }),
            ...(request.enabled === undefined ? {} : { enabled: request.enabled }),
            ...(request.favorite === undefined ? {} : { favorite: request.favorite }),
            ...(request.notify_payments === undefined ? {} : { notifyPayments: request.notify_payments }),
            ...(request.settings === undefined ? {} : { settings: request.settings }),
            updatedAt: new Date(),
          })
          .where(and(eq(links.id, link.id), eq(links.userId, input.userId)))
          .returning()
        if (!row) throw buildLinkNotFoundError(link.id)
        await writeWebhookEvent(tx, {
          userId: row.userId,
          type: 'link.updated',
          data: toLinkResponse(row),
          now: row.updatedAt,
        })
        return row
      },
      // The slug read above may have changed since (a concurrent rename): both leave every cache.
      (row) => ({ publicLinks: [link.aliasSlug, row.aliasSlug], linkLists: [row.userId] }),
    )
  } catch (error) {
    if (aliasSlug !== undefined && getUniqueViolation(error))
      throw await buildSlugTakenError(db, aliasSlug, error)
    throw error
  }
}
