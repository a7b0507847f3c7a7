import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { getAddress, type PublicClient, parseAbiItem } from 'viem'
import type { Deposit } from '../../../db/schema.ts'
import {
  type DepositCursor,
  insertDepositTransfers,
  listWatchedDeposits,
  readDepositCursor,
  writeDepositCursor,
} from './deposits-repository.ts'

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')
/** Blocks one scan reads at most; a chain further ahead is caught up over several rounds. */
const maxBlocksPerScan = 500n
/** Where a chain's first scan starts, below its head: transfers sent just before the watcher started. */
const firstScanDepth = 100n
/** How far the cursor steps back when its block was replaced (a reorg) or the chain is behind it. */
const stepBackBlocks = 64n
/** Addresses per log filter (a topic OR list). */
const addressesPerFilter = 100
/** An expired deposit is still watched this long, so a late transfer is seen and refunded. */
export const lateTransferWindowMs = 24 * 60 * 60 * 1000

export type ScanDepositTransfersOptions = {
  db: Database
  client: PublicClient
  chainId: number
  /** Blocks on top of a block before its transfers are taken (getConfirmations). */
  confirmations: number
  now: () => number
}

export type ScanDepositTransfersResult = {
  /** Transfers stored for the first time. */
  stored: number
  /** Blocks read (0: the cursor was at the safe head already, nothing new to read). */
  blocks: number
  /** Why the scan started before the cursor, if it did. */
  steppedBack?: 'reorg' | 'chain behind cursor'
}

/**
 * Reads one chain's new blocks (from a cursor in the database, a bounded range per call) for
 * transfers into watched deposit addresses and stores each once (deposit_transfers), with the
 * block it is in: ERC-20 `Transfer` logs of any token to those addresses, and plain native
 * transfers to them (the block's transactions). Every ERC-20 is taken, so one the routes cannot
 * take is refunded rather than lost. The cursor keeps the last block's hash: when that block has
 * another hash now (a reorg replaced it) or the chain is behind it, the scan steps back a bounded
 * window and reads again, so a transfer mined again elsewhere follows its new block and one mined
 * only in the new chain is found (docs/decisions/0032). Throws on RPC or database errors (the next
 * round retries from the same cursor).
 */
export async function scanDepositTransfers(
  options: ScanDepositTransfersOptions,
): Promise<ScanDepositTransfersResult> {
  const { db, client, chainId } = options
  const head = await client.getBlockNumber({ cacheTime: 0 })
  const safeHead = head - BigInt(options.confirmations)
  const start = await getScanStart(options, await readDepositCursor(db, chainId), safeHead)
  const result: ScanDepositTransfersResult = {
    stored: 0,
    blocks: 0,
    ...(start.steppedBack ? { steppedBack: start.steppedBack } : {}),
  }
  const fromBlock = start.fromBlock
  if (fromBlock > safeHead) return result
  const toBlock = minBig(safeHead, fromBlock + maxBlocksPerScan - 1n)
  result.blocks = Number(toBlock - fromBlock) + 1
  const toHeader = await client.getBlock({ blockNumber: toBlock })
  const watched = await listWatchedDeposits(db, options.now() - lateTransferWindowMs)
  if (watched.length > 0) {
    const byAddress = new Map(watched.map((deposit) => [deposit.address, deposit]))
    result.stored += await storeTokenTransfers(options, byAddress, fromBlock, toBlock)
    result.stored += await storeNativeTransfers(options, byAddress, fromBlock, toBlock)
  }
  // The range was read from one chain only if its last block is still the same block.
  const toHeaderAfter = await client.getBlock({ blockNumber: toBlock })
  if (toHeaderAfter.hash !== toHeader.hash) return result
  await writeDepositCursor(
    db,
    chainId,
    { lastBlock: Number(toBlock), lastBlockHash: toHeader.hash },
    options.now(),
  )
  return result
}

