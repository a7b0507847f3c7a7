import type { ActivityStatus } from '@quicklinks/protocol/activity-statuses'
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core'

// The signer's tables, all prefixed `signer_`, with their own migration set (src/db/migrations,
// `npm run db:generate -w apps/signer`); nothing outside the signer reads them. Secrets never sit here in clear: seeds and the
// export signing key are sealed (seal-secret.ts), OTP codes are keyed hashes.

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

/**
 * An organization: the unit stamped requests name (`organizationId`). Today one user per
 * organization; the id has the same shape as the pseudonymous ids `lookup` gives unknown contacts.
 */
export const signerOrganizations = pgTable('signer_organizations', {
  id: text('id').primaryKey(),
  createdAt: createdAt(),
})

/** A wallet owner. `email` is trimmed and lower-cased, `phone` is E.164; each belongs to one user. */
export const signerUsers = pgTable('signer_users', {
  id: uuid('id').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .unique()
    .references(() => signerOrganizations.id, { onDelete: 'cascade' }),
  email: text('email').unique(),
  phone: text('phone').unique(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Every way a user can sign in; `email` and `sms` today, `passkey`, `oauth`, `jwt`, `totp` later. */
export const signerAuthMethodTypes = ['email', 'sms', 'passkey', 'oauth', 'jwt', 'totp'] as const
export type SignerAuthMethodType = (typeof signerAuthMethodTypes)[number]

/**
 * One sign-in method of a user, keyed by type and identifier (the normalised e-mail, the E.164
 * phone, later a credential id or `issuer|subject`); `data` holds what a type needs beyond that.
 */
export const signerAuthMethods = pgTable(
  'signer_auth_methods',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => signerUsers.id, { onDelete: 'cascade' }),
    type: text('type').$type<SignerAuthMethodType>().notNull(),
    identifier: text('identifier').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (table) => [
    unique('signer_auth_methods_type_identifier_unique').on(table.type, table.identifier),
    index('signer_auth_methods_user_id_idx').on(table.userId),
  ],
)

/**
 * A user's wallet: the BIP-39 mnemonic sealed under the master key (bound to the user id and the
 * purpose `wallet-mnemonic`) and the two public addresses derived from it.
 */
export const signerWallets = pgTable('signer_wallets', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .unique()
    .references(() => signerUsers.id, { onDelete: 'cascade' }),
  sealedMnemonic: text('sealed_mnemonic').notNull(),
  /** EIP-55 checksummed, m/44'/60'/0'/0/0. */
  evmAddress: text('evm_address').notNull().unique(),
  /** base58, m/44'/501'/0'/0'. */
  solanaAddress: text('solana_address').notNull().unique(),
  createdAt: createdAt(),
})

/**
 * Session keys minted at login: only the public half is kept. `id` orders them by issue, so the
 * oldest beyond the tenth live key can be revoked.
 */
export const signerSessionKeys = pgTable(
  'signer_session_keys',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Compressed P-256, lower-case hex: what stamps name. */
    publicKey: text('public_key').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => signerUsers.id, { onDelete: 'cascade' }),
    /**
     * The key the session was encrypted to (the auth frame's, uncompressed lower-case hex), so a
     * provider's id token can be checked against it (its nonce, docs/signer.md#add-oauth-provider).
     * Null for keys minted before it was kept.
     */
    targetPublicKey: text('target_public_key'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('signer_session_keys_user_id_idx').on(table.userId, table.id)],
)

export type SignerOtpPurpose = 'auth' | 'verify'
export type SignerContactChannel = 'email' | 'sms'

/**
 * One-time codes. Each row is also one send, so the rows of the last 24 hours are the send log the
 * per-contact and per-prefix caps count. `codeHash` is HMAC-SHA256 under a key derived from the
 * master key, bound to the row id; `magicLinkHash` the same for a magic link's secret.
 */
