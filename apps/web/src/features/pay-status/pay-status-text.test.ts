import type { PayStatus, PayStatusRefund } from '@quicklinks/core/api/pay-status'
import { describe, expect, it } from 'vitest'
import { formatPayTime, formatWait, getNextStepText, getPaySummary, getRefundStep } from './pay-status-text'

const payer = `0x${'1a'.repeat(20)}`
const refund: PayStatusRefund = {
  available: false,
  availableAt: '2026-11-28T02:00:01.000Z',
  secondsUntilAvailable: 600,
  contract: `0x${'2b'.repeat(20)}`,
  chainId: 8453,
  functionName: 'refund',
  args: {
    intentId: `0x${'42'.repeat(32)}`,
    sourceChainId: '8453',
    payer,
    escrowToken: `0x${'3c'.repeat(20)}`,
    escrowAmount: '9000000',
    receiver: `0x${'4d'.repeat(20)}`,
    destinationChainId: '43114',
    destinationToken: `0x${'5e'.repeat(20)}`,
    minAmountOut: '8900000',
    fillDeadline: '1795831200',
  },
  data: '0xabcdef',
  depositor: payer,
}

const bridgingStatus: PayStatus = {
  intentId: `0x${'42'.repeat(32)}`,
  state: 'bridging',
  linkName: 'Acceptance 40024',
  fromChainId: 8453,
  toChainId: 43114,
  fromToken: { chainId: 8453, address: `0x${'3c'.repeat(20)}`, symbol: 'USDC', decimals: 6 },
  toToken: { chainId: 43114, address: `0x${'5e'.repeat(20)}`, symbol: 'USDC', decimals: 6 },
  fromAmount: '9000000',
  toAmountMin: '8900000',
  toAmountReceived: null,
  payer,
  sourceTxHash: `0x${'a1'.repeat(32)}`,
  destTxHash: null,
  refundTxHash: null,
  sourceTxUrl: null,
  destTxUrl: null,
  refundTxUrl: null,
  estimatedDurationMs: 180_000,
  createdAt: '2026-11-28T00:00:00.000Z',
  submittedAt: '2026-11-28T00:00:05.000Z',
  completedAt: null,
  updatedAt: '2026-11-28T00:00:06.000Z',
  refund: null,
}

const names: Record<number, string> = { 8453: 'Base', 43114: 'Avalanche' }
const chainName = (chainId: number) => names[chainId] ?? `Chain ${chainId}`

describe('the status page’s words', () => {
  it('says what the receiver got once delivered, else what the payer sent and to whom', () => {
    expect(
      getPaySummary({ ...bridgingStatus, state: 'delivered', toAmountReceived: '2990999' }, chainName),
    ).toBe('Acceptance 40024 received 2.990999 USDC on Avalanche.')
    expect(getPaySummary(bridgingStatus, chainName)).toBe('You sent 9 USDC on Base to Acceptance 40024.')
    expect(getPaySummary({ ...bridgingStatus, linkName: null }, chainName)).toBe('You sent 9 USDC on Base.')
  })

  it('says what happens next in plain words for every state', () => {
    const next = (patch: Partial<PayStatus>) => getNextStepText({ ...bridgingStatus, ...patch }, chainName)
    expect(next({ state: 'in_flight' })).toBe(
      'Your payment was sent. It is waiting for confirmation on Base.',
    )
    expect(next({})).toBe('The bridge is delivering your payment. This usually takes about 3 minutes.')
    expect(next({ estimatedDurationMs: 20_000 })).toBe(
      'The bridge is delivering your payment. This usually takes about 1 minute.',
    )
    expect(next({ refund })).toBe(
      `The bridge is delivering your payment. This usually takes about 3 minutes. If it is not delivered, you can take the deposit back from ${formatPayTime(refund.availableAt)}.`,
    )
    expect(next({ state: 'delivered' })).toBe('Delivered. Nothing more to do.')
    expect(next({ state: 'failed' })).toBe(
      'This payment did not go through. Funds not where you expected? Contact support with the transaction hash and we will help.',
    )
    expect(next({ state: 'refundable', refund })).toBe(
      `The deposit was not filled. You can take it back from ${formatPayTime(refund.availableAt)}.`,
    )
    expect(next({ state: 'refundable', refund: { ...refund, available: true } })).toBe(
      'The deposit was not filled. You can take it back now with the wallet that paid.',
    )
    expect(next({ state: 'refunded' })).toBe(
      'Refunded. The deposit went back to the wallet that paid. Nothing more to do.',
    )
  })

  it('formats a wait as h:mm:ss, or m:ss under an hour', () => {
    expect(formatWait(3725)).toBe('1:02:05')
    expect(formatWait(65)).toBe('1:05')
    expect(formatWait(-3)).toBe('0:00')
  })
})

describe('getRefundStep', () => {
  const at = (patch: Partial<Parameters<typeof getRefundStep>[0]>) =>
    getRefundStep({ refund, address: payer, walletChainId: 8453, secondsSinceAnswer: 0, ...patch })

  it('asks for a wallet first, and refuses a wallet that is not the depositor', () => {
    expect(at({ address: undefined })).toEqual({ kind: 'connect' })
    expect(at({ address: `0x${'99'.repeat(20)}` })).toEqual({ kind: 'wrongWallet', depositor: payer })
    // Addresses compare ignoring case.
    expect(at({ address: payer.toUpperCase().replace('0X', '0x') }).kind).toBe('wait')
  })

  it('counts down from the answer until the contract allows the refund, then wants the deposit’s chain', () => {
    expect(at({})).toEqual({ kind: 'wait', secondsLeft: 600 })
    expect(at({ secondsSinceAnswer: 599.5 })).toEqual({ kind: 'wait', secondsLeft: 1 })
    expect(at({ secondsSinceAnswer: 600, walletChainId: 43114 })).toEqual({
      kind: 'wrongChain',
      chainId: 8453,
    })
    expect(at({ secondsSinceAnswer: 600 })).toEqual({ kind: 'ready' })
    expect(at({ refund: { ...refund, available: true, secondsUntilAvailable: 0 } })).toEqual({
      kind: 'ready',
    })
  })
})
