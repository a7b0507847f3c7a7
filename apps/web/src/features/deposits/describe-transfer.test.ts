import type { DepositResponse } from '@quicklinks/core/api/deposits'
import { describe, expect, it } from 'vitest'
import { describeTransfer, formatUnits, getDepositTitle, listRefundSenders } from './describe-transfer'

const deposit: DepositResponse = {
  id: '6f1c8f5e-1d7a-4a55-9d89-1d1f3f0a7b10',
  address: '0x8e23Ee67d1332aD560396262C48ffbB01f93d052',
  expiresAt: '2026-11-28T05:00:00.000Z',
  amount: '10',
  linkToken: { chainId: 8453, address: `0x${'ba'.repeat(20)}`, symbol: 'USDC', decimals: 6 },
  invoiceId: null,
  refundAddress: null,
  state: 'open',
  chains: [
    {
      chainId: 43114,
      name: 'Avalanche',
      tokens: [
        {
          address: '0x89205A3A3b2A69De6Dbf7f01ED13B2108B2c43e7',
          symbol: 'USDC',
          decimals: 6,
          uri: 'ethereum:0x89205A3A3b2A69De6Dbf7f01ED13B2108B2c43e7@43114/transfer?address=0x8e23Ee67d1332aD560396262C48ffbB01f93d052&uint256=10000000',
          amountUnits: '10000000',
        },
      ],
    },
  ],
  transfers: [],
}

const transfer = {
  chainId: 43114,
  token: '0x89205a3a3b2a69de6dbf7f01ed13b2108b2c43e7',
  amount: '12500000',
  txHash: `0x${'1'.repeat(64)}`,
  sender: `0x${'3'.repeat(40)}`,
  refundTo: `0x${'3'.repeat(40)}`,
  intentId: null,
  actionTxHash: null,
  gasCostWei: null,
  error: null,
  note: null,
}

describe('describeTransfer', () => {
  it('says how much of which token arrived where, and what became of it', () => {
    expect(describeTransfer(deposit, { ...transfer, state: 'routed' })).toBe(
      'Received 12.5 USDC on Avalanche: sent to the receiver.',
    )
    expect(describeTransfer(deposit, { ...transfer, state: 'refunded' })).toBe(
      'Received 12.5 USDC on Avalanche: refunded.',
    )
    expect(
      describeTransfer(deposit, {
        ...transfer,
        token: `0x${'2'.repeat(40)}`,
        state: 'failed',
        error: 'No sender.',
      }),
    ).toBe('Received 12500000 of an unlisted token on Avalanche: No sender.')
  })

  it('says why a detected transfer waits, and that a dropped one moved nothing', () => {
    expect(describeTransfer(deposit, { ...transfer, state: 'detected' })).toBe(
      'Received 12.5 USDC on Avalanche: on its way to the receiver.',
    )
    expect(
      describeTransfer(deposit, { ...transfer, state: 'detected', note: 'Less than the amount so far.' }),
    ).toBe('Received 12.5 USDC on Avalanche: Less than the amount so far.')
    expect(describeTransfer(deposit, { ...transfer, state: 'dropped' })).toBe(
      'Seen 12.5 USDC on Avalanche, then gone from the chain in a reorg: nothing arrived, nothing is sent.',
    )
  })

  it('writes smallest units as decimals without trailing zeros', () => {
    expect(formatUnits(12_500_000n, 6)).toBe('12.5')
    expect(formatUnits(5n, 6)).toBe('0.000005')
    expect(formatUnits(2_000_000_000_000_000_000n, 18)).toBe('2')
  })

  it('titles the deposit by what became of its transfers, a dropped one not counting', () => {
    expect(getDepositTitle(deposit)).toBe('Waiting for your transfer')
    expect(getDepositTitle({ ...deposit, state: 'expired' })).toBe('Deposit expired')
    const routed = { ...transfer, state: 'routed' as const }
    expect(getDepositTitle({ ...deposit, transfers: [routed, routed] })).toBe('Sent to the receiver')
    expect(getDepositTitle({ ...deposit, transfers: [{ ...transfer, state: 'refunded' }] })).toBe('Refunded')
    expect(
      getDepositTitle({
        ...deposit,
        transfers: [
          { ...transfer, state: 'detected' },
          { ...transfer, state: 'dropped' },
        ],
      }),
    ).toBe('Transfer received')
  })

  it('lists the senders who may still name a refund address: none once sent or fixed in the contract', () => {
    const waiting = { ...transfer, state: 'detected' as const }
    expect(listRefundSenders({ ...deposit, transfers: [waiting, { ...waiting, chainId: 8453 }] })).toEqual([
      { sender: waiting.sender, chainId: 43114, refundTo: waiting.refundTo },
    ])
    expect(listRefundSenders({ ...deposit, transfers: [{ ...waiting, state: 'refunding' }] })).toEqual([])
    expect(listRefundSenders({ ...deposit, transfers: [{ ...waiting, state: 'routed' }] })).toEqual([])
    expect(
      listRefundSenders({ ...deposit, refundAddress: `0x${'4'.repeat(40)}`, transfers: [waiting] }),
    ).toEqual([])
  })
})
