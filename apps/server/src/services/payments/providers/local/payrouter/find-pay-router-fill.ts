import type { Hash, PublicClient, TransactionReceipt } from 'viem'
import { listBlockRanges } from '../../../../chains/list-block-ranges.ts'
import { getPayRouterEvents } from './get-pay-router-events.ts'
import { listPayRouterFilledEvents } from './list-pay-router-filled-events.ts'
import { readPayRouterFilled } from './read-pay-router-state.ts'

/** Log queries one look may make (at 2,000 blocks each), so a look stays bounded on fast chains. */
const maxLogQueries = 10

export type PayRouterFill = {
  txHash: Hash
  receipt: TransactionReceipt
  /** What the Filled event says was paid. */
  receiver: `0x${string}`
  token: `0x${string}`
  amount: bigint
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
 * `filled(orderKey)` first, then the hinted transaction's receipt, else the `Filled` log found in
 * bounded ranges (at most 2,000 blocks a query) from `fromBlock`. Throws on RPC errors.
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
  const latest = await client.getBlockNumber({ cacheTime: 0 })
  // Newest first: a fill is usually seconds old.
  let queries = 0
  for (const [fromBlock, toBlock] of listBlockRanges(options.fromBlock, latest, { newestFirst: true })) {
    if (queries++ >= maxLogQueries) break
    const [log] = await getPayRouterEvents({
      client,
      payRouter,
      eventName: 'Filled',
      args: { orderKey },
      fromBlock,
      toBlock,
    })
    if (log?.transactionHash) {
      const receipt = await client.getTransactionReceipt({ hash: log.transactionHash })
      const fill = readFill(receipt, payRouter, orderKey)
      if (fill) return { txHash: receipt.transactionHash, receipt, ...fill }
    }
  }
  return undefined
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
