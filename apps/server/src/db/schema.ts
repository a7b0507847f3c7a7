// One file because drizzle-kit reads the whole schema from it (drizzle.config.ts) to write each
// migration; every table keeps its own doc comment. Longer than 300 lines for that reason.
import type { ApiKeyScope } from '@quicklinks/core/api/api-keys'
import type { InvoiceState } from '@quicklinks/core/api/invoices'
import type { PaymentDigest } from '@quicklinks/core/api/notices'
import type { PaymentRequirements } from '@x402/core/types'
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

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
    /**
     * The payment digest (docs/api.md#notices): 'off', or 'daily' for one mail a day summing up
     * the previous UTC day's verified payments to the user's links.
     */
    paymentDigest: text('payment_digest').$type<PaymentDigest>().notNull().default('off'),
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
 * API keys (docs/api.md#api-keys). `secret_hash` is the SHA-256 (hex) of the whole random key, the
 * only way a request finds its key: a database leak yields no usable key. Revoking sets
 * `revoked_at`; every request reads the row (no cache), so a revoked key fails at once everywhere.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    secretHash: text('secret_hash').notNull(),
    /** The key's first 8 characters, to tell keys apart in a list. */
    prefix: text('prefix').notNull(),
    scopes: jsonb('scopes').$type<ApiKeyScope[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Written at most once a minute per key. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('api_keys_secret_hash_idx').on(table.secretHash),
    index('api_keys_user_id_created_at_idx').on(table.userId, table.createdAt),
  ],
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
 * Payment links (docs/api.md#link-object). Each belongs to one user; slugs are unique across all
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
    /** The owner's e-mail on each verified payment (docs/api.md#notices); off writes a skipped row. */
    notifyPayments: boolean('notify_payments').notNull().default(true),
    /** JSON text of an object. */
    settings: text('settings').notNull().default('{}'),
    /**
     * A fixed amount the link asks for, a decimal string in its token (docs/api.md#link-object);
     * null when the payer chooses.
     */
    amount: text('amount'),
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

/**
 * Invoices on a link (docs/api.md#invoice-object): an amount in the link's token due by `expires_at`,
 * paid by any number of verified payments (route intents carrying its id). The token, its decimals
 * and the receiver are copied from the link when the invoice is made, so editing the link later
 * never changes what an open invoice asks for. Amounts are integer strings in the token's smallest
 * unit (`amount` keeps the decimal string the payee wrote). The id is random and unguessable: it is
 * the invoice's public address (/pay/{slug}/{id}).
 */
export const invoices = pgTable(
  'invoices',
  {
    /** `inv_` + 22 base64url characters (128 random bits). */
    id: text('id').primaryKey(),
    linkId: uuid('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    chainId: integer('chain_id').notNull(),
    /** Lower-case; the all-e address is the chain's native token. */
    tokenAddress: text('token_address').notNull(),
    tokenSymbol: text('token_symbol').notNull(),
    tokenDecimals: integer('token_decimals').notNull(),
    /** Lower-case. */
    receiverAddress: text('receiver_address').notNull(),
    /** The decimal string the payee asked for, in the token. */
    amount: text('amount').notNull(),
    amountUnits: numeric('amount_units', { precision: 78, scale: 0 }).notNull(),
    amountPaidUnits: numeric('amount_paid_units', { precision: 78, scale: 0 }).notNull().default('0'),
    toleranceBps: integer('tolerance_bps').notNull().default(0),
    reference: text('reference'),
    memo: text('memo'),
    /** open, processing, paid, paid_over, underpaid, expired, paid_late, refunded (docs/api.md#invoice-states). */
    state: text('state').$type<InvoiceState>().notNull().default('open'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Payments arriving until then still count (paid_late); the invoice worker stops looking after it. */
    monitorUntil: timestamp('monitor_until', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('invoices_user_id_created_at_idx').on(table.userId, table.createdAt),
    index('invoices_link_id_created_at_idx').on(table.linkId, table.createdAt),
    index('invoices_state_expires_at_idx').on(table.state, table.expiresAt),
  ],
)

/**
 * Route intents: every route the server quoted (`POST /api/{provider}/route`), with what the
 * payer's wallet was asked to send, and, once a receipt is posted, the payment's tracking state
 * (docs/api.md#transaction-record). Amounts are integer strings in the token's smallest unit;
 * addresses lower-case. The tracker takes due rows (`next_check_at`) with `FOR UPDATE SKIP LOCKED`.
 */
export const routeIntents = pgTable(
  'route_intents',
  {
    /** `0x` + 64 hex, random; the local provider puts it on chain. */
    id: text('id').primaryKey(),
    provider: text('provider').notNull(),
    linkId: uuid('link_id').references(() => links.id, { onDelete: 'set null' }),
    /** The invoice this route pays part or all of (the route request's invoiceId), if any. */
    invoiceId: text('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    fromChainId: integer('from_chain_id').notNull(),
    toChainId: integer('to_chain_id').notNull(),
    fromToken: text('from_token').notNull(),
    toToken: text('to_token').notNull(),
    fromAmount: text('from_amount').notNull(),
    toAmount: text('to_amount').notNull(),
    toAmountMin: text('to_amount_min').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    slippage: doublePrecision('slippage').notNull(),
    transactionRequest: jsonb('transaction_request').$type<Record<string, unknown>>().notNull(),
    actions: jsonb('actions').$type<unknown[]>().notNull(),
    /** What the provider needs for status calls (Squid: request id, quote id). */
    providerData: jsonb('provider_data').$type<Record<string, unknown>>().notNull().default({}),
    estimatedDurationMs: integer('estimated_duration_ms').notNull().default(0),
    /**
     * The transaction the record is about: set when a posted hash was found to be the payer's
     * transaction of this route (route_intent_receipts), or the payer's own mismatching one that
     * failed the record; null while the posted hashes are still unknown to the chain.
     */
    sourceTxHash: text('source_tx_hash'),
    /** Block of the source receipt the record relies on, re-read until final (reorgs). */
    sourceBlockNumber: bigint('source_block_number', { mode: 'number' }),
    sourceBlockHash: text('source_block_hash'),
    /** Cross-chain local routes: the PayRouter order key of the deposit (from the source receipt). */
    orderKey: text('order_key'),
    /** Block of the destination evidence (the fill, or Squid's destination transaction). */
    destBlockNumber: bigint('dest_block_number', { mode: 'number' }),
    destBlockHash: text('dest_block_hash'),
    /** When a success or failure became final (deep enough to trust); null while still watched. */
    finalAt: timestamp('final_at', { withTimezone: true }),
    /** The provider's own status word (local: submitted, ongoing, success, failed, refunded). */
    statusRaw: text('status_raw'),
    /** `readTransactionStatus(status_raw)`: submitted, bridging, success or failed. */
    status: text('status'),
    destTxHash: text('dest_tx_hash'),
    toAmountWei: text('to_amount_wei'),
    errorMessage: text('error_message'),
    /** One entry per action: {type, chainId, txHash, status}. */
    routeStatus: jsonb('route_status').$type<unknown[]>(),
    gasStatus: text('gas_status'),
    isGmp: boolean('is_gmp').notNull().default(false),
    axelarUrl: text('axelar_url'),
    isRefunded: boolean('is_refunded').notNull().default(false),
    /** When the tracker looks next; null when not tracked (no receipt yet, or finished). */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    /** A tracker holding the row past a crash lets it go when this passes. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /**
     * The id of the last request that moved the payment (the route build, then each posted receipt):
     * the tracker's and relayer's log lines about it carry it, so one grep follows a payment from
     * the request to the workers of any instance.
     */
    requestId: text('request_id'),
  },
  (table) => [
    // Not unique: a bystander may post one intent's hash against another, which must not block it.
    index('route_intents_source_tx_idx').on(table.fromChainId, table.sourceTxHash),
    index('route_intents_from_address_updated_idx').on(table.fromAddress, table.updatedAt),
    index('route_intents_next_check_idx').on(table.nextCheckAt),
    index('route_intents_invoice_id_idx').on(table.invoiceId),
    // The payee's payment history (GET /api/payments): a link's payments, newest first.
    index('route_intents_link_id_created_at_idx').on(table.linkId, table.createdAt),
    // The receipt mail sweep: payments that became final successes lately (receipt_emails).
    index('route_intents_final_success_idx').on(table.finalAt).where(sql`status = 'success'`),
    // All of a payee's payments, newest first (the history's first page walks it backwards).
    index('route_intents_paid_created_at_id_idx')
      .on(table.createdAt, table.id)
      .where(sql`${table.sourceTxHash} is not null and ${table.status} is not null`),
  ],
)

/**
 * The receipt e-mail outbox (docs/api.md#receipt-emails): one row per mail, written before it is
 * sent, so a crash loses none. The payee's row is written by the sweep when a payment is seen final
 * (with a null address and state `skipped` when the payee has none, so it is looked up once); the
 * payer's rows by POST /api/receipts/{intentId}/email. The unique keys make a second instance's
 * sweep or a repeated form a no-op; a sender claims a row (`sending`, with a lease) before it
 * sends, so two instances never send the same row.
 */
export const receiptEmails = pgTable(
  'receipt_emails',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    intentId: text('intent_id')
      .notNull()
      .references(() => routeIntents.id, { onDelete: 'cascade' }),
    /** payee (the link owner) or payer (an address given on the receipt page). */
    role: text('role').notNull(),
    /** Lower-case; null for a payee without an address (state skipped). */
    email: text('email'),
    /** pending, sending (claimed; its lease is locked_until), sent, failed (gave up) or skipped. */
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** Who asked, for the payer's form (the client's address), kept for the per-address caps. */
    requestedBy: text('requested_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    // One payee mail per payment, whichever instance's sweep sees it first.
    uniqueIndex('receipt_emails_payee_idx').on(table.intentId).where(sql`role = 'payee'`),
    // Each address at most once per payment.
    uniqueIndex('receipt_emails_intent_email_idx').on(table.intentId, table.email),
    index('receipt_emails_due_idx').on(table.state, table.nextAttemptAt),
    index('receipt_emails_email_created_idx').on(table.email, table.createdAt),
  ],
)

/**
 * The daily payment digests (docs/api.md#notices): one row per user and UTC day, claimed by the
 * first instance's insert (the primary key makes another instance's a no-op) before anything is
 * sent, so a user gets one digest a day whatever the instances. `sending` with a lapsed lease is a
 * sender that died mid-send: it is taken again (at least once, never lost).
 */
export const paymentDigests = pgTable(
  'payment_digests',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The UTC day (YYYY-MM-DD) whose payments the digest sums up. */
    day: date('day', { mode: 'string' }).notNull(),
    /** sending (claimed; its lease is locked_until), pending (to retry), sent, failed, or skipped. */
    state: text('state').notNull().default('sending'),
    /** The verified payments of the day the digest counted (0 for a skipped empty day). */
    payments: integer('payments').notNull().default(0),
    attempts: integer('attempts').notNull().default(1),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.day] }),
    index('payment_digests_due_idx').on(table.state, table.nextAttemptAt),
  ],
)

/**
 * Each verified payment credited to an invoice (docs/decisions/0025-invoice-states.md): one row per route intent,
 * written in the same transaction as the invoice's new amount paid. The primary key is what makes
 * a credit happen once, whichever instance or worker round gets there first. `amount_units` is
 * the intent's verified receiver credit (route_intents.to_amount_wei once final); `arrived_at` the
 * time the tracker first saw it on chain (route_intents.completed_at), which decides paid_late.
 */
export const invoicePayments = pgTable(
  'invoice_payments',
  {
    invoiceId: text('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    /** Not a foreign key: the credit stays on record whatever later happens to the intent row. */
    intentId: text('intent_id').notNull(),
    amountUnits: numeric('amount_units', { precision: 78, scale: 0 }).notNull(),
    arrivedAt: timestamp('arrived_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.invoiceId, table.intentId] }),
    uniqueIndex('invoice_payments_intent_id_idx').on(table.intentId),
  ],
)

/**
 * Every state change of an invoice (docs/api.md#invoice-states), with the route intent that caused
 * it (null for the clock: expiry) and the amount paid after it.
 */
export const invoiceTransitions = pgTable(
  'invoice_transitions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    invoiceId: text('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    fromState: text('from_state').notNull(),
    toState: text('to_state').notNull(),
    intentId: text('intent_id'),
    amountPaidUnits: numeric('amount_paid_units', { precision: 78, scale: 0 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('invoice_transitions_invoice_id_created_at_idx').on(table.invoiceId, table.createdAt)],
)

/**
 * What each link received per destination token per UTC day: the sum of the verified credits
 * (`to_amount_wei`) of its successful, final payments. Kept by a trigger on route_intents
 * (migration payments_history), so the history's totals add a few rows per day instead of every
 * payment. No foreign key: a deleted link's rows stay behind unread (its payments' link_id
 * becomes null, which the trigger reads as leaving the link).
 */
export const paymentDailyTotals = pgTable(
  'payment_daily_totals',
  {
    linkId: uuid('link_id').notNull(),
    toChainId: integer('to_chain_id').notNull(),
    toToken: text('to_token').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    amount: numeric('amount', { precision: 78, scale: 0 }).notNull().default('0'),
    payments: integer('payments').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.linkId, table.toChainId, table.toToken, table.day] })],
)

/**
 * Every hash posted for a route intent (`POST /api/route-intent/{id}/receipt`): anyone may post, so
 * a hash is only a candidate until the tracker finds it on chain as the payer's transaction of the
 * route (matched) or not (rejected, with the reason). A wrong hash never blocks the right one.
 */
export const routeIntentReceipts = pgTable(
  'route_intent_receipts',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    intentId: text('intent_id')
      .notNull()
      .references(() => routeIntents.id, { onDelete: 'cascade' }),
    txHash: text('tx_hash').notNull(),
    /** pending (not seen on chain yet), matched or rejected. */
    state: text('state').notNull().default('pending'),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('route_intent_receipts_intent_tx_idx').on(table.intentId, table.txHash),
    index('route_intent_receipts_state_idx').on(table.state, table.createdAt),
  ],
)

