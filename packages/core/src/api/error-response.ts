import { z } from 'zod'

/**
 * The body of every failing API answer (AppError.toBody()): `{ error: { code, message, field?,
 * details? } }`, see docs/api.md#errors. The server documents each error status with it; the web
 * reads failures through `parseErrorBody`, which also copes with bodies that are not this shape.
 */
export const errorResponseSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      field: z.string().optional(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: 'Error' })

/** A failing answer's body. */
export type ErrorResponse = z.infer<typeof errorResponseSchema>
