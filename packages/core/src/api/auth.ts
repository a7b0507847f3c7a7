import * as z from 'zod/mini'
import { describeSchema } from './describe-schema.ts'
import { nameSchema } from './name-schema.ts'

/** The signed-in user (docs/api.md#user), as sign-in and GET /api/auth/me answer it. */
export const userSchema = nameSchema(
  z.object({
    id: z.uuid(),
    address: describeSchema(z.string(), 'EVM address, lower-case'),
    email: z.nullable(z.string()),
    username: describeSchema(z.nullable(z.string()), 'The claimed username, or null'),
    createdAt: z.iso.datetime(),
  }),
  'User',
)

/** The answer of POST /api/auth/login, GET /api/auth/me and POST /api/users/username: the user. */
export const userResponseSchema = z.object({ data: userSchema })

/** The answer of GET /api/auth/nonce (docs/api.md#auth-nonce). */
export const nonceResponseSchema = z.object({ data: z.object({ nonce: z.string() }) })

/** POST /api/auth/login's body (docs/api.md#auth-login): a signed Sign-In with Ethereum message. */
export const loginRequestSchema = nameSchema(
  z.object({
    message: describeSchema(
      z.string().check(z.minLength(1), z.maxLength(4096)),
      'The EIP-4361 message the wallet signed',
    ),
    signature: describeSchema(
      z.string().check(z.maxLength(8192), z.regex(/^0x(?:[0-9a-fA-F]{2})+$/, 'must be 0x-prefixed hex')),
      'The EIP-191 signature of the message',
    ),
  }),
  'LoginRequest',
)

/** The answer of POST /api/auth/logout (docs/api.md#auth-logout). */
export const logoutResponseSchema = z.object({ data: z.object({ ok: z.literal(true) }) })

/** The user as the API answers it. */
export type UserResponse = z.infer<typeof userSchema>
/** POST /api/auth/login's body. */
export type LoginRequest = z.infer<typeof loginRequestSchema>
