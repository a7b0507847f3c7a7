import { getDepositAddress } from '@quicklinks/contracts/deposit-address'
import { depositFactoryAbi } from '@quicklinks/contracts/generated/deposit-factory'
import { nativeTokenAddress, zeroAddress } from '@quicklinks/core/native-token-address'
import { parse } from 'eth-url-parser'
import { getAddress, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { createDepositLink, createTestDeposit, readTestDeposit } from '../../../test/deposit-test-kit.ts'
import { usePaymentScene } from '../../../test/payment-scene.ts'
import { postJson } from '../../../test/payment-test-kit.ts'
import { getDepositOperatorAccount } from '../../services/payments/deposits/get-deposit-setup.ts'

// POST /api/pay/links/{slug}/deposits and GET /api/pay/deposits/{id} on the devnet: one address on
// every chain (the factory on each chain agrees), EIP-681 URIs that an independent parser reads back.

const scene = usePaymentScene()
const receiverIndex = 2

async function createBaseUsdcLink(amount?: string) {
  return createDepositLink(scene.testApp.database.db, {
    receiver: scene.devnet.account(receiverIndex).address,
    chainId: 8453,
    token: scene.devnet.token(8453, 'USDC'),
    symbol: 'USDC',
    ...(amount ? { amount } : {}),
  })
}

describe('deposit addresses', { timeout: 60_000 }, () => {
  it('answers one address that every chain’s factory computes alike, with the link’s amount', async () => {
    const link = await createBaseUsdcLink('12.5')
    const refundAddress = scene.devnet.account(5).address
    const deposit = await createTestDeposit(scene.testApp.app, link.slug, { refundAddress })
    expect(deposit.amount).toBe('12.5')
    expect(deposit.state).toBe('open')
    expect(deposit.refundAddress).toBe(refundAddress)
    expect(deposit.chains.map((chain) => chain.chainId).sort((a, b) => a - b)).toEqual([8453, 42161, 43114])
    const expiresAt = Date.parse(deposit.expiresAt)
    expect(expiresAt - Date.now()).toBeGreaterThan(55 * 60_000)

    const operator = getDepositOperatorAccount({ devMode: true, depositOperatorPrivateKey: undefined })
    if (!operator) throw new Error('no operator')
    const chain = scene.devnet.chain(8453)
    const terms = {
      depositId: `0x${'0'.repeat(32)}${deposit.id.replaceAll('-', '')}` as `0x${string}`,
      payRouter: chain.contracts.payRouter,
      receiver: scene.devnet.account(receiverIndex).address,
      destinationChainId: 8453n,
      destinationToken: scene.devnet.token(8453, 'USDC'),
      refundAddress,
      expiresAt: BigInt(expiresAt / 1000),
    }
    expect(getDepositAddress(operator.address, terms)).toBe(deposit.address)
    for (const chainId of [8453, 43114, 42161]) {
      const factory = scene.devnet.chain(chainId).contracts.depositFactory
      if (!factory) throw new Error(`no deposit factory on ${chainId}`)
      const onChain = await scene.devnet.publicClient(chainId).readContract({
        address: factory,
        abi: depositFactoryAbi,
        functionName: 'addressOf',
        args: [terms],
      })
      expect(onChain).toBe(deposit.address)
    }
    expect(await readTestDeposit(scene.testApp.app, deposit.id)).toMatchObject({
      id: deposit.id,
      address: deposit.address,
      transfers: [],
    })
  })

  it('gives EIP-681 URIs that eth-url-parser reads back to the address, chain and amount', async () => {
    const link = await createBaseUsdcLink('12.5')
    const deposit = await createTestDeposit(scene.testApp.app, link.slug)
    expect(deposit.refundAddress).toBeNull()
    for (const chain of deposit.chains) {
      const usdc = chain.tokens.find((token) => token.symbol === 'USDC')
      if (!usdc) throw new Error(`no USDC on ${chain.chainId}`)
      const parsed = parse(usdc.uri)
      expect(parsed.scheme).toBe('ethereum')
      expect(getAddress(parsed.target_address)).toBe(getAddress(scene.devnet.token(chain.chainId, 'USDC')))
      expect(Number(parsed.chain_id)).toBe(chain.chainId)
      expect(parsed.function_name).toBe('transfer')
      expect(getAddress(parsed.parameters?.address ?? '')).toBe(deposit.address)
      expect(BigInt(parsed.parameters?.uint256 ?? '')).toBe(parseUnits('12.5', 6))

      const native = chain.tokens.find((token) => token.address === getAddress(nativeTokenAddress))
      if (!native) throw new Error(`no native token on ${chain.chainId}`)
      const parsedNative = parse(native.uri)
      expect(getAddress(parsedNative.target_address)).toBe(deposit.address)
      expect(Number(parsedNative.chain_id)).toBe(chain.chainId)
      expect(parsedNative.function_name).toBeUndefined()
      // Priced from the pools with a margin: more than the dollar amount at the seeded price, not wildly so.
      const wei = BigInt(parsedNative.parameters?.value ?? '0')
      expect(wei.toString()).toBe(native.amountUnits)
      const price = chain.chainId === 43114 ? 30 : 3000
      const fair = (12.5 / price) * 1e18
      expect(Number(wei)).toBeGreaterThan(fair)
      expect(Number(wei)).toBeLessThan(fair * 1.05)
    }
  })

  it('names no amount for a link without one unless the payer gives it', async () => {
    const link = await createBaseUsdcLink()
    const open = await createTestDeposit(scene.testApp.app, link.slug)
    expect(open.amount).toBeUndefined()
    const usdc = open.chains[0]?.tokens.find((token) => token.symbol === 'USDC')
    expect(parse(usdc?.uri ?? '').parameters).toEqual({ address: open.address })
    const chosen = await createTestDeposit(scene.testApp.app, link.slug, { amount: '3' })
    expect(chosen.amount).toBe('3')
    expect(chosen.address).not.toBe(open.address)
  })

  it('refuses an unknown link, a malformed refund address and an unknown deposit', async () => {
    const unknown = await postJson(scene.testApp.app, '/api/pay/links/no-such-link/deposits', {})
    expect(unknown.statusCode).toBe(404)
    const link = await createBaseUsdcLink()
    const bad = await postJson(scene.testApp.app, `/api/pay/links/${link.slug}/deposits`, {
      refundAddress: zeroAddress.slice(0, 20),
    })
    expect(bad.statusCode).toBe(422)
    expect(bad.body).toContain('refundAddress')
    const missing = await scene.testApp.app.inject({
      method: 'GET',
      url: '/api/pay/deposits/00000000-0000-4000-8000-000000000000',
    })
    expect(missing.statusCode).toBe(404)
  })
})