async function getScanStart(
  options: ScanDepositTransfersOptions,
  cursor: DepositCursor | undefined,
  safeHead: bigint,
): Promise<{ fromBlock: bigint; steppedBack?: ScanDepositTransfersResult['steppedBack'] }> {
  const confirmationsBack = BigInt(options.confirmations) * 4n
  const stepBack = stepBackBlocks > confirmationsBack ? stepBackBlocks : confirmationsBack
  const back = (from: bigint): bigint => maxBig(0n, from - stepBack)
  if (!cursor) return { fromBlock: maxBig(0n, safeHead - firstScanDepth) }
  const lastBlock = BigInt(cursor.lastBlock)
  if (lastBlock > safeHead) return { fromBlock: back(safeHead), steppedBack: 'chain behind cursor' }
  if (cursor.lastBlockHash) {
    const block = await options.client.getBlock({ blockNumber: lastBlock })
    if (block.hash !== cursor.lastBlockHash) return { fromBlock: back(lastBlock), steppedBack: 'reorg' }
  }
  return { fromBlock: lastBlock + 1n }
}

async function storeTokenTransfers(
  options: ScanDepositTransfersOptions,
  byAddress: ReadonlyMap<string, Deposit>,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<number> {
  const addresses = [...byAddress.keys()].map((address) => getAddress(address))
  let stored = 0
  for (let start = 0; start < addresses.length; start += addressesPerFilter) {
    const logs = await options.client.getLogs({
      event: transferEvent,
      args: { to: addresses.slice(start, start + addressesPerFilter) },
      fromBlock,
      toBlock,
    })
    // A log's index is its place in the block, which changes when a reorg mines the transaction
    // again elsewhere: the key counts the transaction's transfers to that deposit instead (all of a
    // transaction's logs are in one block, and one address in one filter, so the count is whole).
    const seen = new Map<string, number>()
    const rows = logs.flatMap((log) => {
      const to = (log.args.to ?? '').toLowerCase()
      const deposit = byAddress.get(to)
      const amount = log.args.value ?? 0n
      if (!deposit || amount === 0n || log.transactionHash === null || log.blockHash === null) return []
      const countKey = `${log.transactionHash}:${to}`
      const ordinal = seen.get(countKey) ?? 0
      seen.set(countKey, ordinal + 1)
      return [
        {
          depositId: deposit.id,
          chainId: options.chainId,
          sourceKey: `${log.transactionHash}:${to}:${ordinal}`,
          token: log.address.toLowerCase(),
          amount: amount.toString(),
          sender: log.args.from?.toLowerCase() ?? null,
          txHash: log.transactionHash,
          blockNumber: Number(log.blockNumber),
          blockHash: log.blockHash,
          nextAttemptAt: new Date(options.now()),
        },
      ]
    })
    stored += await insertDepositTransfers(options.db, rows)
  }
  return stored
}

/**
 * Plain native transfers to watched addresses: a transaction straight to the address with value,
 * that succeeded. (Native currency a contract sends internally leaves no trace but the balance; see
 * docs/product.md#deposit-limits.)
 */
async function storeNativeTransfers(
  options: ScanDepositTransfersOptions,
  byAddress: ReadonlyMap<string, Deposit>,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<number> {
  let stored = 0
  for (let number = fromBlock; number <= toBlock; number++) {
    const block = await options.client.getBlock({ blockNumber: number, includeTransactions: true })
    const rows = []
    for (const transaction of block.transactions) {
      const deposit = transaction.to ? byAddress.get(transaction.to.toLowerCase()) : undefined
      if (!deposit || transaction.value === 0n) continue
      const receipt = await options.client.getTransactionReceipt({ hash: transaction.hash })
      if (receipt.status !== 'success') continue
      rows.push({
        depositId: deposit.id,
        chainId: options.chainId,
        sourceKey: `${transaction.hash}:native`,
        token: nativeTokenAddress.toLowerCase(),
        amount: transaction.value.toString(),
        sender: transaction.from.toLowerCase(),
        txHash: transaction.hash,
        blockNumber: Number(number),
        blockHash: block.hash,
        nextAttemptAt: new Date(options.now()),
      })
    }
    stored += await insertDepositTransfers(options.db, rows)
  }
  return stored
}

const maxBig = (left: bigint, right: bigint): bigint => (left > right ? left : right)
const minBig = (left: bigint, right: bigint): bigint => (left < right ? left : right)