/**
 * The local relayer's view of every PayRouter `Deposited` event: one row per deposit, written
 * before anything is sent, so a restart never forgets a deposit; `filling` is written before a
 * fill is broadcast, so a restart checks the chain (`filled(orderKey)`) instead of filling twice.
 */
export const relayerDeposits = pgTable(
  'relayer_deposits',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    sourceChainId: integer('source_chain_id').notNull(),
    intentId: text('intent_id').notNull(),
    /** PayRouter's key of the order (keccak256 of its ABI encoding): escrow, fill and settle name it. */
    orderKey: text('order_key').notNull(),
    payer: text('payer').notNull(),
    escrowToken: text('escrow_token').notNull(),
    escrowAmount: text('escrow_amount').notNull(),
    destinationChainId: integer('destination_chain_id').notNull(),
    destinationToken: text('destination_token').notNull(),
    minAmountOut: text('min_amount_out').notNull(),
    receiver: text('receiver').notNull(),
    /** Unix seconds, as on chain. */
    fillDeadline: bigint('fill_deadline', { mode: 'number' }).notNull(),
    depositTxHash: text('deposit_tx_hash').notNull(),
    depositBlock: bigint('deposit_block', { mode: 'number' }).notNull(),
    depositBlockHash: text('deposit_block_hash'),
    /** Destination block a fill of this deposit cannot precede: fill log queries start here. */
    destinationFromBlock: bigint('destination_from_block', { mode: 'number' }),
    /**
     * pending, filling, filled, settled, refund_pending, refunded, failed, ignored (matches no
     * stored route intent: the payer may refund it after the window) or orphaned (reorged out).
     */
    state: text('state').notNull().default('pending'),
    fillTxHash: text('fill_tx_hash'),
    filledAmount: text('filled_amount'),
    settleTxHash: text('settle_tx_hash'),
    refundTxHash: text('refund_tx_hash'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    filledAt: timestamp('filled_at', { withTimezone: true }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('relayer_deposits_source_order_idx').on(table.sourceChainId, table.orderKey),
    index('relayer_deposits_intent_idx').on(table.intentId),
    // One fill per route intent, whatever deposits copy its id.
    uniqueIndex('relayer_deposits_one_fill_per_intent_idx')
      .on(table.intentId)
      .where(sql`state IN ('filling', 'filled', 'settled')`),
    index('relayer_deposits_state_next_idx').on(table.state, table.nextAttemptAt),
  ],
)

/** The last block of each chain whose PayRouter logs the relayer has stored. */
export const relayerCursors = pgTable('relayer_cursors', {
  chainId: integer('chain_id').primaryKey(),
  lastBlock: bigint('last_block', { mode: 'number' }).notNull(),
  /** Hash of lastBlock when it was read: a different hash later means a reorg, so the scan steps back. */
  lastBlockHash: text('last_block_hash'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * Gas the sponsor service granted (pm_getPaymasterData, docs/api.md#paymaster) per user, policy
 * and UTC day: the sum of the granted operations' maximum costs in wei, which the policy's daily
 * cap bounds. One row per day, raised by one upsert whose condition is the cap
 * (grantSponsoredGas), so two racing requests cannot both pass it.
 */
export const sponsorGasGrants = pgTable(
  'sponsor_gas_grants',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    policyId: text('policy_id').notNull(),
    /** The UTC day (YYYY-MM-DD) the grants count against. */
    day: date('day', { mode: 'string' }).notNull(),
    /** Wei granted that day: the sum of each operation's gas limits times its maxFeePerGas. */
    grantedWei: numeric('granted_wei', { precision: 78, scale: 0 }).notNull(),
    /** How many operations were granted that day. */
    grants: integer('grants').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.policyId, table.day] })],
)

/**
 * Gas the sponsor service granted under a policy on a UTC day, all users together
 * (docs/api.md#sponsor-policies): what the policy's `globalDailyGasCapWei` counts, so many users
 * (each within their own cap) cannot together drain the paymaster's deposit. One row per policy and
 * day, grown by a conditional upsert in the same transaction as the user's row.
 */
export const sponsorGasPolicyGrants = pgTable(
  'sponsor_gas_policy_grants',
  {
    policyId: text('policy_id').notNull(),
    /** The UTC day (YYYY-MM-DD) the grants count against. */
    day: date('day', { mode: 'string' }).notNull(),
    /** Wei granted that day under the policy: the sum of the operations' maximum costs. */
    grantedWei: numeric('granted_wei', { precision: 78, scale: 0 }).notNull(),
    /** How many operations were granted that day under the policy. */
    grants: integer('grants').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.policyId, table.day] })],
)

