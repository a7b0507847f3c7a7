import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { getAddress, type PublicClient, parseAbiItem } from 'viem'
import type { Deposit } from '../../../db/schema.ts'
import {
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

/**
 * Reads one chain's new blocks (from a cursor in the database, a bounded range per call) for
 * transfers into watched deposit addresses and stores each once (deposit_transfers): ERC-20
 * `Transfer` logs of any token to those addresses, and plain native transfers to them (the block's
 * transactions). Every ERC-20 is taken, so one the routes cannot take is refunded rather than lost.
 * Answers how many new transfers it stored. Throws on RPC or database errors (the next round retries
 * from the same cursor).
 */
export async function scanDepositTransfers(options: ScanDepositTransfersOptions): Promise<number> {
  const { db, client, chainId } = options
  const head = await client.getBlockNumber({ cacheTime: 0 })
  const safeHead = head - BigInt(options.confirmations)
  const cursor = await readDepositCursor(db, chainId)
  const fromBlock = cursor === undefined ? maxBig(0n, safeHead - firstScanDepth) : BigInt(cursor) + 1n
  if (fromBlock > safeHead) return 0
  const toBlock = minBig(safeHead, fromBlock + maxBlocksPerScan - 1n)
  const watched = await listWatchedDeposits(db, options.now() - lateTransferWindowMs)
  let stored = 0
  if (watched.length > 0) {
    const byAddress = new Map(watched.map((deposit) => [deposit.address, deposit]))
    stored += await storeTokenTransfers(options, byAddress, fromBlock, toBlock)
    stored += await storeNativeTransfers(options, byAddress, fromBlock, toBlock)
  }
  await writeDepositCursor(db, chainId, Number(toBlock), options.now())
  return stored
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
    const rows = logs.flatMap((log) => {
      const deposit = byAddress.get((log.args.to ?? '').toLowerCase())
      const amount = log.args.value ?? 0n
      if (!deposit || amount === 0n || log.transactionHash === null || log.logIndex === null) return []
      return [
        {
          depositId: deposit.id,
          chainId: options.chainId,
          sourceKey: `${log.transactionHash}:${log.logIndex}`,
          token: log.address.toLowerCase(),
          amount: amount.toString(),
          sender: log.args.from?.toLowerCase() ?? null,
          txHash: log.transactionHash,
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
        nextAttemptAt: new Date(options.now()),
      })
    }
    stored += await insertDepositTransfers(options.db, rows)
  }
  return stored
}

const maxBig = (left: bigint, right: bigint): bigint => (left > right ? left : right)
const minBig = (left: bigint, right: bigint): bigint => (left < right ? left : right)
