import * as z from 'zod/mini'
import { describeSchema } from './describe-schema.ts'
import { nameSchema } from './name-schema.ts'

/**
 * What the owner's link API answers (docs/api.md#link-object, #links-list to #links-delete): the
 * server's routes document with these schemas and the web parses its answers with them. Kept apart
 * from the request rules (links.ts) so the pay page, which reads only answers, stays small.
 */

/** A link as its owner sees it (docs/api.md#link-object). */
export const linkSchema = nameSchema(
  z.object({
    id: z.uuid(),
    link_type: z.string(),
    alias: z.string(),
    alias_slug: z.string(),
    receiver_address: describeSchema(z.string(), 'EIP-55 checksummed'),
    chain: z.string(),
    chain_id: z.int(),
    token_name: z.string(),
    token_address: describeSchema(z.string(), 'Lower-case'),
    message: describeSchema(z.string(), 'Empty when the link has none'),
    amount: describeSchema(
      z.nullable(z.string()),
      "A fixed amount, a decimal string in the link's token; null when the payer chooses",
    ),
    account_type: z.string(),
    enabled: z.boolean(),
    favorite: z.boolean(),
    notify_payments: describeSchema(
      z.boolean(),
      'Whether the owner gets an e-mail on each verified payment (docs/api.md#notices)',
    ),
    settings: describeSchema(z.string(), 'JSON text of an object'),
    idempotency_key: z.nullable(z.string()),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  }),
  'Link',
)

/** The path of GET, PUT and DELETE /api/links/{id}. */
export const linkIdParamsSchema = z.object({
  id: describeSchema(z.string().check(z.maxLength(64)), 'The link id (a UUID)'),
})

/** The answer of POST, GET and PUT /api/links[/{id}]: the link. */
export const linkResponseSchema = z.object({ data: linkSchema })

/** The answer of GET /api/links (docs/api.md#links-list): the caller's links, newest first. */
export const linkListResponseSchema = z.object({ data: z.array(linkSchema) })

/** The answer of DELETE /api/links/{id} (docs/api.md#links-delete): the id that went. */
export const deleteLinkResponseSchema = z.object({ data: z.object({ id: z.string() }) })

/** A link as the owner's API answers it. */
export type LinkResponse = z.infer<typeof linkSchema>
/** GET /api/links's answer. */
export type LinkListResponse = z.infer<typeof linkListResponseSchema>