/**
 * Solana fees the sponsor paid for a user under a policy on a UTC day (docs/api.md#solana): what the
 * policy's daily cap counts, one row per user, policy and day, grown by a conditional upsert.
 */
export const solanaFeeGrants = pgTable(
  'solana_fee_grants',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    policyId: text('policy_id').notNull(),
    /** The UTC day (YYYY-MM-DD) the grants count against. */
    day: date('day', { mode: 'string' }).notNull(),
    /** Lamports of fees granted that day: each transaction's signature fees plus its priority fee. */
    grantedLamports: numeric('granted_lamports', { precision: 20, scale: 0 }).notNull(),
    /** How many transactions were granted that day. */
    grants: integer('grants').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.policyId, table.day] })],
)

/**
 * Solana fees the sponsor paid under a policy on a UTC day for all users together: what the policy's
 * global daily cap (`globalDailyFeeCapLamports`) counts, beside each user's row in
 * `solana_fee_grants`. One row per policy and day, grown in the same transaction as the user's row by
 * a conditional upsert, so several instances racing at the cap cannot together pass it.
 */
export const solanaFeePolicyGrants = pgTable(
  'solana_fee_policy_grants',
  {
    policyId: text('policy_id').notNull(),
    /** The UTC day (YYYY-MM-DD) the grants count against. */
    day: date('day', { mode: 'string' }).notNull(),
    /** Lamports of fees granted that day to every user together. */
    grantedLamports: numeric('granted_lamports', { precision: 20, scale: 0 }).notNull(),
    /** How many transactions were granted that day. */
    grants: integer('grants').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.policyId, table.day] })],
)

