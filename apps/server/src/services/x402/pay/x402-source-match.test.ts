import { concatHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { isX402Intent, matchSourceTransaction } from '../../payments/tracking/match-source-transaction.ts'
import { type ExactEvmPayload, encodeTransferWithAuthorization } from './store-x402-intent.ts'

// The tracker's match of an x402 payment's mined transaction (docs/decisions/0031): the token's
// transferWithAuthorization with the payer's authorization, submitted by anyone.

const payer = privateKeyToAccount(`0x${'01'.repeat(32)}`)
const token = `0x${'33'.repeat(20)}` as const
const facilitator = `0x${'99'.repeat(20)}` as const

async function buildPayload(): Promise<ExactEvmPayload> {
  const authorization = {
    from: payer.address,
    to: `0x${'44'.repeat(20)}` as const,
    value: '5000000',
    validAfter: '0',
    validBefore: '9999999999',
    nonce: `0x${'ab'.repeat(32)}` as Hex,
  }
  const signature = await payer.signMessage({ message: 'any 65-byte signature' })
  return { signature, authorization }
}

async function buildIntent(isX402: boolean) {
  const data = encodeTransferWithAuthorization(await buildPayload())
  return {
    fromChainId: 8453,
    fromAddress: payer.address.toLowerCase(),
    transactionRequest: { to: token, data, value: '0', ...(isX402 ? { x402: true } : {}) },
  }
}

describe('matching an x402 payment', () => {
  it("takes the authorization's call from any sender, with or without a data suffix", async () => {
    const intent = await buildIntent(true)
    const data = intent.transactionRequest.data
    expect(isX402Intent(intent)).toBe(true)
    expect(
      matchSourceTransaction(intent, { from: facilitator, to: token, input: data, value: 0n, chainId: 8453 }),
    ).toBe(null)
    const suffixed = concatHex([data, '0xdeadbeef'])
    expect(
      matchSourceTransaction(intent, {
        from: facilitator,
        to: token,
        input: suffixed,
        value: 0n,
        chainId: 8453,
      }),
    ).toBe(null)
  })

  it('still refuses another call, another token or another chain', async () => {
    const intent = await buildIntent(true)
    const data = intent.transactionRequest.data
    const other = encodeTransferWithAuthorization({
      ...(await buildPayload()),
      authorization: { ...(await buildPayload()).authorization, value: '4999999' },
    })
    expect(
      matchSourceTransaction(intent, {
        from: facilitator,
        to: token,
        input: other,
        value: 0n,
        chainId: 8453,
      }),
    ).toBe("its calldata is not the route's (receiver, token or amount differ)")
    expect(
      matchSourceTransaction(intent, {
        from: facilitator,
        to: facilitator,
        input: data,
        value: 0n,
        chainId: 8453,
      }),
    ).toBe("it calls another contract than the route's")
    expect(
      matchSourceTransaction(intent, { from: facilitator, to: token, input: data, value: 0n, chainId: 10 }),
    ).toBe('it was sent on chain 10, not 8453')
  })

  it('a route that is not x402 keeps asking for the payer as sender and the exact calldata', async () => {
    const intent = await buildIntent(false)
    const data = intent.transactionRequest.data
    expect(isX402Intent(intent)).toBe(false)
    expect(
      matchSourceTransaction(intent, { from: facilitator, to: token, input: data, value: 0n, chainId: 8453 }),
    ).toBe('it was sent by another wallet than the payer')
    expect(
      matchSourceTransaction(intent, {
        from: payer.address,
        to: token,
        input: concatHex([data, '0xdeadbeef']),
        value: 0n,
        chainId: 8453,
      }),
    ).toBe("its calldata is not the route's (receiver, token or amount differ)")
  })
})
