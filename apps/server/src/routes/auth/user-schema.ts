import { z } from 'zod'

/** The signed-in user as `GET /api/auth/me` returns it. */
export const userSchema = z
  .object({
    id: z.uuid(),
    address: z.string().describe('EVM address, lower-case'),
    email: z.string().nullable(),
    username: z.string().nullable().describe('The claimed username, or null'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'User' })

export type UserResponse = z.infer<typeof userSchema>
