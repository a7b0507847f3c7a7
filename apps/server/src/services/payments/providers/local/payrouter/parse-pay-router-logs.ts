import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import { type ContractEventName, type Log, type ParseEventLogsReturnType, parseEventLogs } from 'viem'

export type PayRouterEventName = ContractEventName<typeof payRouterAbi>

/** PayRouter's decoded events (only the named one when `eventName` is given), strictly typed. */
export type PayRouterLog<eventName extends PayRouterEventName | undefined = undefined> =
  ParseEventLogsReturnType<typeof payRouterAbi, eventName, true>[number]

/**
 * PayRouter's events among a receipt's logs, emitted by `payRouter` only (another contract's
 * look-alike events are dropped), optionally only those named `eventName`. Logs that do not decode
 * are skipped. Never throws.
 */
export function parsePayRouterLogs<const eventName extends PayRouterEventName | undefined = undefined>(
  logs: readonly Log[],
  payRouter: string,
  eventName?: eventName,
): PayRouterLog<eventName>[] {
  const router = payRouter.toLowerCase()
  const events = parseEventLogs({
    abi: payRouterAbi,
    logs: [...logs],
    strict: true,
    ...(eventName === undefined ? {} : { eventName }),
  }) as unknown as PayRouterLog<eventName>[]
  return events.filter((event) => event.address.toLowerCase() === router)
}
