import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import { describe, expect, it } from 'vitest'
import type { RouteIntent } from '../../../../../db/schema.ts'
import { matchRelayerDeposit } from './match-relayer-deposit.ts'
import type { RelayerOrderFields } from './relayer-order.ts'

const intentId = `0x${'1a'.repeat(32)}`
const payer = `0x${'11'.repeat(20)}`
const receiver = `0x${'22'.repeat(20)}`
const sourceUsdc = `0x${'33'.repeat(20)}`
const destinationUsdc = `0x${'44'.repeat(20)}`
const payRouter = `0x${'55'.repeat(20)}`
const zeroAddress = `0x${'00'.repeat(20)}`

function buildIntent(overrides: Partial<RouteIntent> = {}): RouteIntent {
  const now = new Date()
  return {
    id: intentId,
    provider: 'local',
    linkId: null,
    invoiceId: null,
    requestId: null,
    fromChainId: 8453,
    toChainId: 43114,
    fromToken: sourceUsdc,
    toToken: destinationUsdc,
    fromAmount: '1000000',
    toAmount: '1000000',
    toAmountMin: '990000',
    fromAddress: payer,
    toAddress: receiver,
    slippage: 1,
    transactionRequest: {},
    actions: [],
    providerData: {
      kind: 'deposit',
      payRouter,
      destinationPayRouter: payRouter,
      fillDeadline: 1_900_000_000,
      escrowToken: sourceUsdc,
      minEscrowAmount: '1000000',
      destinationFromBlock: 42,
    },
    estimatedDurationMs: 0,
    sourceTxHash: null,
    sourceBlockNumber: null,
    sourceBlockHash: null,
    orderKey: null,
    destBlockNumber: null,
    destBlockHash: null,
    finalAt: null,
    statusRaw: null,
    status: null,
    destTxHash: null,
    toAmountWei: null,
    errorMessage: null,
    routeStatus: null,
    gasStatus: null,
    isGmp: false,
    axelarUrl: null,
    isRefunded: false,
    nextCheckAt: null,
    attempts: 0,
    lockedUntil: null,
    submittedAt: null,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
    ...overrides,
  }
}

function buildDeposit(overrides: Partial<RelayerOrderFields> = {}): RelayerOrderFields {
  return {
    intentId,
    sourceChainId: 8453,
    payer,
    escrowToken: sourceUsdc,
    escrowAmount: '1000000',
    receiver,
    destinationChainId: 43114,
    destinationToken: destinationUsdc,
    minAmountOut: '990000',
    fillDeadline: 1_900_000_000,
    ...overrides,
  }
}

function match(deposit: RelayerOrderFields, intent: RouteIntent | null = buildIntent()) {
  return matchRelayerDeposit({
    deposit,
    intent: intent ?? undefined,
    sourcePayRouter: payRouter,
    destinationPayRouter: payRouter,
  })
}

describe('matchRelayerDeposit', () => {
  it('accepts the deposit its quote asked for, and more escrow or a higher minimum', () => {
    expect(match(buildDeposit())).toEqual({ isMatch: true, destinationFromBlock: 42 })
    expect(match(buildDeposit({ escrowAmount: '1000001', minAmountOut: '999999' })).isMatch).toBe(true)
  })

  it('ignores a deposit whose intent id no stored quote has', () => {
    const result = match(buildDeposit(), null)
    expect(result).toMatchObject({ isMatch: false, mismatches: ['unknown intent'] })
    expect(result.isMatch === false && result.reason).toBe('Ignored: no route intent has this id')
  })

  it.each([
    ['receiver', { receiver: `0x${'99'.repeat(20)}` }],
    ['payer', { payer: `0x${'99'.repeat(20)}` }],
    ['source chain', { sourceChainId: 42161 }],
    ['destination chain', { destinationChainId: 42161 }],
    ['destination token', { destinationToken: `0x${'99'.repeat(20)}` }],
    ['minimum out', { minAmountOut: '989999' }],
    ['escrow token', { escrowToken: `0x${'99'.repeat(20)}` }],
    ['escrow amount', { escrowAmount: '999999' }],
    ['fill deadline', { fillDeadline: 1_900_000_001 }],
  ] as const)('ignores a copy of the intent id with another %s', (mismatch, overrides) => {
    const result = match(buildDeposit(overrides))
    expect(result).toMatchObject({ isMatch: false, mismatches: [mismatch] })
    expect(result.isMatch === false && result.reason).toBe(
      `Ignored: does not match its route intent (${mismatch})`,
    )
  })

  it('treats the quote’s native placeholder as address(0) and nothing else', () => {
    const intent = buildIntent({ toToken: nativeTokenAddress.toLowerCase() })
    expect(match(buildDeposit({ destinationToken: zeroAddress }), intent).isMatch).toBe(true)
    expect(match(buildDeposit({ destinationToken: nativeTokenAddress.toLowerCase() }), intent)).toMatchObject(
      { isMatch: false, mismatches: ['destination token'] },
    )
  })

  it('ignores deposits for quotes of another provider or kind, and other PayRouters', () => {
    expect(match(buildDeposit(), buildIntent({ provider: 'squid' }))).toMatchObject({
      mismatches: ['provider'],
    })
    expect(match(buildDeposit(), buildIntent({ providerData: { kind: 'pay', payRouter } }))).toMatchObject({
      mismatches: ['quote'],
    })
    expect(
      matchRelayerDeposit({
        deposit: buildDeposit(),
        intent: buildIntent(),
        sourcePayRouter: `0x${'66'.repeat(20)}`,
        destinationPayRouter: undefined,
      }),
    ).toMatchObject({ mismatches: ['source PayRouter', 'destination PayRouter'] })
  })
})
