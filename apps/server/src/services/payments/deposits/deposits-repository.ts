import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, asc, eq, gt, inArray, ne, sql } from 'drizzle-orm'
import {
  type Deposit,
  type DepositTransfer,
  depositCursors,
  deposits,
  depositTransfers,
  invoices,
} from '../../../db/schema.ts'

// The one module that reads and writes deposits, deposit_transfers and deposit_cursors.

/** How long a claimed transfer is left to its worker before another may take it. */
export const transferLeaseMs = 60_000

/** Columns of a deposit transfer a write may change. */
export type DepositTransferPatch = Partial<typeof depositTransfers.$inferInsert>

export async function insertDeposit(db: Database, values: typeof deposits.$inferInsert): Promise<Deposit> {
  const [row] = await db.insert(deposits).values(values).returning()
  if (!row) throw new Error('inserting a deposit returned no row')
  return row
}

/** A deposit by id; undefined for an unknown or malformed id. */
export async function readDeposit(db: Database, id: string): Promise<Deposit | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined
  const [row] = await db.select().from(deposits).where(eq(deposits.id, id.toLowerCase())).limit(1)
  return row
}

/** A deposit's transfers, oldest first. */
export async function listDepositTransfers(db: Database, depositId: string): Promise<DepositTransfer[]> {
  return db
    .select()
    .from(depositTransfers)
    .where(eq(depositTransfers.depositId, depositId))
    .orderBy(asc(depositTransfers.createdAt))
}

/** Deposits still watched at `sinceMs` (expired ones too, for a while: late transfers are refunded). */
export async function listWatchedDeposits(db: Database, sinceMs: number): Promise<Deposit[]> {
  return db
    .select()
    .from(deposits)
    .where(gt(deposits.expiresAt, new Date(sinceMs)))
}

/**
 * Stores transfers the watcher saw. One already stored (same chain and source key) keeps its state
 * but follows the block it is in now (a reorg mined it again elsewhere), and one that was dropped
 * in a reorg is detected again (docs/decisions/0032). Answers how many rows were new.
 */
export async function insertDepositTransfers(
  db: Database,
  rows: (typeof depositTransfers.$inferInsert)[],
): Promise<number> {
  if (rows.length === 0) return 0
  const changed = await db
    .insert(depositTransfers)
    .values(rows)
    .onConflictDoUpdate({
      target: [depositTransfers.chainId, depositTransfers.sourceKey],
      set: {
        blockNumber: sql`excluded.block_number`,
        blockHash: sql`excluded.block_hash`,
        state: sql`CASE WHEN ${depositTransfers.state} = 'dropped' THEN 'detected' ELSE ${depositTransfers.state} END`,
        nextAttemptAt: sql`CASE WHEN ${depositTransfers.state} = 'dropped' THEN excluded.next_attempt_at ELSE ${depositTransfers.nextAttemptAt} END`,
      },
    })
    .returning({ isNew: sql<boolean>`xmax = 0` })
  return changed.filter((row) => row.isNew).length
}

/** Where a chain's scan stopped: the last block read and its hash then. */
export type DepositCursor = { lastBlock: number; lastBlockHash: string | null }

/** The last block of a chain the watcher has read, undefined before its first scan. */
export async function readDepositCursor(db: Database, chainId: number): Promise<DepositCursor | undefined> {
  const [row] = await db.select().from(depositCursors).where(eq(depositCursors.chainId, chainId)).limit(1)
  return row ? { lastBlock: row.lastBlock, lastBlockHash: row.lastBlockHash } : undefined
}

export async function writeDepositCursor(
  db: Database,
  chainId: number,
  cursor: DepositCursor,
  nowMs: number,
): Promise<void> {
  const values = { ...cursor, updatedAt: new Date(nowMs) }
  await db
    .insert(depositCursors)
    .values({ chainId, ...values })
    .onConflictDoUpdate({ target: depositCursors.chainId, set: values })
}

/**
 * Moves a chain's cursor back to just before `block` (when it is past it), forgetting the hash, so
 * the next scan reads that block again: a transfer found gone may have been mined again there or later.
 */
