import { z } from 'zod'
import { linkSchema } from './links.ts'

/**
 * The payer's read of a link (docs/api.md#pay-link, #public-link): GET /api/pay/links/{slug}
 * answers an enabled link with only what paying needs; the owner's flags, settings and
 * idempotency key stay on the owner's endpoints.
 */
export const publicLinkSchema = linkSchema
  .pick({
    id: true,
    link_type: true,
    alias: true,
    alias_slug: true,
    receiver_address: true,
    chain: true,
    chain_id: true,
    token_name: true,
    token_address: true,
    message: true,
  })
  .meta({ id: 'PublicLink' })

/** The path of GET /api/pay/links/{slug}: the slug, any case. */
export const publicLinkParamsSchema = z.object({ slug: z.string().max(256) })

/** The answer of GET /api/pay/links/{slug}. */
export const publicLinkResponseSchema = z.object({ data: publicLinkSchema })

/** A link as a payer sees it. */
export type PublicLinkResponse = z.infer<typeof publicLinkSchema>
