import type { Hash, TransactionReceipt } from 'viem'
import { type PayRouterLog, parsePayRouterLogs } from './parse-pay-router-logs.ts'

/**
 * The `Filled` events of one order in a receipt, emitted by `payRouter` itself: the tracker reads
 * the fill's amount from it, the relayer checks its own fill against the order with it. Never throws.
 */
export function listPayRouterFilledEvents(
  receipt: Pick<TransactionReceipt, 'logs'>,
  payRouter: string,
  orderKey: Hash | string,
): PayRouterLog<'Filled'>[] {
  return parsePayRouterLogs(receipt.logs, payRouter, 'Filled').filter(
    (event) => event.args.orderKey.toLowerCase() === orderKey.toLowerCase(),
  )
}
