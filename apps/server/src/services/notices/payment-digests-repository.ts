import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { sql } from 'drizzle-orm'

// The payment digest outbox (payment_digests, docs/api.md#notices) and the reads a digest is made
// of. Only this module touches the table.

/** A claimed digest is left alone by other senders (and instances) this long. */
export const digestLeaseMs = 5 * 60_000
/** Users one round starts digests for, at most; the next round takes the rest. */
const usersPerRound = 50
/** Payment lines one digest lists, at most; the count and totals cover every payment. */
export const maxDigestLines = 100

/** One verified payment of the day, as a digest line shows it. */
export type DigestPayment = {
  intentId: string
  finalAt: Date
  toChainId: number
  toToken: string
  amountUnits: bigint
  payer: string
  linkAlias: string
}

/** What the day's payments into one token came to. */
export type DigestTotal = { toChainId: number; toToken: string; amountUnits: bigint; payments: number }

/** The UTC day (YYYY-MM-DD) holding epoch ms `ms`. */
export function toUtcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

/** The first instant of the UTC day `day` and of the day after it. */
function dayBounds(day: string): { start: string; end: string } {
  const start = Date.parse(`${day}T00:00:00.000Z`)
  return { start: new Date(start).toISOString(), end: new Date(start + 24 * 60 * 60_000).toISOString() }
}

/** Users with the daily digest on who have no digest row for `day` yet (the round's new work). */
export async function listDigestCandidates(db: Database, day: string): Promise<string[]> {
  const result = await db.execute<{ id: string }>(sql`
    SELECT u.id FROM users u
    WHERE u.payment_digest = 'daily'
      AND NOT EXISTS (SELECT 1 FROM payment_digests d WHERE d.user_id = u.id AND d.day = ${day})
    ORDER BY u.id
    LIMIT ${usersPerRound}`)
  return result.rows.map((row) => row.id)
}

/**
 * Claims the digest of `userId` for `day` by writing its row (`sending`, leased): the primary key
 * lets one insert win, so of two instances racing only one sends. Resolves whether this one won.
 */
export async function claimDigest(
  db: Database,
  input: { userId: string; day: string; nowMs: number },
): Promise<boolean> {
  const result = await db.execute<{ user_id: string }>(sql`
    INSERT INTO payment_digests (user_id, day, state, attempts, locked_until, next_attempt_at, created_at)
    VALUES (${input.userId}, ${input.day}, 'sending', 1, ${new Date(input.nowMs + digestLeaseMs).toISOString()},
      ${new Date(input.nowMs).toISOString()}, ${new Date(input.nowMs).toISOString()})
    ON CONFLICT (user_id, day) DO NOTHING
    RETURNING user_id`)
  return result.rows.length > 0
}

/**
 * Leases the digests due again (pending and due, or `sending` whose sender's lease ran out after a
 * crash) in one statement with `FOR UPDATE SKIP LOCKED`, so two senders never take the same one.
 */
export async function claimDueDigests(
  db: Database,
  nowMs: number,
): Promise<{ userId: string; day: string; attempts: number }[]> {
  const now = new Date(nowMs).toISOString()
  const result = await db.execute<{ user_id: string; day: string; attempts: number }>(sql`
    UPDATE payment_digests SET state = 'sending', attempts = attempts + 1,
      locked_until = ${new Date(nowMs + digestLeaseMs).toISOString()}
    WHERE (user_id, day) IN (
      SELECT user_id, day FROM payment_digests
      WHERE (state = 'pending' AND next_attempt_at <= ${now})
         OR (state = 'sending' AND locked_until < ${now})
      ORDER BY next_attempt_at
      LIMIT ${usersPerRound}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING user_id, day::text AS day, attempts`)
  return result.rows.map((row) => ({ userId: row.user_id, day: row.day, attempts: Number(row.attempts) }))
}

/**
 * The verified payments into `userId`'s links that became final on the UTC day `day`: the first
 * `maxDigestLines` in time order, and the count and totals per token of all of them.
 */
