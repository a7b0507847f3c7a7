import * as z from 'zod/mini'
import { nameSchema } from './name-schema.ts'

/**
 * The body of every failing API answer (AppError.toBody()): `{ error: { code, message, field?,
 * details? } }`, see docs/api.md#errors. The server documents each error status with it; the web
 * reads failures through `parseErrorBody`, which also copes with bodies that are not this shape.
 */
export const errorResponseSchema = nameSchema(
  z.object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      field: z.optional(z.string()),
      details: z.optional(z.record(z.string(), z.unknown())),
    }),
  }),
  'Error',
)

/** A failing answer's body. */
export type ErrorResponse = z.infer<typeof errorResponseSchema>
