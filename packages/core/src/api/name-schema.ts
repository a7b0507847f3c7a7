import * as z from 'zod/mini'

/**
 * `schema` registered in zod's global registry under `id`, so the OpenAPI document shows it as a
 * named component (zod/mini has no `.meta()`). Returns the same schema.
 */
export function nameSchema<Schema extends z.ZodMiniType>(schema: Schema, id: string): Schema {
  z.globalRegistry.add(schema as z.ZodMiniType, { id })
  return schema
}