export async function stepDepositCursorBack(db: Database, chainId: number, block: number): Promise<void> {
  const target = Math.max(0, block - 1)
  await db
    .update(depositCursors)
    .set({
      lastBlock: sql`LEAST(${depositCursors.lastBlock}, ${target})`,
      lastBlockHash: sql`CASE WHEN ${depositCursors.lastBlock} > ${target} THEN NULL ELSE ${depositCursors.lastBlockHash} END`,
      updatedAt: new Date(),
    })
    .where(eq(depositCursors.chainId, chainId))
}

/**
 * Takes the most overdue transfer on one chain that still needs work and leases it for
 * `transferLeaseMs`, in one statement with `FOR UPDATE SKIP LOCKED`, so two instances never work
 * on one transfer at once; a crashed worker's lease runs out and the next round takes it up.
 */
export async function claimDueTransfer(
  db: Database,
  chainId: number,
  nowMs: number,
  taken: readonly string[],
): Promise<DepositTransfer | undefined> {
  const now = new Date(nowMs).toISOString()
  const notTaken =
    taken.length === 0
      ? sql``
      : sql`AND id NOT IN (${sql.join(
          taken.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`
  const result = await db.execute<{ id: string }>(sql`
    UPDATE ${depositTransfers} SET next_attempt_at = ${new Date(nowMs + transferLeaseMs).toISOString()}, updated_at = ${now}
    WHERE id = (
      SELECT id FROM ${depositTransfers}
      WHERE chain_id = ${chainId}
        AND state IN ('detected', 'routing', 'refunding')
        AND next_attempt_at <= ${now}
        ${notTaken}
      ORDER BY next_attempt_at
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`)
  const id = result.rows[0]?.id
  if (!id) return undefined
  const [row] = await db.select().from(depositTransfers).where(eq(depositTransfers.id, id))
  return row
}

/** Writes a patch to a transfer; answers the next row. */
export async function updateDepositTransfer(
  db: Database,
  transfer: DepositTransfer,
  patch: DepositTransferPatch,
  nowMs: number,
): Promise<DepositTransfer> {
  const [row] = await db
    .update(depositTransfers)
    .set({ ...patch, updatedAt: new Date(nowMs) })
    .where(eq(depositTransfers.id, transfer.id))
    .returning()
  return row ?? transfer
}

/** Deposits by id (the ones transfers belong to). */
export async function readDepositsById(db: Database, ids: readonly string[]): Promise<Deposit[]> {
  if (ids.length === 0) return []
  return db
    .select()
    .from(deposits)
    .where(inArray(deposits.id, [...ids]))
}

/** What an invoice still wants, in its token's smallest units, for a deposit's amount; undefined when unknown. */
export async function readInvoiceDue(
  db: Database,
  invoiceId: string,
): Promise<{ dueUnits: bigint; monitorUntil: Date; linkId: string } | undefined> {
  // Read here rather than through the invoice services, which depend on the payments folder (no cycles).
  const [invoice] = await db
    .select({
      amountUnits: invoices.amountUnits,
      amountPaidUnits: invoices.amountPaidUnits,
      monitorUntil: invoices.monitorUntil,
      linkId: invoices.linkId,
    })
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId)))
    .limit(1)
  if (!invoice) return undefined
  return {
    dueUnits: BigInt(invoice.amountUnits) - BigInt(invoice.amountPaidUnits),
    monitorUntil: invoice.monitorUntil,
    linkId: invoice.linkId,
  }
}

/**
 * The deposit's other transfers of one token on one chain that wait to be routed (state detected):
 * a fixed-amount deposit's transfers add up to its amount (docs/decisions/0032).
 */
export async function listWaitingTransfers(
  db: Database,
  transfer: DepositTransfer,
): Promise<DepositTransfer[]> {
  return db
    .select()
    .from(depositTransfers)
    .where(
      and(
        eq(depositTransfers.depositId, transfer.depositId),
        eq(depositTransfers.chainId, transfer.chainId),
        eq(depositTransfers.token, transfer.token),
        eq(depositTransfers.state, 'detected'),
        ne(depositTransfers.id, transfer.id),
      ),
    )
    .orderBy(asc(depositTransfers.createdAt))
}
