import { describe, expect, it } from 'vitest'
import { buildTransactionRecordAnswer } from '../../../test/build-transaction-record-answer'
import { getReceivedSentence, listPaymentTransactions } from './success-summary'
import { toTransactionRecord } from './transaction-record'

const source = `0x${'a1'.repeat(32)}`
const destination = `0x${'b2'.repeat(32)}`

function record(overrides: Record<string, unknown>) {
  return toTransactionRecord(buildTransactionRecordAnswer({ status_raw: 'success', ...overrides }))
}

describe('getReceivedSentence', () => {
  it('names what the receiver got from the verified amount, in the link token, up to 6 decimals', () => {
    const sentence = getReceivedSentence({
      linkName: 'Acceptance 40024',
      record: record({ to_amount_wei: '2990999' }),
      linkToken: { symbol: 'USDC', decimals: 6 },
      chainName: 'Base',
    })
    expect(sentence).toBe('Acceptance 40024 received 2.990999 USDC on Base.')
    // 18 decimals are cut (never rounded up) to 6.
    expect(
      getReceivedSentence({
        linkName: 'Tips',
        record: record({ to_amount_wei: '1234567890123456789' }),
        linkToken: { symbol: 'AVAX', decimals: 18 },
        chainName: 'Avalanche',
      }),
    ).toBe('Tips received 1.234567 AVAX on Avalanche.')
  })

  it('falls back to the token the route delivers when the catalogue has no link token', () => {
    const withRoute = record({
      to_amount_wei: '5000000',
      route_path: [{ type: 'transfer', toToken: { symbol: 'USDT', decimals: 6 } }],
    })
    expect(
      getReceivedSentence({
        linkName: 'Shop',
        record: withRoute,
        linkToken: undefined,
        chainName: 'Arbitrum',
      }),
    ).toBe('Shop received 5 USDT on Arbitrum.')
  })

  it('is null without a verified amount or a token, so the step keeps its older sentence', () => {
    const base = { linkName: 'Shop', linkToken: { symbol: 'USDC', decimals: 6 }, chainName: 'Base' }
    expect(getReceivedSentence({ ...base, record: null })).toBeNull()
    expect(getReceivedSentence({ ...base, record: record({ to_amount_wei: null }) })).toBeNull()
    expect(
      getReceivedSentence({ ...base, linkToken: undefined, record: record({ to_amount_wei: '1' }) }),
    ).toBeNull()
  })
})

describe('listPaymentTransactions', () => {
  it('lists the source and the destination of a cross-chain payment', () => {
    expect(
      listPaymentTransactions({
        sourceTxHash: source,
        sourceTxUrl: 'https://a/tx',
        destTxHash: destination,
        destTxUrl: 'https://b/tx',
      }),
    ).toEqual([
      { label: 'Source transaction', hash: source, url: 'https://a/tx' },
      { label: 'Destination transaction', hash: destination, url: 'https://b/tx' },
    ])
  })

  it('lists one transaction when the payment delivered itself, or has no destination yet', () => {
    const one = [{ label: 'Transaction', hash: source, url: 'https://a/tx' }]
    expect(
      listPaymentTransactions({
        sourceTxHash: source,
        sourceTxUrl: 'https://a/tx',
        destTxHash: source.toUpperCase().replace('0X', '0x'),
        destTxUrl: 'https://a/tx',
      }),
    ).toEqual(one)
    expect(
      listPaymentTransactions({
        sourceTxHash: source,
        sourceTxUrl: 'https://a/tx',
        destTxHash: null,
        destTxUrl: null,
      }),
    ).toEqual(one)
    expect(
      listPaymentTransactions({ sourceTxHash: null, sourceTxUrl: null, destTxHash: null, destTxUrl: null }),
    ).toEqual([])
  })
})