export const signerOtps = pgTable(
  'signer_otps',
  {
    id: uuid('id').primaryKey(),
    purpose: text('purpose').$type<SignerOtpPurpose>().notNull(),
    channel: text('channel').$type<SignerContactChannel>().notNull(),
    /** The normalised e-mail or E.164 phone. */
    contact: text('contact').notNull(),
    /** SMS only: country calling code and the next three digits (`+44791`), for the per-prefix cap. */
    phonePrefix: text('phone_prefix'),
    /** For sign-in codes: the orgId `auth` answered with (the account's, or the pseudonymous one). */
    organizationId: text('organization_id'),
    codeHash: text('code_hash').notNull(),
    /** A magic-link mail: the keyed hash of the link's secret; the link opens this row like its code. */
    magicLinkHash: text('magic_link_hash'),
    /** Tries used, the right one included; the third wrong try kills the code. */
    attempts: integer('attempts').notNull().default(0),
    targetPublicKey: text('target_public_key'),
    expirationSeconds: integer('expiration_seconds'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** A newer code for the same contact and purpose was delivered: this one no longer works. */
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
    /** When the verification token minted from this code was spent (update-email/phone-auth). */
    tokenUsedAt: timestamp('token_used_at', { withTimezone: true }),
    /**
     * Who asked for it: `ip:{client}` (IPv4 address or IPv6 /64), or `user:{userId}` for a browser
     * that proved a recent sign-in to the contact's account (a reserved send). A stranger's sends
     * count against their own budget, and retire only their own older codes (docs/decisions/0022).
     */
    requester: text('requester').notNull().default(''),
    /** Sent to a browser that signed in recently: counted apart and usable during a lock. */
    isReserved: boolean('is_reserved').notNull().default(false),
  },
  (table) => [
    index('signer_otps_contact_idx').on(table.channel, table.contact, table.createdAt),
    index('signer_otps_requester_idx').on(table.channel, table.contact, table.requester, table.createdAt),
    index('signer_otps_phone_prefix_idx').on(table.phonePrefix, table.createdAt),
  ],
)

/**
 * The wallet a `signup` reserved for its code: a fresh mnemonic sealed under the master key (bound
 * to `userId`, purpose `wallet-mnemonic`) and its two addresses, which `signup` answered. When the
 * code (or its link) is used and the contact still has no account, the account is made with this
 * user id and wallet; otherwise it is dropped. No session key and no user exist for it, so nothing
 * can sign with it. Goes with its code (used, or swept once expired).
 */
export const signerWalletReservations = pgTable('signer_wallet_reservations', {
  otpId: uuid('otp_id')
    .primaryKey()
    .references(() => signerOtps.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull(),
  sealedMnemonic: text('sealed_mnemonic').notNull(),
  /** EIP-55 checksummed, m/44'/60'/0'/0/0. */
  evmAddress: text('evm_address').notNull(),
  /** base58, m/44'/501'/0'/0'. */
  solanaAddress: text('solana_address').notNull(),
  createdAt: createdAt(),
})

/**
 * One wrong code (or magic-link secret) for a contact, whatever code it was: the failure budget
 * counts these across all of a contact's codes. Rows older than a day are swept.
 */
export const signerCodeFailures = pgTable(
  'signer_code_failures',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    channel: text('channel').$type<SignerContactChannel>().notNull(),
    contact: text('contact').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('signer_code_failures_contact_idx').on(table.channel, table.contact, table.createdAt)],
)

/**
 * A contact whose failure budget ran out: until `lockedUntil` no code for it is checked or sent.
 * One row per contact, rewritten by the next lock; `lockedAt` also marks where the next budget
 * starts counting.
 */
export const signerContactLocks = pgTable(
  'signer_contact_locks',
  {
    channel: text('channel').$type<SignerContactChannel>().notNull(),
    contact: text('contact').notNull(),
    lockedAt: timestamp('locked_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.channel, table.contact] })],
)

/**
 * One wrong authenticator code at sign-in (`auth-validate-multi-factors`), per user and challenge:
 * three on one challenge end it, every third locks the user's second-factor step for a doubling
 * time, and ten within 24 hours refuse it until the oldest is a day old, whatever the locks did.
 * Rows older than a day are swept.
 */
export const signerTotpFailures = pgTable(
  'signer_totp_failures',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id').notNull(),
    /** The `encryptedPayload`'s id (mfa-challenge.ts). */
    challengeId: uuid('challenge_id').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('signer_totp_failures_user_idx').on(table.userId, table.createdAt),
    index('signer_totp_failures_challenge_idx').on(table.challengeId),
  ],
)

/**
 * A social login waiting for its account-linking code (docs/signer.md#oauth-callback): the provider
 * identity the callback verified, kept here under the e-mail code it sent (`otpId`) instead of
 * handing the id token to the page. The code's sign-in links it, for the frame key the provider
 * flow ran with only; it goes with its code.
 */
export const signerOAuthLinks = pgTable('signer_oauth_links', {
  otpId: uuid('otp_id')
    .primaryKey()
    .references(() => signerOtps.id, { onDelete: 'cascade' }),
  userId: uuid('user_id')
    .notNull()
    .references(() => signerUsers.id, { onDelete: 'cascade' }),
  providerId: text('provider_id').notNull(),
  issuer: text('issuer').notNull(),
  subject: text('subject').notNull(),
  email: text('email'),
  /** The auth frame's key (uncompressed lower-case hex) whose hash was the provider flow's nonce. */
  targetPublicKey: text('target_public_key').notNull(),
  createdAt: createdAt(),
})

/** Bodies of stamped requests already run, by SHA-256; rows may go once `expiresAt` passed. */
export const signerStampReplays = pgTable(
  'signer_stamp_replays',
  {
    bodyHash: text('body_hash').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('signer_stamp_replays_expires_at_idx').on(table.expiresAt)],
)

/** Every signing and export: what was asked (`request`: the stamped body's parameters) and the result. */
export const signerActivities = pgTable(
  'signer_activities',
  {
    id: uuid('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => signerOrganizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => signerUsers.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    status: text('status').$type<ActivityStatus>().notNull(),
    request: jsonb('request').$type<Record<string, unknown>>().notNull(),
    result: jsonb('result').$type<Record<string, unknown>>(),
    /** SHA-256 of the stamped body that asked for it. */
    bodyHash: text('body_hash'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('signer_activities_organization_id_idx').on(table.organizationId, table.createdAt)],
)

/** The service's own keys (today the export signing key), sealed under the master key. */
export const signerServiceKeys = pgTable('signer_service_keys', {
  name: text('name').primaryKey(),
  sealedSecret: text('sealed_secret').notNull(),
  /** Uncompressed hex public key, readable without the master key. */
  publicKey: text('public_key').notNull(),
  createdAt: createdAt(),
})

export type SignerOtp = typeof signerOtps.$inferSelect
export type SignerActivity = typeof signerActivities.$inferSelect
export type SignerWalletReservation = typeof signerWalletReservations.$inferSelect
export type SignerOAuthLink = typeof signerOAuthLinks.$inferSelect