/**
 * Webhook endpoints (docs/api.md#webhooks). `secret` signs deliveries (`whsec_` + base64; the
 * server must hold it to sign, so it is stored as is and never answered except when made or
 * rotated); during a rotation's 24 h grace `previous_secret` signs too.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    events: jsonb('events').$type<string[]>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    /** The first failed delivery since the last success: 5 days of only failures disable it. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('webhook_endpoints_user_id_idx').on(table.userId)],
)

/**
 * The outbox: one row per event, written in the same transaction as the change it reports, with
 * the whole body it is delivered with (`{type, timestamp, data}`), so every retry sends the same
 * bytes under the same id.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    /** `msg_` + 22 base64url characters: the `webhook-id` of every delivery of it. */
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('webhook_events_user_id_created_at_idx').on(table.userId, table.createdAt),
    // The hourly prune reads the oldest events first (services/webhooks/prune-webhook-events.ts).
    index('webhook_events_created_at_idx').on(table.createdAt),
  ],
)

/**
 * One event to one endpoint. The delivery worker claims due rows (`next_attempt_at`) with
 * `FOR UPDATE SKIP LOCKED` and a lease (`locked_until`), so across instances each attempt is made
 * once; a crash mid-attempt leaves the lease to expire and the attempt is made again, same id.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** pending, succeeded or failed. */
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastLatencyMs: integer('last_latency_ms'),
    lastResponseExcerpt: text('last_response_excerpt'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('webhook_deliveries_event_endpoint_idx').on(table.eventId, table.endpointId),
    index('webhook_deliveries_due_idx').on(table.state, table.nextAttemptAt),
    index('webhook_deliveries_endpoint_created_idx').on(table.endpointId, table.createdAt),
  ],
)

