import { x402Headers } from '@quicklinks/core/api/x402'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { x402Client } from '@x402/core/client'
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http'
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import type { FastifyInstance } from 'fastify'
import type { LocalAccount } from 'viem'
import { expect } from 'vitest'
import { createSession } from '../src/services/sessions/create-session.ts'
import { getOrCreateUser } from '../src/services/users/get-or-create-user.ts'
import { createDepositLink } from './deposit-test-kit.ts'
import type { PaymentScene } from './payment-scene.ts'

/** A Base USDC link of `receiverIndex` (amount optional) for x402 tests. */
export async function createX402Link(scene: PaymentScene, receiverIndex: number, amount?: string) {
  return createDepositLink(scene.testApp.database.db, {
    receiver: scene.devnet.account(receiverIndex).address,
    chainId: 8453,
    token: scene.devnet.token(8453, 'USDC'),
    symbol: 'USDC',
    ...(amount === undefined ? {} : { amount }),
  })
}

/** GET a resource without payment, expecting 402; answers the decoded PAYMENT-REQUIRED. */
export async function readPaymentRequired(app: FastifyInstance, url: string): Promise<PaymentRequired> {
  const response = await app.inject({ method: 'GET', url })
  expect(response.statusCode, response.body).toBe(402)
  const header = response.headers[x402Headers.paymentRequired.toLowerCase()]
  if (typeof header !== 'string') throw new Error('no PAYMENT-REQUIRED header')
  return decodePaymentRequiredHeader(header)
}

/** The requirement of a 402 on one chain. */
export function requirementOn(required: PaymentRequired, chainId: number): PaymentRequirements {
  const found = required.accepts.find((requirement) => requirement.network === `eip155:${chainId}`)
  if (!found) throw new Error(`no requirement on chain ${chainId}: ${JSON.stringify(required.accepts)}`)
  return found
}

/**
 * A payload as the stock client signs it for the requirement on `chainId` (`x402Client` with
 * `@x402/evm`'s exact scheme), its `accepted` then replaced by `accepted` when given: a payer who
 * signed other terms than the offer it claims to accept.
 */
export async function signPayment(
  account: LocalAccount,
  required: PaymentRequired,
  chainId: number,
  signed: Partial<PaymentRequirements> = {},
): Promise<PaymentPayload> {
  const client = new x402Client()
  registerExactEvmScheme(client, { signer: account, networks: [`eip155:${chainId}`] })
  client.setSpendControls(false)
  const offered = requirementOn(required, chainId)
  const payload = await client.createPaymentPayload({ ...required, accepts: [{ ...offered, ...signed }] })
  return { ...payload, accepted: offered }
}

/** GET the resource with a PAYMENT-SIGNATURE. */
export function sendPayment(app: FastifyInstance, url: string, payload: PaymentPayload) {
  return app.inject({
    method: 'GET',
    url,
    headers: { [x402Headers.paymentSignature]: encodePaymentSignatureHeader(payload) },
  })
}

/** The `error` of a 402's PAYMENT-REQUIRED. */
export function readRefusal(response: {
  statusCode: number
  headers: Record<string, unknown>
  body: string
}) {
  expect(response.statusCode, response.body).toBe(402)
  const header = response.headers[x402Headers.paymentRequired.toLowerCase()]
  if (typeof header !== 'string') throw new Error('no PAYMENT-REQUIRED header')
  return decodePaymentRequiredHeader(header).error
}

/** GET /api/payments as the user of `address` (a session made through the service), answering its rows. */
export async function listPaymentsAs(
  app: FastifyInstance,
  db: Database,
  address: `0x${string}`,
): Promise<{ intentId: string; state: string; payer: string; amountReceived: string | null }[]> {
  const user = await getOrCreateUser(db, { address })
  const { token } = await createSession(db, { userId: user.id })
  const response = await app.inject({ method: 'GET', url: '/api/payments', cookies: { ql_session: token } })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data
}
