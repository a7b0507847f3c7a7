import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import {
  concatHex,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  pad,
  parseAbi,
  parseAbiParameters,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { listPayerCalls } from './list-payer-calls.ts'

const payer = `0x${'11'.repeat(20)}` as const
const router = `0x${'22'.repeat(20)}` as const
const token = `0x${'33'.repeat(20)}` as const
const routeData = encodeFunctionData({
  abi: payRouterAbi,
  functionName: 'pay',
  args: [`0x${'ab'.repeat(32)}`, token, 5n, `0x${'44'.repeat(20)}`],
})
const approveData = '0x095ea7b3' as Hex
const batchAbi = parseAbi([
  'struct Call { address target; uint256 value; bytes data; }',
  'function executeBatch(Call[] calls)',
  'function execute(bytes32 mode, bytes executionData)',
])
const calls = [
  { to: token, value: 0n, data: approveData },
  { to: router, value: 7n, data: routeData },
]

describe('listPayerCalls', () => {
  it('is the transaction itself for a plain call', () => {
    expect(listPayerCalls({ from: payer, to: router, input: routeData, value: 3n })).toEqual([
      { to: router, data: routeData, value: 3n },
    ])
  })

  it('reads the calls of an executeBatch the payer sends to itself (EIP-7702), and of no one else', () => {
    const input = encodeFunctionData({
      abi: batchAbi,
      functionName: 'executeBatch',
      args: [calls.map((call) => ({ target: call.to, value: call.value, data: call.data }))],
    })
    expect(listPayerCalls({ from: payer, to: payer, input, value: 0n })).toEqual(calls)
    // Sent to another account, the batch is that account's business, not the payer's calls.
    expect(listPayerCalls({ from: payer, to: router, input, value: 0n })).toEqual([
      { to: router, data: input, value: 0n },
    ])
  })

  it('reads ERC-7821 batches with and without opData, and ignores a single-call mode', () => {
    const plainMode = pad('0x01', { dir: 'right', size: 32 })
    const opDataMode = pad(concatHex(['0x01', '0x0000000000', '0x78210001']), { dir: 'right', size: 32 })
    const encoded = encodeAbiParameters(parseAbiParameters('(address to, uint256 value, bytes data)[]'), [
      calls,
    ])
    const withOpData = encodeAbiParameters(
      parseAbiParameters('(address to, uint256 value, bytes data)[], bytes'),
      [calls, '0x1234'],
    )
    for (const [mode, executionData] of [
      [plainMode, encoded],
      [opDataMode, withOpData],
    ] as const) {
      const input = encodeFunctionData({
        abi: batchAbi,
        functionName: 'execute',
        args: [mode, executionData],
      })
      expect(listPayerCalls({ from: payer, to: payer, input, value: 0n })).toEqual(calls)
    }
    const single = encodeFunctionData({
      abi: batchAbi,
      functionName: 'execute',
      args: [pad('0x00', { dir: 'right', size: 32 }), encoded],
    })
    expect(listPayerCalls({ from: payer, to: payer, input: single, value: 0n })).toEqual([
      { to: payer, data: single, value: 0n },
    ])
  })

  it('unwraps PayRouter.permitAndCall to the call it runs, also inside a batch', () => {
    const wrapped = encodeFunctionData({
      abi: payRouterAbi,
      functionName: 'permitAndCall',
      args: [token, 5n, 99n, 27, `0x${'01'.repeat(32)}`, `0x${'02'.repeat(32)}`, routeData],
    })
    expect(listPayerCalls({ from: payer, to: router, input: wrapped, value: 0n })).toEqual([
      { to: router, data: routeData, value: 0n },
    ])
    const batch = encodeFunctionData({
      abi: batchAbi,
      functionName: 'executeBatch',
      args: [[{ target: router, value: 0n, data: wrapped }]],
    })
    expect(listPayerCalls({ from: payer, to: payer, input: batch, value: 0n })).toEqual([
      { to: router, data: routeData, value: 0n },
    ])
  })
})
