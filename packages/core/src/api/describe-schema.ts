import * as z from 'zod/mini'

/**
 * `schema` with a description for the OpenAPI document (zod/mini has no `.describe()`): a copy of
 * the schema registered in zod's global registry, so the shared original stays undescribed.
 */
export function describeSchema<Schema extends z.ZodMiniType>(schema: Schema, description: string): Schema {
  const copy = schema.clone()
  z.globalRegistry.add(copy as z.ZodMiniType, { description })
  return copy
}