/** Every attempt of a delivery, for the log (time, status, latency, excerpt, error). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms').notNull(),
    responseExcerpt: text('response_excerpt').notNull().default(''),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('webhook_attempts_delivery_attempt_idx').on(table.deliveryId, table.attempt)],
)

export type User = typeof users.$inferSelect
export type Link = typeof links.$inferSelect
export type Session = typeof sessions.$inferSelect
export type ApiKeyRow = typeof apiKeys.$inferSelect
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect
export type RouteIntent = typeof routeIntents.$inferSelect
export type Invoice = typeof invoices.$inferSelect
export type InvoicePayment = typeof invoicePayments.$inferSelect
export type InvoiceTransition = typeof invoiceTransitions.$inferSelect
export type RelayerDeposit = typeof relayerDeposits.$inferSelect
export type RouteIntentReceipt = typeof routeIntentReceipts.$inferSelect
export type ReceiptEmail = typeof receiptEmails.$inferSelect
export type PaymentDigestRow = typeof paymentDigests.$inferSelect

/**
 * Deposit addresses (docs/api.md#deposits, docs/decisions/0030): a CREATE2 forwarder address, the
 * same on every chain, committed to the link's receiver, chain and token, the refund address and
 * the expiry. `terms` is what the address was computed from (DepositTerms.sol), so the watcher can
 * deploy exactly that forwarder. `amount` is in the link token's smallest units, when there is one.
 */
