import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import { encodeAbiParameters, encodeEventTopics, getAbiItem, type Hash, type TransactionReceipt } from 'viem'
import { describe, expect, it } from 'vitest'
import { listPayRouterFilledEvents } from './list-pay-router-filled-events.ts'

const payRouter = '0x1111111111111111111111111111111111111111'
const impostor = '0x2222222222222222222222222222222222222222'
const receiver = '0x3333333333333333333333333333333333333333'
const token = '0x4444444444444444444444444444444444444444'
const relayer = '0x5555555555555555555555555555555555555555'
const orderKey: Hash = `0x${'aa'.repeat(32)}`
const otherOrderKey: Hash = `0x${'bb'.repeat(32)}`
const intentId: Hash = `0x${'cc'.repeat(32)}`

function buildFilledLog(
  address: `0x${string}`,
  key: Hash,
  amount: bigint,
  logIndex: number,
): TransactionReceipt['logs'][number] {
  const event = getAbiItem({ abi: payRouterAbi, name: 'Filled' })
  const dataInputs = event.inputs.filter((input) => !('indexed' in input && input.indexed))
  const values: Record<string, unknown> = { token, amount, sourceChainId: 43114n, relayer }
  return {
    address,
    topics: encodeEventTopics({
      abi: payRouterAbi,
      eventName: 'Filled',
      args: { orderKey: key, intentId, receiver },
    }),
    data: encodeAbiParameters(
      dataInputs,
      dataInputs.map((input) => values[input.name ?? '']),
    ),
    blockHash: `0x${'01'.repeat(32)}`,
    blockNumber: 1n,
    logIndex,
    transactionHash: `0x${'02'.repeat(32)}`,
    transactionIndex: 0,
    removed: false,
  } as TransactionReceipt['logs'][number]
}

describe('listPayRouterFilledEvents', () => {
  it("keeps only the order's Filled events emitted by our PayRouter, not a look-alike contract's", () => {
    const logs = [
      buildFilledLog(impostor, orderKey, 999n, 0),
      buildFilledLog(payRouter, otherOrderKey, 7n, 1),
      buildFilledLog(payRouter, orderKey, 42n, 2),
    ]
    const events = listPayRouterFilledEvents({ logs }, payRouter.toUpperCase().replace('0X', '0x'), orderKey)
    expect(events.map((event) => [event.address, event.args.amount, event.args.receiver])).toEqual([
      [payRouter, 42n, receiver],
    ])
  })
})
