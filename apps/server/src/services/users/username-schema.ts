import { z } from 'zod'

/** A username: 3 to 32 letters, digits or underscores (SPEC section 9: at least 3). */
export const usernameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_]{3,32}$/, 'must be 3 to 32 letters, digits or underscores')
  .describe('3 to 32 letters, digits or underscores; unique ignoring case')

export const claimUsernameRequestSchema = z
  .object({ username: usernameSchema })
  .meta({ id: 'ClaimUsernameRequest' })

export type ClaimUsernameRequest = z.infer<typeof claimUsernameRequestSchema>