export const deposits = pgTable(
  'deposits',
  {
    id: uuid('id').primaryKey(),
    linkId: uuid('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    invoiceId: text('invoice_id').references(() => invoices.id, { onDelete: 'cascade' }),
    /** Lower-case forwarder address. */
    address: text('address').notNull(),
    refundAddress: text('refund_address'),
    amountUnits: numeric('amount_units', { precision: 78, scale: 0 }),
    terms: jsonb('terms').$type<StoredDepositTerms>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('deposits_address_idx').on(table.address),
    index('deposits_expires_at_idx').on(table.expiresAt),
  ],
)

/** DepositTerms as stored: numbers as decimal strings, addresses checksummed. */
export type StoredDepositTerms = {
  depositId: `0x${string}`
  payRouter: `0x${string}`
  receiver: `0x${string}`
  destinationChainId: string
  destinationToken: `0x${string}`
  refundAddress: `0x${string}`
  expiresAt: string
}

/**
 * One transfer into a deposit address, as the watcher saw it (an ERC-20 Transfer log, or a rise of
 * the native balance), and what became of it: detected → routing (the route intent and the signed
 * forward are stored before it is broadcast, so a restart follows that transaction instead of
 * sending another) → routed; or refunding → refunded; failed keeps the last error. `source_key`
 * names the transfer once: chain, transaction and log index, or the native balance it brought.
 */
export const depositTransfers = pgTable(
  'deposit_transfers',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    depositId: uuid('deposit_id')
      .notNull()
      .references(() => deposits.id, { onDelete: 'cascade' }),
    chainId: integer('chain_id').notNull(),
    sourceKey: text('source_key').notNull(),
    /** Lower-case token address; the all-e placeholder for native. */
    token: text('token').notNull(),
    amount: numeric('amount', { precision: 78, scale: 0 }).notNull(),
    /** Where it came from, when the chain says (the refund goes there without a refund address). */
    sender: text('sender'),
    txHash: text('tx_hash'),
    /** The block the transfer was seen in (a reorg that drops it leaves the receipt without it). */
    blockNumber: bigint('block_number', { mode: 'number' }),
    blockHash: text('block_hash'),
    /**
     * Where a refund to the sender goes instead, named by the sender with a signed message on the
     * status page (deposits without a refund address in their terms only).
     */
    refundTo: text('refund_to'),
    /** The expiry of the message that named refundTo: an older message cannot name another again. */
    refundToSignedUntil: timestamp('refund_to_signed_until', { withTimezone: true }),
    state: text('state').$type<DepositTransferState>().notNull().default('detected'),
    intentId: text('intent_id'),
    /** The forward or refund transaction (signed before it was broadcast). */
    actionTxHash: text('action_tx_hash'),
    actionRawTx: text('action_raw_tx'),
    /** Gas the operator paid for that transaction, in wei of the chain's native currency. */
    gasCostWei: numeric('gas_cost_wei', { precision: 78, scale: 0 }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('deposit_transfers_source_idx').on(table.chainId, table.sourceKey),
    index('deposit_transfers_deposit_idx').on(table.depositId),
    index('deposit_transfers_state_next_idx').on(table.state, table.nextAttemptAt),
  ],
)

/** dropped: the transfer left the chain in a reorg before it was routed (docs/decisions/0032). */
export type DepositTransferState =
  | 'detected'
  | 'routing'
  | 'routed'
  | 'refunding'
  | 'refunded'
  | 'failed'
  | 'dropped'
export type Deposit = typeof deposits.$inferSelect
export type DepositTransfer = typeof depositTransfers.$inferSelect

/** The last block of each chain whose Transfer logs and native balances the deposit watcher has read. */
export const depositCursors = pgTable('deposit_cursors', {
  chainId: integer('chain_id').primaryKey(),
  lastBlock: bigint('last_block', { mode: 'number' }).notNull(),
  /** Hash of lastBlock when it was read: another hash later means a reorg, so the scan steps back. */
  lastBlockHash: text('last_block_hash'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * x402 settlements our facilitator sends (docs/decisions/0031): one EIP-3009
 * `transferWithAuthorization` per row, unique on the authorization (network, asset, payer, nonce),
 * so a concurrent duplicate cannot be sent twice. queued (the call, waiting for the relayer key's
 * writer) → signing (claimed by the writer) → signed (hash and bytes written down before the
 * broadcast, so a restart sends the same bytes again) → sent (the node took it); failed keeps the
 * reason and frees the authorization for another try.
 */
export const x402Settlements = pgTable(
  'x402_settlements',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    /** CAIP-2, `eip155:<chain id>`. */
    network: text('network').notNull(),
    chainId: integer('chain_id').notNull(),
    /** Lower-case token address (the call's `to`). */
    asset: text('asset').notNull(),
    /** Lower-case authorization `from`. */
    payer: text('payer').notNull(),
    /** The authorization's 32-byte nonce, lower-case hex. */
    nonce: text('nonce').notNull(),
    /** The call's data (`transferWithAuthorization`, encoded). */
    data: text('data').notNull(),
    state: text('state').$type<X402SettlementState>().notNull().default('queued'),
    txHash: text('tx_hash'),
    rawTx: text('raw_tx'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('x402_settlements_authorization_idx')
      .on(table.network, table.asset, table.payer, table.nonce)
      .where(sql`${table.state} <> 'failed'`),
    index('x402_settlements_chain_state_idx').on(table.chainId, table.state),
  ],
)

export type X402SettlementState = 'queued' | 'signing' | 'signed' | 'sent' | 'failed'
export type X402Settlement = typeof x402Settlements.$inferSelect

/**
 * What a 402 of an x402 resource offered (docs/decisions/0031): its `accepts` (one `exact`
 * requirement per chain, as sent) for a link, an invoice and an amount in the link's token, and the
 * deposit address the cross-chain requirements pay into. A paid request is matched against the
 * unexpired offers of its resource, so a quote that moved since still matches what the payer
 * signed; a 402 answers a stored offer again while it outlives the authorization's time-out.
 */
export const x402Offers = pgTable(
  'x402_offers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    linkId: uuid('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    invoiceId: text('invoice_id').references(() => invoices.id, { onDelete: 'cascade' }),
    /** What the receiver gets on the link's chain, in the link's token's units. */
    amountUnits: numeric('amount_units', { precision: 78, scale: 0 }).notNull(),
    /** `PaymentRequirements[]` as the 402 sent them. */
    requirements: jsonb('requirements').$type<PaymentRequirements[]>().notNull(),
    /** The 402's `extensions` (signed offers, payment-identifier's declaration). */
    extensions: jsonb('extensions').$type<Record<string, unknown>>().notNull(),
    depositId: uuid('deposit_id').references(() => deposits.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('x402_offers_link_idx').on(table.linkId, table.expiresAt)],
)

export type X402Offer = typeof x402Offers.$inferSelect

/**
 * x402's payment-identifier extension (docs/decisions/0031): a client's id for one payment, the
 * SHA-256 of the payload first sent with it, and the answer once there is one. The row is claimed
 * before settling, so a concurrent duplicate waits for the answer instead of settling again.
 */
export const x402PaymentIds = pgTable('x402_payment_ids', {
  id: text('id').primaryKey(),
  payloadHash: text('payload_hash').notNull(),
  /** Null while the first request settles. */
  answer: jsonb('answer').$type<X402StoredAnswer>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/** A paid request's answer as it was sent: status, PAYMENT-RESPONSE header and JSON body. */
export type X402StoredAnswer = { status: number; paymentResponse: string; body: unknown }
