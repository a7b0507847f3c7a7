import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import {
  type X402SettleResponse,
  x402SettleResponseSchema,
  x402VerifyResponseSchema,
} from '@quicklinks/core/api/x402'
import { validatePaymentPayload, validatePaymentRequirements } from '@x402/core/schemas'
import { HTTPFacilitatorClient } from '@x402/core/server'
import type { PaymentPayload, PaymentRequirements, VerifyResponse } from '@x402/core/types'
import type { FastifyInstance } from 'fastify'
import { type Hash, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp } from '../../../test/build-test-app.ts'
import { usePaymentScene } from '../../../test/payment-scene.ts'
import { getDevnetRelayerPrivateKey } from '../../../test/payment-test-kit.ts'
import { waitUntil } from '../../../test/wait-until.ts'
import {
  readTransfers,
  signX402Payment,
  usdcRequirements,
  x402PayerIndex,
  x402ReceiverIndex,
} from '../../../test/x402-test-kit.ts'

// POST /x402/facilitator/verify and /settle (docs/decisions/0031) on the devnet: payloads signed by
// @x402/evm's client scheme with a viem account, for Base USDC (EIP-3009, "USD Coin" version 2);
// answers read by our schemas and by @x402/core's HTTPFacilitatorClient (its own schemas).

const scene = usePaymentScene()
const base = 8453
let facilitatorUrl = ''

beforeAll(async () => {
  const address = await scene.testApp.app.listen({ port: 0, host: '127.0.0.1' })
  facilitatorUrl = `${address}/x402/facilitator`
})

const post = (app: FastifyInstance, path: 'verify' | 'settle', body: unknown) =>
  app.inject({ method: 'POST', url: `/x402/facilitator/${path}`, payload: body as object })

const request = (payload: PaymentPayload, requirements: PaymentRequirements) => ({
  x402Version: 2,
  paymentPayload: payload,
  paymentRequirements: requirements,
})

const offer = (amount = parseUnits('1', 6)) =>
  usdcRequirements(scene.devnet, base, scene.devnet.account(x402ReceiverIndex).address, amount)

const balances = async (): Promise<[payer: bigint, receiver: bigint]> => {
  const { devnet } = scene
  const usdc = devnet.token(base, 'USDC')
  return [
    await devnet.balanceOf(base, usdc, devnet.account(x402PayerIndex).address),
    await devnet.balanceOf(base, usdc, devnet.account(x402ReceiverIndex).address),
  ]
}

const settleOverHttp = async (
  app: FastifyInstance,
  payload: PaymentPayload,
  requirements: PaymentRequirements,
) => {
  const response = await post(app, 'settle', request(payload, requirements))
  expect(response.statusCode).toBe(200)
  return x402SettleResponseSchema.parse(response.json())
}

