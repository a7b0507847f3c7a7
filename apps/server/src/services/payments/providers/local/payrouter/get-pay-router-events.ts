import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import type { GetContractEventsReturnType, Hash, PublicClient } from 'viem'

export type GetPayRouterEventsOptions<eventName extends 'Deposited' | 'Filled'> = {
  client: PublicClient
  payRouter: `0x${string}`
  eventName: eventName
  /** Indexed arguments to match (an order key, an intent id). */
  args?: eventName extends 'Filled' ? { orderKey: Hash } | { intentId: Hash } : { orderKey?: Hash }
  fromBlock: bigint
  toBlock: bigint
}

/**
 * PayRouter's `Deposited` or `Filled` logs in one block range (callers keep ranges bounded with
 * listBlockRanges). Throws on RPC errors.
 */
export async function getPayRouterEvents<const eventName extends 'Deposited' | 'Filled'>(
  options: GetPayRouterEventsOptions<eventName>,
): Promise<GetContractEventsReturnType<typeof payRouterAbi, eventName, true>> {
  const parameters = {
    address: options.payRouter,
    abi: payRouterAbi,
    eventName: options.eventName as 'Deposited' | 'Filled',
    ...(options.args === undefined ? {} : { args: options.args }),
    fromBlock: options.fromBlock,
    toBlock: options.toBlock,
    strict: true,
  } as const
  const logs = await options.client.getContractEvents(parameters)
  return logs as unknown as GetContractEventsReturnType<typeof payRouterAbi, eventName, true>
}
