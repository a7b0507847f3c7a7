import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, inArray, ne, sql } from 'drizzle-orm'
import type { Hash } from 'viem'
import { type RelayerDeposit, relayerDeposits, routeIntents } from '../../../../../db/schema.ts'

// The one module that writes relayer_deposits: the scan stores what it finds, a round claims a due
// deposit, and each state step writes the deposit's next row.

/**
 * How long a claimed deposit stays with its worker before another round may take it again. The
 * worker renews it (a heartbeat) before every wait that may be long, so it only runs out when the
 * worker is gone.
 */
export const depositLeaseMs = 90_000

/** Columns of a deposit a write may change. */
export type RelayerDepositPatch = Partial<typeof relayerDeposits.$inferInsert>

/** A deposit as one scan read it from a `Deposited` event. */
export type ScannedDeposit = typeof relayerDeposits.$inferInsert

/** Writes a patch to a deposit; answers the next row. Throws on database errors (a unique violation too). */
export async function updateRelayerDeposit(
  db: Database,
  deposit: RelayerDeposit,
  patch: RelayerDepositPatch,
  nowMs: number,
): Promise<RelayerDeposit> {
  const updatedAt = new Date(nowMs)
  await db
    .update(relayerDeposits)
    .set({ ...patch, updatedAt })
    .where(eq(relayerDeposits.id, deposit.id))
  return { ...deposit, ...patch, updatedAt } as RelayerDeposit
}

/**
 * Stores scanned deposits keyed by (source chain, order key): a deposit seen again in another
 * block (a reorg re-mined it) gets its new block, an orphaned row becoming pending again. Answers
 * how many rows were stored or changed.
 */
export async function storeScannedDeposits(
  db: Database,
  rows: ScannedDeposit[],
  nowMs: number,
): Promise<number> {
  if (rows.length === 0) return 0
  const changed = await db
    .insert(relayerDeposits)
    .values(rows)
    .onConflictDoUpdate({
      target: [relayerDeposits.sourceChainId, relayerDeposits.orderKey],
      set: {
        depositTxHash: sql`excluded.deposit_tx_hash`,
        depositBlock: sql`excluded.deposit_block`,
        depositBlockHash: sql`excluded.deposit_block_hash`,
        state: sql`CASE WHEN relayer_deposits.state = 'orphaned' THEN 'pending' ELSE relayer_deposits.state END`,
        lastError: sql`CASE WHEN relayer_deposits.state = 'orphaned' THEN NULL ELSE relayer_deposits.last_error END`,
        nextAttemptAt: sql`CASE WHEN relayer_deposits.state = 'orphaned' THEN ${new Date(nowMs).toISOString()}::timestamptz ELSE relayer_deposits.next_attempt_at END`,
        updatedAt: new Date(nowMs),
      },
      setWhere: sql`relayer_deposits.deposit_block_hash IS DISTINCT FROM excluded.deposit_block_hash`,
    })
    .returning({ id: relayerDeposits.id })
  return changed.length
}

/**
 * Takes the most overdue deposit from one source chain that still needs work, other than those
 * this round has already taken, and leases it for `depositLeaseMs` (next_attempt_at moves ahead),
 * in one statement with `FOR UPDATE SKIP LOCKED`; answers it with its route intent's request id.
 */
export async function claimDueDeposit(
  db: Database,
  sourceChainId: number,
  nowMs: number,
  taken: readonly string[],
): Promise<{ deposit: RelayerDeposit; requestId: string | null } | undefined> {
  const now = new Date(nowMs)
  const leaseEnd = new Date(nowMs + depositLeaseMs)
  const notTaken =
    taken.length === 0
      ? sql``
      : sql`AND id NOT IN (${sql.join(
          taken.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`
  const result = await db.execute<{ id: string }>(sql`
    UPDATE ${relayerDeposits} SET next_attempt_at = ${leaseEnd.toISOString()}, updated_at = ${now.toISOString()}
    WHERE id = (
      SELECT id FROM ${relayerDeposits}
      WHERE source_chain_id = ${sourceChainId}
        AND state IN ('pending', 'filling', 'filled', 'refund_pending')
        AND next_attempt_at <= ${now.toISOString()}
        ${notTaken}
      ORDER BY next_attempt_at
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`)
  const id = result.rows[0]?.id
  if (!id) return undefined
  const [row] = await db
    .select({ deposit: relayerDeposits, requestId: routeIntents.requestId })
    .from(relayerDeposits)
    .leftJoin(routeIntents, eq(routeIntents.id, relayerDeposits.intentId))
    .where(eq(relayerDeposits.id, id))
  return row
}

/** The order key of another deposit of the same intent that is being filled or was, if any. */
export async function findOtherFilledDeposit(
  db: Database,
  deposit: Pick<RelayerDeposit, 'id' | 'intentId'>,
): Promise<string | undefined> {
  const [other] = await db
    .select({ orderKey: relayerDeposits.orderKey })
    .from(relayerDeposits)
    .where(
      and(
        eq(relayerDeposits.intentId, deposit.intentId),
        ne(relayerDeposits.id, deposit.id),
        inArray(relayerDeposits.state, ['filling', 'filled', 'settled']),
      ),
    )
    .limit(1)
  return other?.orderKey
}

/** The fill transaction the relayer recorded for an order, null when none (the tracker's hint). */
export async function readRelayerFillTxHash(
  db: Database,
  sourceChainId: number,
  orderKey: Hash,
): Promise<Hash | null> {
  const [row] = await db
    .select({ fillTxHash: relayerDeposits.fillTxHash })
    .from(relayerDeposits)
    .where(and(eq(relayerDeposits.sourceChainId, sourceChainId), eq(relayerDeposits.orderKey, orderKey)))
    .limit(1)
  return (row?.fillTxHash ?? null) as Hash | null
}
