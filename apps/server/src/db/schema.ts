import { sql } from 'drizzle-orm'
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/** A person who signed in. Issue 3 (sign-in) adds the columns it needs. */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  /** The embedded-wallet EVM address, lower-case, so uniqueness ignores checksum casing. */
  address: text('address').notNull().unique(),
  email: text('email'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * App sessions. `id` is the SHA-256 (hex) of the random 256-bit token in the `ql_session` cookie:
 * a database leak yields no usable cookie.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('sessions_user_id_idx').on(table.userId)],
)

/**
 * Fixed-window rate-limit counters shared by every app-server instance (the server is stateless).
 * A row is one key's current window; expired rows are reused or swept.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('rate_limits_expires_at_idx').on(table.expiresAt)],
)

/**
 * Sign-In with Ethereum nonces (`GET /api/auth/nonce`): each one is deleted when a login uses it,
 * so it works once; unused ones expire after 10 minutes and are swept.
 */
export const siweNonces = pgTable(
  'siwe_nonces',
  {
    nonce: text('nonce').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('siwe_nonces_expires_at_idx').on(table.expiresAt)],
)

export type User = typeof users.$inferSelect
export type Session = typeof sessions.$inferSelect
