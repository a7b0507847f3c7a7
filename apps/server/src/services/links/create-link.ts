import type { CreateLinkRequest } from '@quicklinks/core/api/links'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq } from 'drizzle-orm'
import { getAddress } from 'viem'
import { type Link, links } from '../../db/schema.ts'
import type { ReadCaches } from '../cache/read-caches.ts'
import { writeAndInvalidate } from '../cache/write-and-invalidate.ts'
import type { RoutingProvider } from '../payments/route/routing-provider.ts'
import { getUniqueViolation } from '../postgres/get-unique-violation.ts'
import { writeWebhookEvent } from '../webhooks/webhook-outbox.ts'
import { buildAliasSlugOrThrow, buildSlugTakenError, isAliasSlugTaken } from './check-alias-slug.ts'
import { readLinkAmountOrThrow } from './read-link-amount.ts'
import { resolveLinkTarget } from './resolve-link-target.ts'
import { toLinkResponse } from './to-link-response.ts'

export type CreateLinkResult = {
  link: Link
  /** False when the idempotency key matched a link created earlier (no new link was made). */
  isNew: boolean
}

async function findByIdempotencyKey(db: Database, userId: string, key: string): Promise<Link | undefined> {
  const [link] = await db
    .select()
    .from(links)
    .where(and(eq(links.userId, userId), eq(links.idempotencyKey, key)))
    .limit(1)
  return link
}

/**
 * Creates a link for `userId` from validated input: slug from alias_slug or the alias, chain and
 * token checked against the routing provider, receiver checksummed, a fixed amount checked
 * against the token's decimals. With an idempotency key the
 * same user's earlier link with that key is returned instead (also when two requests race: the
 * unique index admits one, the loser reads the winner's row). Throws AppError
 * VALIDATION_FAILED naming a field, CONFLICT (409) with a free slug suggestion when the slug is
 * taken, or the provider's SERVICE_UNAVAILABLE. A new link's slug (a remembered miss) and the
 * owner's list leave the read caches here before this returns, and on every other instance
 * through the commit's NOTIFY.
 */
export async function createLink(
  db: Database,
  provider: RoutingProvider,
  input: { userId: string; request: CreateLinkRequest },
  caches: ReadCaches,
): Promise<CreateLinkResult> {
  const { userId, request } = input
  const key = request.idempotency_key ?? undefined
  if (key !== undefined) {
    const existing = await findByIdempotencyKey(db, userId, key)
    if (existing) return { link: existing, isNew: false }
  }

  const slug = buildAliasSlugOrThrow(
    request.alias_slug ?? request.alias,
    request.alias_slug === undefined ? 'alias' : 'alias_slug',
  )
  const target = await resolveLinkTarget(provider, {
    chain: request.chain,
    chainId: request.chain_id,
    tokenAddress: request.token_address,
    tokenName: request.token_name,
  })
  const amount = await readLinkAmountOrThrow(provider, target, request.amount)
  // A clash may be this very request's twin that committed a moment ago: the key decides first.
  const answerClash = async (cause?: unknown): Promise<CreateLinkResult> => {
    if (key !== undefined) {
      const existing = await findByIdempotencyKey(db, userId, key)
      if (existing) return { link: existing, isNew: false }
    }
    throw await buildSlugTakenError(db, slug, cause)
  }
  if (await isAliasSlugTaken(db, slug)) return answerClash()

  try {
    const link = await writeAndInvalidate(
      db,
      caches,
      async (tx) => {
        const [inserted] = await tx
          .insert(links)
          .values({
            userId,
            ...(request.link_type === undefined ? {} : { linkType: request.link_type }),
            alias: request.alias,
            aliasSlug: slug,
            receiverAddress: getAddress(request.receiver_address),
            ...target,
            message: request.message ?? '',
            amount,
            ...(request.account_type === undefined ? {} : { accountType: request.account_type }),
            ...(request.enabled === undefined ? {} : { enabled: request.enabled }),
            ...(request.favorite === undefined ? {} : { favorite: request.favorite }),
            ...(request.notify_payments === undefined ? {} : { notifyPayments: request.notify_payments }),
            ...(request.settings === undefined ? {} : { settings: request.settings }),
            idempotencyKey: key ?? null,
          })
          .returning()
        if (!inserted) throw new Error('Insert into links returned no row')
        await writeWebhookEvent(tx, {
          userId,
          type: 'link.created',
          data: toLinkResponse(inserted),
          now: inserted.createdAt,
        })
        return inserted
      },
      (inserted) => ({ publicLinks: [inserted.aliasSlug], linkLists: [inserted.userId] }),
    )
    return { link, isNew: true }
  } catch (error) {
    if (!getUniqueViolation(error)) throw error
    // A concurrent request with the same key won the race: answer with its link.
    return answerClash(error)
  }
}
