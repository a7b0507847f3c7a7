import * as z from 'zod/mini'
import { devMailSchema, devSmsSchema } from '../dev-outbox.ts'

/** The answer of GET /api/dev/mail (docs/api.md#dev-routes): caught mail, newest first. */
export const devMailListResponseSchema = z.object({ data: z.array(devMailSchema) })

/** The answer of GET /api/dev/sms: text messages of the dev outbox, newest first. */
export const devSmsListResponseSchema = z.object({ data: z.array(devSmsSchema) })

/** The path of GET /api/dev/chains/{chainId}/tx/{hash}. */
export const devTransactionParamsSchema = z.object({
  chainId: z.coerce.number().check(z.int(), z.positive()),
  hash: z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'must be a transaction hash (0x + 64 hex)')),
})

/** The answer of GET /api/dev/chains/{chainId}/tx/{hash}: a devnet transaction and its receipt. */
export const devTransactionResponseSchema = z.object({
  data: z.object({ transaction: z.unknown(), receipt: z.nullable(z.unknown()) }),
})
