import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, lt, or, sql } from 'drizzle-orm'
import type { Hex } from 'viem'
import { type X402Settlement, x402Settlements } from '../../../db/schema.ts'

// The one module that writes x402_settlements (docs/decisions/0031): a facilitator request queues
// a settlement, the relayer key's writer claims it, signs it, writes hash and bytes down, and
// sends it; a failure frees the authorization.

/** What identifies one EIP-3009 authorization, and the call that spends it. */
export type QueuedX402Settlement = {
  network: string
  chainId: number
  asset: `0x${string}`
  payer: `0x${string}`
  nonce: Hex
  data: Hex
}

/**
 * A claim on a row in `signing` older than this is from a writer that died while signing (it never
 * sent those bytes): the next writer's round queues it again.
 */
export const x402SigningLeaseMs = 120_000

/**
 * A row `signed` this long ago and not `sent` is one whose writer may have died before the
 * broadcast: the writer's round looks it up on chain and sends the same bytes again. Longer than a
 * request's own sign-and-send, so a live request's broadcast is not doubled.
 */
export const x402UnsentGraceMs = 10_000

/**
 * Queues a settlement, unless one of this authorization is queued, in flight or sent: answers the
 * new row, or undefined for a duplicate. Throws on database errors.
 */
export async function queueX402Settlement(
  db: Database,
  settlement: QueuedX402Settlement,
): Promise<X402Settlement | undefined> {
  const [row] = await db
    .insert(x402Settlements)
    .values({
      ...settlement,
      asset: settlement.asset.toLowerCase(),
      payer: settlement.payer.toLowerCase(),
      nonce: settlement.nonce.toLowerCase(),
    })
    // No target: the authorization's unique index is partial (failed rows leave it).
    .onConflictDoNothing()
    .returning()
  return row
}

/** Takes a queued row for signing (one taker wins); answers it, or undefined when taken or gone. */
export async function claimX402Settlement(
  db: Database,
  id: string,
  nowMs: number,
): Promise<X402Settlement | undefined> {
  const [row] = await db
    .update(x402Settlements)
    .set({ state: 'signing', updatedAt: new Date(nowMs) })
    .where(and(eq(x402Settlements.id, id), eq(x402Settlements.state, 'queued')))
    .returning()
  return row
}

/** Writes the signed transaction down (before it is broadcast). */
export async function recordX402Signed(
  db: Database,
  id: string,
  signed: { hash: Hex; serialized: Hex },
  nowMs: number,
): Promise<void> {
  await db
    .update(x402Settlements)
    .set({ state: 'signed', txHash: signed.hash, rawTx: signed.serialized, updatedAt: new Date(nowMs) })
    .where(eq(x402Settlements.id, id))
}

/** Moves a row on: `sent` once the node took it, `failed` with the reason, or back to `queued`. */
export async function setX402SettlementState(
  db: Database,
  id: string,
  state: 'sent' | 'failed' | 'queued',
  nowMs: number,
  lastError: string | null = null,
): Promise<void> {
  await db
    .update(x402Settlements)
    .set({ state, lastError, updatedAt: new Date(nowMs) })
    .where(eq(x402Settlements.id, id))
}

/** Records a send error on a signed row without moving it (the next round tries again). */
export async function noteX402SettlementError(db: Database, id: string, lastError: string, nowMs: number) {
  await db
    .update(x402Settlements)
    .set({ lastError, updatedAt: new Date(nowMs) })
    .where(eq(x402Settlements.id, id))
}

/** Withdraws a row nobody has claimed yet (a request that stops waiting); answers whether it did. */
export async function withdrawQueuedX402Settlement(db: Database, id: string): Promise<boolean> {
  const removed = await db
    .delete(x402Settlements)
    .where(and(eq(x402Settlements.id, id), eq(x402Settlements.state, 'queued')))
    .returning({ id: x402Settlements.id })
  return removed.length > 0
}

/** One row as it is now, or undefined when it was withdrawn. */
export async function readX402Settlement(db: Database, id: string): Promise<X402Settlement | undefined> {
  const [row] = await db.select().from(x402Settlements).where(eq(x402Settlements.id, id))
  return row
}

/**
 * A chain's rows the writer's round must act on, oldest first: queued ones (sign and send),
 * `signing` ones whose claim ran out (queue again), and `signed` ones not known to be sent after
 * the grace (send the same bytes again).
 */
export async function listDueX402Settlements(
  db: Database,
  chainId: number,
  nowMs: number,
  limit: number,
): Promise<X402Settlement[]> {
  return db
    .select()
    .from(x402Settlements)
    .where(
      and(
        eq(x402Settlements.chainId, chainId),
        or(
          eq(x402Settlements.state, 'queued'),
          and(
            eq(x402Settlements.state, 'signing'),
            lt(x402Settlements.updatedAt, new Date(nowMs - x402SigningLeaseMs)),
          ),
          and(
            eq(x402Settlements.state, 'signed'),
            lt(x402Settlements.updatedAt, new Date(nowMs - x402UnsentGraceMs)),
          ),
        ),
      ),
    )
    .orderBy(sql`${x402Settlements.createdAt} ASC`)
    .limit(limit)
}
