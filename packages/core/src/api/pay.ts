import * as z from 'zod/mini'
import { linkSchema } from './link.ts'
import { nameSchema } from './name-schema.ts'

/**
 * The payer's read of a link (docs/api.md#pay-link, #public-link): GET /api/pay/links/{slug}
 * answers an enabled link with only what paying needs; the owner's flags, settings and
 * idempotency key stay on the owner's endpoints.
 */
export const publicLinkSchema = nameSchema(
  z.extend(
    z.pick(linkSchema, {
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
    }),
    {
      // A link's fixed amount (decimal string in its token), null when the payer chooses; absent from
      // a server that predates amounts. The pay modal locks it (docs/product.md#paying-an-invoice-or-an-amount-link).
      amount: z.optional(z.nullable(z.string())),
    },
  ),
  'PublicLink',
)

/** The longest slug GET /api/pay/links/{slug} takes in its path. */
export const maxPublicLinkSlugParamLength = 256

/** The path of GET /api/pay/links/{slug}: the slug, any case. */
export const publicLinkParamsSchema = z.object({
  slug: z.string().check(z.maxLength(maxPublicLinkSlugParamLength)),
})

/** The answer of GET /api/pay/links/{slug}. */
export const publicLinkResponseSchema = z.object({ data: publicLinkSchema })

/** A link as a payer sees it. */
export type PublicLinkResponse = z.infer<typeof publicLinkSchema>