describe('POST /x402/facilitator/verify and /settle', { timeout: 120_000 }, () => {
  it('verifies and settles a valid payload, in the specification shapes our schemas and @x402/core read', async () => {
    const { devnet, testApp } = scene
    const requirements = offer()
    const payload = await signX402Payment(devnet, x402PayerIndex, requirements)
    // What we send is what the protocol's schemas accept.
    expect(validatePaymentPayload(payload)).toBeTruthy()
    expect(validatePaymentRequirements(requirements)).toBeTruthy()
    const payer = devnet.account(x402PayerIndex).address

    const verified = await post(testApp.app, 'verify', request(payload, requirements))
    expect(verified.statusCode).toBe(200)
    const verdict: VerifyResponse = x402VerifyResponseSchema.parse(verified.json())
    expect(verdict).toEqual({ isValid: true, payer })
    // @x402/core's own client parses the answer with its schemas.
    const client = new HTTPFacilitatorClient({ url: facilitatorUrl })
    expect(await client.verify(payload, requirements)).toEqual({ isValid: true, payer })

    const [payerBefore, receiverBefore] = await balances()
    const settled = await client.settle(payload, requirements)
    expect(settled).toMatchObject({ success: true, network: 'eip155:8453', payer })
    expect(settled.transaction).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await balances()).toEqual([payerBefore - parseUnits('1', 6), receiverBefore + parseUnits('1', 6)])
    expect(await readTransfers(devnet, base, settled.transaction as Hash)).toHaveLength(1)
  })

  it('refuses 1 unit less, another payTo, a past validBefore, a bad signature and a replay, and nothing moves', async () => {
    const { devnet, testApp } = scene
    const requirements = offer()
    const other = devnet.account(7).address
    const valid = await signX402Payment(devnet, x402PayerIndex, requirements)
    // Settled once first, so the last case is a replay.
    expect((await settleOverHttp(testApp.app, valid, requirements)).success).toBe(true)
    const signature = (valid.payload as { signature: `0x${string}` }).signature
    const badSignature = `${signature.slice(0, 10)}${signature[10] === 'a' ? 'b' : 'a'}${signature.slice(11)}`
    const cases: [string, PaymentPayload, string][] = [
      [
        '1 unit less',
        await signX402Payment(devnet, x402PayerIndex, requirements, (signed) => ({
          ...signed,
          amount: String(BigInt(signed.amount) - 1n),
        })),
        // The maintained library's name (the specification's section 9 has an older one).
        'invalid_exact_evm_payload_authorization_value_mismatch',
      ],
      [
        'another payTo',
        await signX402Payment(devnet, x402PayerIndex, requirements, (signed) => ({
          ...signed,
          payTo: other,
        })),
        'invalid_exact_evm_recipient_mismatch',
      ],
      [
        'a past validBefore',
        await signX402Payment(devnet, x402PayerIndex, requirements, (signed) => ({
          ...signed,
          maxTimeoutSeconds: -60,
        })),
        'invalid_exact_evm_payload_authorization_valid_before',
      ],
      [
        'a bad signature',
        { ...valid, payload: { ...valid.payload, signature: badSignature } },
        'invalid_exact_evm_signature',
      ],
      ['a replay after the settlement', valid, 'invalid_exact_evm_nonce_already_used'],
    ]
    const before = await balances()
    const otherBefore = await devnet.balanceOf(base, devnet.token(base, 'USDC'), other)
    const client = new HTTPFacilitatorClient({ url: facilitatorUrl })
    for (const [name, payload, reason] of cases) {
      const verified = x402VerifyResponseSchema.parse(
        (await post(testApp.app, 'verify', request(payload, requirements))).json(),
      )
      expect(verified, name).toMatchObject({ isValid: false, invalidReason: reason })
      expect(await client.verify(payload, requirements), name).toMatchObject({
        isValid: false,
        invalidReason: reason,
      })
      const settled = await settleOverHttp(testApp.app, payload, requirements)
      expect(settled, name).toMatchObject({ success: false, errorReason: reason, transaction: '' })
      expect((await client.settle(payload, requirements)).errorReason, name).toBe(reason)
    }
    expect(await balances()).toEqual(before)
    expect(await devnet.balanceOf(base, devnet.token(base, 'USDC'), other)).toBe(otherBefore)
  })

  it('answers 400 for a payload that is not x402, and invalid for another x402 version, with no cookie or CSRF token', async () => {
    const { testApp } = scene
    const requirements = offer()
    const malformed = await post(testApp.app, 'verify', {
      x402Version: 2,
      paymentPayload: { x402Version: 2, accepted: { ...requirements, network: 'base' }, payload: {} },
      paymentRequirements: requirements,
    })
    expect(malformed.statusCode).toBe(400)
    expect(errorResponseSchema.parse(malformed.json()).error.message).toMatch(
      /^paymentPayload\.accepted\.network/,
    )
    const v1 = await post(testApp.app, 'settle', {
      x402Version: 1,
      paymentPayload: { x402Version: 1, scheme: 'exact', network: 'base', payload: {} },
      paymentRequirements: requirements,
    })
    expect(v1.statusCode).toBe(200)
    expect(x402SettleResponseSchema.parse(v1.json())).toMatchObject({
      success: false,
      errorReason: 'invalid_x402_version',
      transaction: '',
    })
  })

  it('settles 50 distinct authorizations at once with 50 relayer nonces, and one sent twice at once once', async () => {
    const { devnet, testApp } = scene
    const requirements = offer(parseUnits('0.01', 6))
    const payloads = await Promise.all(
      Array.from({ length: 50 }, () => signX402Payment(devnet, x402PayerIndex, requirements)),
    )
    const [, receiverBefore] = await balances()
    const answers = await Promise.all(
      payloads.map((payload) => settleOverHttp(testApp.app, payload, requirements)),
    )
    expect(answers.filter((answer) => answer.success)).toHaveLength(50)
    const transactions = await Promise.all(
      answers.map((answer) => devnet.publicClient(base).getTransaction({ hash: answer.transaction as Hash })),
    )
    expect(new Set(transactions.map((transaction) => transaction.nonce)).size).toBe(50)
    for (const transaction of transactions) {
      expect(transaction.from.toLowerCase()).toBe(devnet.chain(base).relayer.toLowerCase())
    }
    const [, receiverAfter] = await balances()
    expect(receiverAfter - receiverBefore).toBe(50n * parseUnits('0.01', 6))

    const twice = await signX402Payment(devnet, x402PayerIndex, requirements)
    const pair: X402SettleResponse[] = await Promise.all([
      settleOverHttp(testApp.app, twice, requirements),
      settleOverHttp(testApp.app, twice, requirements),
    ])
    const once = pair.filter((answer) => answer.success)
    expect(once).toHaveLength(1)
    expect(pair.find((answer) => !answer.success)?.errorReason).toBe('invalid_exact_evm_nonce_already_used')
    expect(await readTransfers(devnet, base, once[0]?.transaction as Hash)).toHaveLength(1)
    const [, receiverLast] = await balances()
    expect(receiverLast - receiverAfter).toBe(parseUnits('0.01', 6))
  })

  describe('two app instances on one database', () => {
    let other: Awaited<ReturnType<typeof buildTestApp>> | undefined
    beforeAll(async () => {
      // The same key and database, no workers: never the relayer's writer (the scene's app is).
      other = await buildTestApp(
        {
          devMode: true,
          devnetDeploymentFile: scene.devnet.deploymentFile,
          relayerPrivateKey: getDevnetRelayerPrivateKey(),
        },
        { database: scene.testApp.database },
      )
    })
    afterAll(async () => {
      // Not `close()`: the database is the scene's.
      await other?.app.close()
    })

    it("sends the non-writer's settlement from the writer, once", async () => {
      if (!other) throw new Error('no second instance')
      const { devnet, testApp } = scene
      expect(await other.app.relayerHub?.isWriter()).toBe(false)
      const requirements = offer(parseUnits('0.3', 6))
      const payload = await signX402Payment(devnet, x402PayerIndex, requirements)
      const [, receiverBefore] = await balances()
      const settled = await settleOverHttp(other.app, payload, requirements)
      expect(settled.success).toBe(true)
      const [, receiverAfter] = await balances()
      expect(receiverAfter - receiverBefore).toBe(parseUnits('0.3', 6))
      expect(await readTransfers(devnet, base, settled.transaction as Hash)).toHaveLength(1)
      // The writer's relayer lane signed and sent it; the other instance only queued it.
      // (The answer may come before the writer's log line: it waits for the hash, not the send.)
      await waitUntil(
        () =>
          testApp.logs.some(
            (line) =>
              line.msg === 'Relayer sent a queued x402 settlement' && line.txHash === settled.transaction,
          ),
        10_000,
        "the writer's log of the send",
      )
      expect(other.logs.some((line) => line.msg === 'Relayer sent a queued x402 settlement')).toBe(false)
    })
  })
})
