import * as z from 'zod/mini'
import { describeSchema } from './describe-schema.ts'
import { nameSchema } from './name-schema.ts'

/** A username (docs/product.md#username-rules): 3 to 32 letters, digits or underscores. */
export const usernameSchema = describeSchema(
  z.string().check(z.regex(/^[A-Za-z0-9_]{3,32}$/, 'must be 3 to 32 letters, digits or underscores')),
  '3 to 32 letters, digits or underscores; unique ignoring case',
)

/** POST /api/users/username's body; it answers the user (`userResponseSchema`). */
export const claimUsernameRequestSchema = nameSchema(
  z.object({ username: usernameSchema }),
  'ClaimUsernameRequest',
)

/** The path of GET /api/users/username/{username}/exists (docs/api.md#username-exists). */
export const usernameExistsParamsSchema = z.object({ username: usernameSchema })

/** The answer of GET /api/users/username/{username}/exists. */
export const usernameExistsResponseSchema = z.object({ exists: z.boolean() })

/** POST /api/users/username's body. */
export type ClaimUsernameRequest = z.infer<typeof claimUsernameRequestSchema>
