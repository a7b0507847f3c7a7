import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { nativeTokenAddress, zeroAddress } from '../native-token-address.ts'
import { bothAmountsMessage, routeRequestBodySchema } from './route-request.ts'

const payer = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const receiver = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const usdc = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'
const valid = {
  fromChain: 8453,
  toChain: '8453',
  fromToken: zeroAddress,
  toToken: usdc,
  fromAmount: '1000000000000000',
  fromAddress: payer,
  toAddress: receiver,
}

/** The first issue's field and sentence, as the API's 422 names them. */
function firstProblem(body: unknown): { field: string; message: string } | null {
  const parsed = z.safeParse(routeRequestBodySchema, body)
  if (parsed.success) return null
  const [issue] = parsed.error.issues
  return { field: issue?.path.join('.') || 'body', message: issue?.message ?? '' }
}

describe('routeRequestBodySchema', () => {
  it('reads ids and amounts as numbers or digits, checksums addresses, writes native as the all-e placeholder', () => {
    expect(z.parse(routeRequestBodySchema, { ...valid, fromAmount: ' 5 ', slippage: '0.5' })).toEqual({
      linkId: null,
      invoiceId: null,
      fromChain: 8453,
      toChain: 8453,
      fromToken: nativeTokenAddress,
      toToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      fromAmount: 5n,
      fromAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      toAddress: receiver,
      slippage: 0.5,
    })
  })

  it('defaults slippage to 1 % when absent, null or empty, and lowercases the link id', () => {
    const linkId = 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'
    for (const slippage of [undefined, null, '']) {
      expect(z.parse(routeRequestBodySchema, { ...valid, slippage, linkId }).slippage).toBe(1)
    }
    expect(z.parse(routeRequestBodySchema, { ...valid, linkId }).linkId).toBe(linkId.toLowerCase())
    expect(z.parse(routeRequestBodySchema, { ...valid, linkId: '' }).linkId).toBeNull()
  })

  it('keeps an invoice id as sent, and reads an absent, null or empty one as none', () => {
    const invoiceId = 'inv_AbCdEfGhIjKlMnOpQrSt_-'
    expect(z.parse(routeRequestBodySchema, { ...valid, invoiceId }).invoiceId).toBe(invoiceId)
    for (const none of [undefined, null, '']) {
      expect(z.parse(routeRequestBodySchema, { ...valid, invoiceId: none }).invoiceId).toBeNull()
    }
  })

  it("names the first bad field with today's sentences", () => {
    const cases: [unknown, string, string][] = [
      ['x', 'body', 'Send the route request as a JSON object.'],
      [null, 'body', 'Send the route request as a JSON object.'],
      [{}, 'fromChain', 'fromChain must be a chain id such as 8453.'],
      [{ ...valid, fromChain: 'base' }, 'fromChain', 'fromChain must be a chain id such as 8453.'],
      [{ ...valid, toChain: 0 }, 'toChain', 'toChain must be a chain id such as 8453.'],
      [{ ...valid, toChain: 1.5 }, 'toChain', 'toChain must be a chain id such as 8453.'],
      [
        { ...valid, fromToken: 'ETH' },
        'fromToken',
        'fromToken must be a token address (0x followed by 40 hex digits).',
      ],
      [
        { ...valid, toToken: undefined },
        'toToken',
        'toToken must be a token address (0x followed by 40 hex digits).',
      ],
      [
        { ...valid, fromAmount: '0' },
        'fromAmount',
        "fromAmount must be a positive integer in the token's smallest unit.",
      ],
      [
        { ...valid, fromAmount: '1.5' },
        'fromAmount',
        "fromAmount must be a positive integer in the token's smallest unit.",
      ],
      [
        { ...valid, fromAmount: 2 ** 60 },
        'fromAmount',
        "fromAmount must be a positive integer in the token's smallest unit.",
      ],
      [
        { ...valid, fromAmount: undefined },
        'fromAmount',
        "fromAmount must be a positive integer in the token's smallest unit.",
      ],
      [
        { ...valid, fromAddress: '0x123' },
        'fromAddress',
        'fromAddress must be the paying wallet address (0x followed by 40 hex digits).',
      ],
      [
        { ...valid, toAddress: 7 },
        'toAddress',
        "toAddress must be the receiver's address (0x followed by 40 hex digits).",
      ],
      [{ ...valid, slippage: 80 }, 'slippage', 'slippage must be a percentage from 0 to 50.'],
      [{ ...valid, slippage: 'lots' }, 'slippage', 'slippage must be a percentage from 0 to 50.'],
      [{ ...valid, slippage: -1 }, 'slippage', 'slippage must be a percentage from 0 to 50.'],
      [{ ...valid, linkId: 'x' }, 'linkId', 'linkId must be a link id (a UUID).'],
      // linkId is checked first, as the server always has.
      [{ linkId: 42 }, 'linkId', 'linkId must be a link id (a UUID).'],
      [
        { ...valid, invoiceId: 'inv_short' },
        'invoiceId',
        'invoiceId must be an invoice id (inv_ followed by 22 characters).',
      ],
      [{ invoiceId: 7 }, 'invoiceId', 'invoiceId must be an invoice id (inv_ followed by 22 characters).'],
    ]
    for (const [body, field, message] of cases) {
      expect(firstProblem(body), JSON.stringify(body)).toEqual({ field, message })
    }
  })

  it('takes toAmount (exact output) instead of fromAmount, and refuses both or neither', () => {
    const { fromAmount: _omitted, ...withoutAmount } = valid
    const parsed = z.parse(routeRequestBodySchema, { ...withoutAmount, toAmount: '2500000' })
    expect(parsed.toAmount).toBe(2_500_000n)
    expect(parsed.fromAmount).toBeUndefined()
    expect(firstProblem({ ...valid, toAmount: '5' })).toEqual({
      field: 'toAmount',
      message: bothAmountsMessage,
    })
    expect(firstProblem({ ...withoutAmount, toAmount: '0' })).toEqual({
      field: 'toAmount',
      message: "toAmount must be a positive integer in the token's smallest unit.",
    })
    expect(firstProblem(withoutAmount)).toEqual({
      field: 'fromAmount',
      message: "fromAmount must be a positive integer in the token's smallest unit.",
    })
  })
})
