import { z } from 'zod'

/** The signed-in user (docs/api.md#user), as sign-in and GET /api/auth/me answer it. */
export const userSchema = z
  .object({
    id: z.uuid(),
    address: z.string().describe('EVM address, lower-case'),
    email: z.string().nullable(),
    username: z.string().nullable().describe('The claimed username, or null'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'User' })

/** The answer of POST /api/auth/login, GET /api/auth/me and POST /api/users/username: the user. */
export const userResponseSchema = z.object({ data: userSchema })

/** The answer of GET /api/auth/nonce (docs/api.md#auth-nonce). */
export const nonceResponseSchema = z.object({ data: z.object({ nonce: z.string() }) })

/** POST /api/auth/login's body (docs/api.md#auth-login): a signed Sign-In with Ethereum message. */
export const loginRequestSchema = z
  .object({
    message: z.string().min(1).max(4096).describe('The EIP-4361 message the wallet signed'),
    signature: z
      .string()
      .max(8192)
      .regex(/^0x(?:[0-9a-fA-F]{2})+$/, 'must be 0x-prefixed hex')
      .describe('The EIP-191 signature of the message'),
  })
  .meta({ id: 'LoginRequest' })

/** The answer of POST /api/auth/logout (docs/api.md#auth-logout). */
export const logoutResponseSchema = z.object({ data: z.object({ ok: z.literal(true) }) })

/** The user as the API answers it. */
export type UserResponse = z.infer<typeof userSchema>
/** POST /api/auth/login's body. */
export type LoginRequest = z.infer<typeof loginRequestSchema>
