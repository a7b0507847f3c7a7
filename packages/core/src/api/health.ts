import * as z from 'zod/mini'

/** The answer of GET /health (docs/api.md#health): alive. */
export const healthResponseSchema = z.object({ status: z.literal('ok') })

/** The answer of GET /ready (docs/api.md#ready), 200 or 503: each check's outcome and time. */
export const readinessResponseSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.record(
    z.string(),
    z.object({ status: z.enum(['ok', 'failed']), ms: z.number(), error: z.optional(z.string()) }),
  ),
})
