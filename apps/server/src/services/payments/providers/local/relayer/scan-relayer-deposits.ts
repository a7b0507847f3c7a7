import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { eq, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { PublicClient } from 'viem'
import { relayerCursors } from '../../../../../db/schema.ts'
import { listBlockRanges } from '../../../../chains/list-block-ranges.ts'
import { getPayRouterEvents } from '../payrouter/get-pay-router-events.ts'
import { getPayRouterOrderKey } from '../payrouter/get-pay-router-order-key.ts'
import { storeScannedDeposits } from './relayer-deposits-repository.ts'
import { readRelayerOrderFields } from './relayer-order.ts'

/**
 * How far back a chain without a cursor is read: a fresh database has no route intents from
 * before it existed, and a deposit without one is only ever ignored.
 */
const initialLookbackBlocks = 2000n
/** How far the cursor steps back when its block was reorged away or the chain is behind it. */
const stepBackBlocks = 128n

export type ScanRelayerDepositsOptions = {
  db: Database
  client: PublicClient
  chainId: number
  payRouter: `0x${string}`
  /** The chain's confirmation depth: the cursor steps back at least four times as far on a reorg. */
  confirmations: number
  logger: FastifyBaseLogger
  /** Epoch ms. */
  now?: () => number
}

export type ScanRelayerDepositsResult = {
  /** Deposits stored for the first time, or found again in another block (re-mined after a reorg). */
  stored: number
  /** Blocks read (0: the cursor was at the head already, nothing new to read). */
  blocks: number
  /** Why the scan started before the cursor, if it did. */
  steppedBack?: 'reorg' | 'chain behind cursor'
}

/**
 * Stores every PayRouter `Deposited` event of one chain since the chain's cursor, then moves the
 * cursor (block number and hash) in ranges of at most `maxLogBlockRange` blocks. Inserts are
 * keyed by (source chain, order key): a crash between insert and cursor only repeats work, and a
 * deposit seen again in another block (a reorg re-mined it) gets its new block, an orphaned row
 * becoming pending again. When the cursor's block has another hash now (a reorg) or the chain's
 * head is behind it (a reset devnet), the scan steps back a bounded window, never to block 0.
 * Throws on RPC or database errors (the caller retries next round).
 */
export async function scanRelayerDeposits(
  options: ScanRelayerDepositsOptions,
): Promise<ScanRelayerDepositsResult> {
  const { db, client, chainId, payRouter } = options
  const now = options.now ?? Date.now
  // Never a cached head: a deposit mined a moment ago must be seen in this round.
  const head = await client.getBlockNumber({ cacheTime: 0 })
  const start = await getScanStart(options, head)
  let stored = 0
  let blocks = 0
  for (const [fromBlock, toBlock] of listBlockRanges(start.fromBlock, head)) {
    blocks += Number(toBlock - fromBlock) + 1
    const toHeader = await client.getBlock({ blockNumber: toBlock })
    const logs = await getPayRouterEvents({ client, payRouter, eventName: 'Deposited', fromBlock, toBlock })
    const rows = []
    for (const log of logs) {
      const fields = readRelayerOrderFields(log.args.order)
      const orderKey = getPayRouterOrderKey(log.args.order)
      if (orderKey !== log.args.orderKey.toLowerCase() || fields.sourceChainId !== chainId) {
        options.logger.error(
          { chainId, txHash: log.transactionHash, orderKey: log.args.orderKey },
          'Deposited event whose order does not hash to its key or names another chain; skipped',
        )
        continue
      }
      rows.push({
        ...fields,
        orderKey,
        depositTxHash: log.transactionHash,
        depositBlock: Number(log.blockNumber),
        depositBlockHash: log.blockHash,
      })
    }
    stored += await storeScannedDeposits(db, rows, now())
    // The range was read from one chain only if its last block is still the same block.
    const toHeaderAfter = await client.getBlock({ blockNumber: toBlock })
    if (toHeaderAfter.hash !== toHeader.hash) break
    await db
      .insert(relayerCursors)
      .values({ chainId, lastBlock: Number(toBlock), lastBlockHash: toHeader.hash })
      .onConflictDoUpdate({
        target: relayerCursors.chainId,
        set: { lastBlock: Number(toBlock), lastBlockHash: toHeader.hash, updatedAt: new Date(now()) },
      })
  }
  return start.steppedBack ? { stored, blocks, steppedBack: start.steppedBack } : { stored, blocks }
}

async function getScanStart(
  options: ScanRelayerDepositsOptions,
  head: bigint,
): Promise<{ fromBlock: bigint; steppedBack?: ScanRelayerDepositsResult['steppedBack'] }> {
  const [cursor] = await options.db
    .select()
    .from(relayerCursors)
    .where(eq(relayerCursors.chainId, options.chainId))
    .limit(1)
  const stepBack =
    stepBackBlocks > BigInt(options.confirmations) * 4n ? stepBackBlocks : BigInt(options.confirmations) * 4n
  const back = (from: bigint): bigint => (from > stepBack ? from - stepBack : 0n)
  if (!cursor) return { fromBlock: head >= initialLookbackBlocks ? head - initialLookbackBlocks + 1n : 0n }
  const lastBlock = BigInt(cursor.lastBlock)
  if (lastBlock > head) return { fromBlock: back(head), steppedBack: 'chain behind cursor' }
  if (cursor.lastBlockHash) {
    const block = await options.client.getBlock({ blockNumber: lastBlock })
    if (block.hash !== cursor.lastBlockHash) return { fromBlock: back(lastBlock), steppedBack: 'reorg' }
  }
  return { fromBlock: lastBlock + 1n }
}

/**
 * Moves a chain's scan cursor back to just before `block` (when it is past it), forgetting the
 * hash, so the next scan reads that block again: a deposit the relayer found reorged away may have
 * been mined again there or later.
 */
export async function stepRelayerCursorBack(db: Database, chainId: number, block: number): Promise<void> {
  const target = Math.max(0, block - 1)
  await db
    .update(relayerCursors)
    .set({
      lastBlock: sql`LEAST(${relayerCursors.lastBlock}, ${target})`,
      lastBlockHash: sql`CASE WHEN ${relayerCursors.lastBlock} > ${target} THEN NULL ELSE ${relayerCursors.lastBlockHash} END`,
      updatedAt: new Date(),
    })
    .where(eq(relayerCursors.chainId, chainId))
}
