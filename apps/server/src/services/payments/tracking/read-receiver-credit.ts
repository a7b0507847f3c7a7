import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import { isNativeTokenAddress } from '@quicklinks/core/native-token-address'
import { erc20Abi, type Log, type PublicClient, parseEventLogs, type TransactionReceipt } from 'viem'

export type ReadReceiverCreditOptions = {
  receipt: Pick<TransactionReceipt, 'logs' | 'blockNumber'>
  /** The token the receiver must get; the all-e placeholder or the zero address for native. */
  token: string
  receiver: string
  /**
   * Our PayRouter on this chain, when the transaction went through it: its Paid, SwappedAndPaid
   * and Filled events are trusted for native payouts, which leave no log of their own.
   */
  payRouter?: string | undefined
  /** Only a Filled event of this order key counts (cross-chain local fills). */
  orderKey?: string | undefined
  /**
   * Reads native balances at a block, for a native payout no trusted event describes (Squid): the
   * receiver's balance change over the transaction's block. Omit to count only events.
   */
  client?: PublicClient | undefined
}

/**
 * How much of `token` the receiver got in one mined transaction, read from the chain's own
 * record: for an ERC-20, the sum of the token contract's Transfer logs to the receiver; for the
 * native token, PayRouter's payout events naming the receiver (Paid, SwappedAndPaid, Filled),
 * else the receiver's balance change over the block. Returns 0n when nothing reached the receiver.
 * Throws on RPC errors (the tracker retries).
 */
export async function readReceiverCredit(options: ReadReceiverCreditOptions): Promise<bigint> {
  const receiver = options.receiver.toLowerCase()
  const logs = options.receipt.logs as Log[]
  if (!isNativeTokenAddress(options.token)) {
    const token = options.token.toLowerCase()
    const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs, strict: true })
    let credit = 0n
    for (const transfer of transfers) {
      if (transfer.address.toLowerCase() !== token) continue
      if (transfer.args.to.toLowerCase() !== receiver) continue
      credit += transfer.args.value
    }
    return credit
  }
  if (options.payRouter) {
    // PayRouter's own events only: another contract's look-alike events are not ours to trust.
    const payRouter = options.payRouter.toLowerCase()
    const events = parseEventLogs({ abi: payRouterAbi, logs, strict: true }).filter(
      (event) => event.address.toLowerCase() === payRouter,
    )
    let credit = 0n
    for (const event of events) {
      if (event.eventName === 'Paid' && isPayout(event.args.receiver, event.args.token, receiver)) {
        credit += event.args.amount
      } else if (
        event.eventName === 'SwappedAndPaid' &&
        isPayout(event.args.receiver, event.args.tokenOut, receiver)
      ) {
        credit += event.args.amountOut
      } else if (
        event.eventName === 'Filled' &&
        isPayout(event.args.receiver, event.args.token, receiver) &&
        (options.orderKey === undefined ||
          event.args.orderKey.toLowerCase() === options.orderKey.toLowerCase())
      ) {
        credit += event.args.amount
      }
    }
    if (credit > 0n || !options.client) return credit
  }
  if (!options.client) return 0n
  const block = options.receipt.blockNumber
  const [before, after] = await Promise.all([
    options.client.getBalance({ address: receiver as `0x${string}`, blockNumber: block - 1n }),
    options.client.getBalance({ address: receiver as `0x${string}`, blockNumber: block }),
  ])
  return after > before ? after - before : 0n
}

function isPayout(eventReceiver: string, eventToken: string, receiver: string): boolean {
  return eventReceiver.toLowerCase() === receiver && isNativeTokenAddress(eventToken)
}
