import type { Hash, PublicClient, TransactionReceipt } from 'viem'
import { listBlockRanges, maxLogBlockRange } from '../../../../chains/list-block-ranges.ts'
import { getPayRouterEvents } from './get-pay-router-events.ts'
import { listPayRouterFilledEvents } from './list-pay-router-filled-events.ts'
import { readPayRouterFilled } from './read-pay-router-state.ts'

/** Log queries one tracker look may make (at 2,000 blocks each), so a look stays bounded on fast chains. */
const maxLogQueriesPerLook = 10

export type PayRouterFill = {
  txHash: Hash
  receipt: TransactionReceipt
  /** What the Filled event says was paid. */
  receiver: `0x${string}`
  token: `0x${string}`
  amount: bigint
}

export type FindPayRouterFilledLogsOptions = {
  client: PublicClient
  payRouter: `0x${string}`
  /** The indexed argument the logs must carry: an order key or an intent id. */
  args: { orderKey: Hash } | { intentId: Hash }
  /**
   * The destination block a fill cannot precede (the head when the route was quoted); null for a
   * row from before it was stored: a window of one range back from the head.
   */
  fromBlock: bigint | null
  /** Newest range first, and only the first log found (a fill is usually seconds old). */
  firstOnly?: boolean
  /** Log queries at most; every range when absent. */
  maxQueries?: number
}

/**
 * The one fill finder: PayRouter's `Filled` logs of an order or an intent on a destination chain,
 * read in ranges of at most `maxLogBlockRange` blocks from `fromBlock` to the head (never from
 * `earliest`), oldest first, or newest first stopping at the first log. Throws on RPC errors.
 */
export async function findPayRouterFilledLogs(options: FindPayRouterFilledLogsOptions) {
  const { client, payRouter, args } = options
  const head = await client.getBlockNumber({ cacheTime: 0 })
  const start = options.fromBlock ?? (head > maxLogBlockRange ? head - maxLogBlockRange : 0n)
  const found = []
  let queries = 0
  for (const [fromBlock, toBlock] of listBlockRanges(start, head, {
    newestFirst: options.firstOnly === true,
  })) {
    if (options.maxQueries !== undefined && queries++ >= options.maxQueries) break
    const logs = await getPayRouterEvents({
      client,
      payRouter,
      eventName: 'Filled',
      args,
      fromBlock,
      toBlock,
    })
    found.push(...logs)
    if (options.firstOnly && found.length > 0) return found.slice(0, 1)
  }
  return found
}

export type FindPayRouterFillOptions = {
  client: PublicClient
  payRouter: `0x${string}`
  orderKey: Hash
  /** The destination block the fill cannot precede (the destination head when the route was quoted). */
  fromBlock: bigint
  /** A fill transaction the relayer recorded, checked first (saves the log search). */
  hintTxHash?: Hash | null | undefined
}

/**
 * The fill of a PayRouter order on its destination chain, or undefined while there is none:
 * `filled(orderKey)` first, then the hinted transaction's receipt, else the newest `Filled` log
 * (findPayRouterFilledLogs, at most ten queries a look). Throws on RPC errors.
 */
export async function findPayRouterFill(
  options: FindPayRouterFillOptions,
): Promise<PayRouterFill | undefined> {
  const { client, payRouter, orderKey } = options
  const isFilled = await readPayRouterFilled(client, payRouter, orderKey)
  if (!isFilled) return undefined
  if (options.hintTxHash) {
    const receipt = await client.getTransactionReceipt({ hash: options.hintTxHash }).catch(() => undefined)
    const fill = receipt ? readFill(receipt, payRouter, orderKey) : undefined
    if (receipt && fill) return { txHash: receipt.transactionHash, receipt, ...fill }
  }
  const [log] = await findPayRouterFilledLogs({
    client,
    payRouter,
    args: { orderKey },
    fromBlock: options.fromBlock,
    firstOnly: true,
    maxQueries: maxLogQueriesPerLook,
  })
  if (!log?.transactionHash) return undefined
  const receipt = await client.getTransactionReceipt({ hash: log.transactionHash })
  const fill = readFill(receipt, payRouter, orderKey)
  return fill ? { txHash: receipt.transactionHash, receipt, ...fill } : undefined
}

function readFill(
  receipt: TransactionReceipt,
  payRouter: `0x${string}`,
  orderKey: Hash,
): Omit<PayRouterFill, 'txHash' | 'receipt'> | undefined {
  if (receipt.status !== 'success') return undefined
  const [event] = listPayRouterFilledEvents(receipt, payRouter, orderKey)
  if (!event) return undefined
  return { receiver: event.args.receiver, token: event.args.token, amount: event.args.amount }
}
