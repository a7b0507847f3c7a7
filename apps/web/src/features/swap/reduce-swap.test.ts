import type { RoutingToken } from '@quicklinks/core/api/routing'
import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import { describe, expect, it } from 'vitest'
import type { SubmittedPayment } from '../pay/pay-modal-state'
import { reduceSwap } from './reduce-swap'
import { initialSwapState, type SwapAction, type SwapState } from './swap-state'

function token(symbol: string, address: string, chainId = 8453): RoutingToken {
  return {
    chainId,
    address,
    symbol,
    name: symbol,
    decimals: symbol === 'USDC' ? 6 : 18,
    type: 'evm',
    logoURI: '',
    active: true,
    visible: true,
    usdPrice: 1,
  }
}

const eth = token('ETH', nativeTokenAddress)
const usdc = token('USDC', '0x5FbDB2315678afecb367f032d93F642f64180aa3')
const avalancheUsdc = token('USDC', '0x2279B7A0a67DB372996a5FaB50D91eAA73d2eBe6', 43114)
const payment: SubmittedPayment = {
  intentId: `0x${'1'.repeat(64)}`,
  txHash: `0x${'2'.repeat(64)}`,
  fromChainId: 8453,
  payer: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  submittedAtMs: 0,
  isReceiptPosted: false,
}

function run(actions: SwapAction[], from: SwapState = initialSwapState): SwapState {
  return actions.reduce(reduceSwap, from)
}

const toConfirm: SwapAction[] = [
  { type: 'selectChain', chainId: 8453 },
  { type: 'selectToken', token: eth },
  { type: 'continue' },
  { type: 'selectToken', token: usdc },
  { type: 'continue' },
  { type: 'setAmount', text: '0.5' },
  { type: 'next' },
]

describe('reduceSwap', () => {
  it('goes source → target → amount → confirm with the picked tokens and amount', () => {
    expect(run(toConfirm)).toEqual({
      step: 'confirm',
      source: eth,
      target: usdc,
      amount: { text: '0.5', unit: 'TOKEN' },
    })
  })

  it('starts the target on the source chain, with no token yet', () => {
    const state = run(toConfirm.slice(0, 3))
    expect(state).toMatchObject({
      step: 'target',
      source: eth,
      pick: { tab: 'chains', chainId: 8453, token: null },
    })
  })

  it('refuses the source token itself as the target', () => {
    const onTarget = run(toConfirm.slice(0, 3))
    const picked = reduceSwap(onTarget, { type: 'selectToken', token: eth })
    expect(reduceSwap(picked, { type: 'continue' })).toBe(picked)
  })

  it('refuses a token of another chain than the picked one', () => {
    const onSource = run([{ type: 'selectChain', chainId: 8453 }])
    expect(reduceSwap(onSource, { type: 'selectToken', token: avalancheUsdc })).toBe(onSource)
  })

  it('clears the picked token when another chain is picked, keeps it for the same chain', () => {
    const picked = run([
      { type: 'selectChain', chainId: 8453 },
      { type: 'selectToken', token: eth },
    ])
    expect(reduceSwap(picked, { type: 'selectChain', chainId: 8453 })).toMatchObject({ pick: { token: eth } })
    expect(reduceSwap(picked, { type: 'selectChain', chainId: 43114 })).toMatchObject({
      pick: { chainId: 43114, token: null, tab: 'tokens' },
    })
  })

  it('walks Back from confirm to the source keeping every choice, and forward again to the same target', () => {
    const back = run([{ type: 'back' }, { type: 'back' }, { type: 'back' }], run(toConfirm))
    expect(back).toEqual({
      step: 'source',
      pick: { tab: 'tokens', chainId: 8453, token: eth },
      target: usdc,
      amount: { text: '0.5', unit: 'TOKEN' },
    })
    expect(reduceSwap(back, { type: 'continue' })).toMatchObject({ step: 'target', pick: { token: usdc } })
  })

  it('follows the sent swap to success once its receipt post settled, and ignores Back meanwhile', () => {
    const processing = run([{ type: 'submitted', payment }], run(toConfirm))
    expect(processing.step).toBe('processing')
    expect(reduceSwap(processing, { type: 'back' })).toBe(processing)
    const posted = reduceSwap(processing, { type: 'receiptPosted', txHash: payment.txHash })
    expect(posted).toMatchObject({ payment: { isReceiptPosted: true } })
    expect(reduceSwap(posted, { type: 'receiptPosted', txHash: `0x${'3'.repeat(64)}` })).toBe(posted)
    expect(reduceSwap(posted, { type: 'succeeded' })).toMatchObject({ step: 'success', target: usdc })
  })

  it('ends on failure with the reason, and a new open starts over', () => {
    const failed = run(
      [
        { type: 'submitted', payment },
        { type: 'failed', message: 'reverted' },
      ],
      run(toConfirm),
    )
    expect(failed).toEqual({ step: 'failure', payment, failureMessage: 'reverted' })
    expect(reduceSwap(failed, { type: 'open' })).toBe(initialSwapState)
  })

  it('refuses an amount or a send outside their steps', () => {
    expect(reduceSwap(initialSwapState, { type: 'setAmount', text: '1' })).toBe(initialSwapState)
    expect(reduceSwap(initialSwapState, { type: 'submitted', payment })).toBe(initialSwapState)
    expect(reduceSwap(initialSwapState, { type: 'continue' })).toBe(initialSwapState)
  })
})
