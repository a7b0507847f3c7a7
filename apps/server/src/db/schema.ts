import { sql } from 'drizzle-orm'
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'

/** A person who signed in. Issue 3 (sign-in) adds the columns it needs. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    /** The embedded-wallet EVM address, lower-case, so uniqueness ignores checksum casing. */
    address: text('address').notNull().unique(),
    email: text('email'),
    /** The claimed username as typed (letters, digits, underscore); unique ignoring case. */
    username: text('username'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('users_username_lower_idx').on(sql`lower(${table.username})`)],
)

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

/**
 * Payment links (SPEC section 3, Link). Each belongs to one user; slugs are unique across all
 * links ignoring case (the public address is /pay/{alias_slug}); an idempotency key is unique per
 * user, so a retried create returns the first link instead of a second one.
 */
export const links = pgTable(
  'links',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkType: text('link_type').notNull().default('Payment Link'),
    alias: text('alias').notNull(),
    aliasSlug: text('alias_slug').notNull(),
    /** EIP-55 checksummed. */
    receiverAddress: text('receiver_address').notNull(),
    chain: text('chain').notNull().default('base'),
    chainId: integer('chain_id').notNull().default(8453),
    tokenName: text('token_name').notNull(),
    /** Lower-case; the all-e or the zero address means the chain's native token. */
    tokenAddress: text('token_address').notNull(),
    message: text('message').notNull().default(''),
    accountType: text('account_type').notNull().default('personal'),
    enabled: boolean('enabled').notNull().default(true),
    favorite: boolean('favorite').notNull().default(false),
    /** JSON text of an object. */
    settings: text('settings').notNull().default('{}'),
    idempotencyKey: text('idempotency_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('links_alias_slug_lower_idx').on(sql`lower(${table.aliasSlug})`),
    uniqueIndex('links_user_id_idempotency_key_idx').on(table.userId, table.idempotencyKey),
    index('links_user_id_created_at_idx').on(table.userId, table.createdAt),
  ],
)

export type User = typeof users.$inferSelect
export type Link = typeof links.$inferSelect
export type Session = typeof sessions.$inferSelect
