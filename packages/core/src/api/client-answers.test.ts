import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { nativeTokenAddress } from '../native-token-address.ts'
import {
  invalidRouteMessage,
  routeAnswerSchema,
  routeIntentAnswerSchema,
  transactionRecordAnswerSchema,
  walletBalancesAnswerSchema,
} from './client-answers.ts'

const usdc = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const usdt = '0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2'
const router = '0xce16F69375520ab01377ce7B88f5BA8C48F8D666'
const hash = `0x${'ab'.repeat(32)}`

const nativeEntry = { native: true, balance: '5' }
const usdcEntry = { address: usdc, symbol: 'USDC', decimals: 6, balance: '7' }

const readBalances = (body: unknown) => z.parse(walletBalancesAnswerSchema, body)

describe('the balances answer a client reads (docs/api.md#client-tolerance)', () => {
  it('reads a token under any of its spellings: contract, token_address or address', () => {
    const entries = readBalances([
      { contract: usdc, symbol: 'USDC', decimals: 6, balance: '1' },
      { token_address: usdt, symbol: 'USDT', decimals: 6, balance: 2 },
      { address: usdc, symbol: 'USDC', decimals: '6', balance: '3' },
    ])
    expect(entries.map((entry) => [entry.address, entry.symbol, entry.decimals, entry.balance])).toEqual([
      [usdc, 'USDC', 6, '1'],
      [usdt, 'USDT', 6, '2'],
      [usdc, 'USDC', 6, '3'],
    ])
  })

  it('drops an entry that is still not valid, and only that one', () => {
    const entries = readBalances([
      usdcEntry,
      { symbol: 'NOADDR', decimals: 6, balance: '1' },
      'junk',
      nativeEntry,
    ])
    expect(entries.map((entry) => entry.symbol)).toEqual(['USDC', ''])
  })

  it('gives a native entry decimals 18 (and the placeholder address) when it names none; an ERC-20 needs its own', () => {
    const entries = readBalances([
      { category: 'native', symbol: 'ETH', balance: '9' },
      { address: usdc, symbol: 'USDC', balance: '1' },
    ])
    expect(entries).toEqual([
      { address: nativeTokenAddress, symbol: 'ETH', decimals: 18, balance: '9', native: true },
    ])
  })

  it('reads the answer as a bare list, under data, or under balances', () => {
    for (const body of [[usdcEntry], { data: [usdcEntry] }, { balances: [usdcEntry] }]) {
      expect(
        readBalances(body).map((entry) => entry.address),
        JSON.stringify(body),
      ).toEqual([usdc])
    }
    expect(z.safeParse(walletBalancesAnswerSchema, { items: [usdcEntry] }).success).toBe(false)
  })
})

const snakeRecord = {
  id: hash,
  intent_id: hash,
  from_chain_id: 8453,
  to_chain_id: 43114,
  source_tx_hash: hash,
  dest_tx_hash: null,
  request_id: null,
  transaction_request: { to: router, target: router, data: '0x12', value: '0' },
  status_raw: 'success',
  route_path: [],
  route_status: [],
  status: 'success',
  is_refunded: false,
  to_amount_wei: '10',
  time_spent_ms: 1200,
  from_chain_tx_url: null,
  to_chain_tx_url: null,
  gas_status: null,
  is_gmp_transaction: false,
  axelar_transaction_url: null,
  error_message: null,
  create_date: '2026-01-01T00:00:00.000Z',
  update_date: '2026-01-01T00:00:01.000Z',
}

describe('the transaction record a client reads', () => {
  it('reads a record spelled in camelCase as the snake_case one', () => {
    const camel = Object.fromEntries(
      Object.entries(snakeRecord).map(([key, value]) => [
        key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()),
        value,
      ]),
    )
    expect(camel).toHaveProperty('sourceTxHash', hash)
    expect(z.parse(transactionRecordAnswerSchema, camel)).toEqual(
      z.parse(transactionRecordAnswerSchema, snakeRecord),
    )
    expect(z.parse(routeIntentAnswerSchema, { data: camel }).data.intent_id).toBe(hash)
  })

  it("reads a transaction request's address under to or target, filling both", () => {
    for (const request of [
      { to: router, data: '0x12', value: '0' },
      { target: router, data: '0x12', value: '0' },
    ]) {
      const record = z.parse(transactionRecordAnswerSchema, { ...snakeRecord, transaction_request: request })
      expect(record.transaction_request).toMatchObject({ to: router, target: router })
    }
  })
})

const estimate = { fromAmount: '5', toAmount: '5', toAmountMin: '5', estimatedRouteDuration: 3, actions: [] }

describe('the route answer a client reads', () => {
  it("reads the transaction's address under to or target, the answer under data or at the top level", () => {
    const fromTarget = z.parse(routeAnswerSchema, {
      data: {
        intentId: hash,
        route: { transactionRequest: { target: router, data: '0x12', value: '1' }, estimate, spender: null },
      },
    })
    expect(fromTarget.data.route.transactionRequest).toMatchObject({ to: router, target: router })
    const topLevel = z.parse(routeAnswerSchema, {
      intentId: hash,
      route: { transactionRequest: { to: router, data: '0x12', value: '1' }, estimate, spender: null },
    })
    expect(topLevel.data.route.transactionRequest).toMatchObject({ to: router, target: router })
  })

  it(`reads a route without a transaction request (or without data or an address) as null: "${invalidRouteMessage}"`, () => {
    expect(invalidRouteMessage).toBe('Invalid route: missing transactionRequest target/data')
    for (const transactionRequest of [
      undefined,
      { to: router, value: '0' },
      { to: '0xnope', data: '0x12', value: '0' },
    ]) {
      const answer = z.parse(routeAnswerSchema, {
        data: { intentId: hash, route: { transactionRequest, estimate, spender: null } },
      })
      expect(answer.data.route.transactionRequest, JSON.stringify(transactionRequest)).toBeNull()
    }
  })
})
