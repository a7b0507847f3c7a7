import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import { eq } from 'drizzle-orm'
import type { PublicClient } from 'viem'
import type { Database } from '../../db/create-database-client.ts'
import { relayerCursors, relayerDeposits } from '../../db/schema.ts'

/** Blocks per eth_getLogs call, below the usual provider limits. */
const maxBlockRange = 2000n
/** How far back a chain without a cursor is read. */
const initialLookbackBlocks = 100_000n

export type ScanRelayerDepositsOptions = {
  db: Database
  client: PublicClient
  chainId: number
  payRouter: `0x${string}`
}

/**
 * Stores every PayRouter `Deposited` event of one chain since the chain's cursor, then moves the
 * cursor: inserts are idempotent ((source_chain_id, intent_id) is unique), so a crash between the
 * two only repeats work. A chain whose head is behind the cursor was reset (a fresh devnet): the
 * scan starts again from block 0. Returns how many new deposits it stored; throws on RPC or
 * database errors (the runner retries next round).
 */
export async function scanRelayerDeposits(options: ScanRelayerDepositsOptions): Promise<number> {
  const { db, client, chainId, payRouter } = options
  // Never a cached head: a deposit mined a moment ago must be seen in this round.
  const latest = await client.getBlockNumber({ cacheTime: 0 })
  const [cursor] = await db.select().from(relayerCursors).where(eq(relayerCursors.chainId, chainId)).limit(1)
  // A fresh database starts a bounded way back: a devnet is short, and no route of a fresh
  // database can have deposited before it existed anyway.
  const firstBlock = latest > initialLookbackBlocks ? latest - initialLookbackBlocks : 0n
  let fromBlock = cursor ? BigInt(cursor.lastBlock) + 1n : firstBlock
  if (cursor && BigInt(cursor.lastBlock) > latest) fromBlock = 0n
  let stored = 0
  while (fromBlock <= latest) {
    const toBlock = fromBlock + maxBlockRange - 1n < latest ? fromBlock + maxBlockRange - 1n : latest
    const logs = await client.getContractEvents({
      address: payRouter,
      abi: payRouterAbi,
      eventName: 'Deposited',
      fromBlock,
      toBlock,
      strict: true,
    })
    const rows = logs.map((log) => ({
      sourceChainId: chainId,
      intentId: log.args.intentId.toLowerCase(),
      payer: log.args.payer.toLowerCase(),
      escrowToken: log.args.escrowToken.toLowerCase(),
      escrowAmount: log.args.escrowAmount.toString(),
      destinationChainId: Number(log.args.destinationChainId),
      destinationToken: log.args.destinationToken.toLowerCase(),
      minAmountOut: log.args.minAmountOut.toString(),
      receiver: log.args.receiver.toLowerCase(),
      fillDeadline: Number(log.args.fillDeadline),
      depositTxHash: log.transactionHash,
      depositBlock: Number(log.blockNumber),
    }))
    if (rows.length > 0) {
      const inserted = await db
        .insert(relayerDeposits)
        .values(rows)
        .onConflictDoNothing({ target: [relayerDeposits.sourceChainId, relayerDeposits.intentId] })
        .returning({ id: relayerDeposits.id })
      stored += inserted.length
    }
    await db
      .insert(relayerCursors)
      .values({ chainId, lastBlock: Number(toBlock) })
      .onConflictDoUpdate({
        target: relayerCursors.chainId,
        set: { lastBlock: Number(toBlock), updatedAt: new Date() },
      })
    fromBlock = toBlock + 1n
  }
  return stored
}