export async function listDayPayments(
  db: Database,
  input: { userId: string; day: string },
): Promise<{ lines: DigestPayment[]; totals: DigestTotal[]; count: number }> {
  const { start, end } = dayBounds(input.day)
  // The same rows the payment totals count (migration payments_history): final, verified credits.
  const where = sql`l.user_id = ${input.userId} AND ri.status = 'success'
    AND ri.final_at >= ${start} AND ri.final_at < ${end} AND ri.to_amount_wei ~ '^[0-9]{1,78}$'`
  const [lines, totals] = await Promise.all([
    db.execute<{
      id: string
      final_at: string | Date
      to_chain_id: number
      to_token: string
      to_amount_wei: string
      from_address: string
      alias: string
    }>(sql`
      SELECT ri.id, ri.final_at, ri.to_chain_id, ri.to_token, ri.to_amount_wei, ri.from_address, l.alias
      FROM route_intents ri JOIN links l ON l.id = ri.link_id
      WHERE ${where}
      ORDER BY ri.final_at, ri.id
      LIMIT ${maxDigestLines}`),
    db.execute<{ to_chain_id: number; to_token: string; amount: string; payments: number }>(sql`
      SELECT ri.to_chain_id, ri.to_token, sum(ri.to_amount_wei::numeric)::text AS amount,
        count(*)::int AS payments
      FROM route_intents ri JOIN links l ON l.id = ri.link_id
      WHERE ${where}
      GROUP BY ri.to_chain_id, ri.to_token
      ORDER BY ri.to_chain_id, ri.to_token`),
  ])
  const parsedTotals = totals.rows.map((row) => ({
    toChainId: Number(row.to_chain_id),
    toToken: row.to_token,
    amountUnits: BigInt(row.amount),
    payments: Number(row.payments),
  }))
  return {
    lines: lines.rows.map((row) => ({
      intentId: row.id,
      finalAt: new Date(row.final_at),
      toChainId: Number(row.to_chain_id),
      toToken: row.to_token,
      amountUnits: BigInt(row.to_amount_wei),
      payer: row.from_address,
      linkAlias: row.alias,
    })),
    totals: parsedTotals,
    count: parsedTotals.reduce((sum, total) => sum + total.payments, 0),
  }
}

/** The digest's user as of now: their wallet address, stored e-mail and whether they still opt in. */
export async function findDigestUser(
  db: Database,
  userId: string,
): Promise<{ address: string; email: string | null; isOptedIn: boolean } | undefined> {
  const result = await db.execute<{ address: string; email: string | null; payment_digest: string }>(sql`
    SELECT address, email, payment_digest FROM users WHERE id = ${userId}`)
  const row = result.rows[0]
  return row === undefined
    ? undefined
    : { address: row.address, email: row.email, isOptedIn: row.payment_digest === 'daily' }
}

/** Marks a claimed digest's outcome: sent, back to pending at `nextAttemptMs`, or given up / skipped. */
export async function settleDigest(
  db: Database,
  key: { userId: string; day: string },
  outcome:
    | { state: 'sent'; nowMs: number; payments: number }
    | { state: 'pending'; nextAttemptMs: number; error: string }
    | { state: 'failed' | 'skipped'; error: string; payments?: number },
): Promise<void> {
  const set =
    outcome.state === 'sent'
      ? sql`state = 'sent', sent_at = ${new Date(outcome.nowMs).toISOString()}, payments = ${outcome.payments},
          locked_until = NULL`
      : outcome.state === 'pending'
        ? sql`state = 'pending', next_attempt_at = ${new Date(outcome.nextAttemptMs).toISOString()},
            last_error = ${outcome.error}, locked_until = NULL`
        : sql`state = ${outcome.state}, last_error = ${outcome.error}, payments = ${outcome.payments ?? 0},
            locked_until = NULL`
  await db.execute(sql`UPDATE payment_digests SET ${set} WHERE user_id = ${key.userId} AND day = ${key.day}`)
}
