import { buildRefundAddressMessage, type DepositResponse } from '@quicklinks/core/api/deposits'
import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { getAddress, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, createTestDatabase, type TestApp } from '../../../test/build-test-app.ts'
import {
  createDepositLink,
  createTestDeposit,
  runDepositRound,
  sendTokenTransfer,
} from '../../../test/deposit-test-kit.ts'
import {
  getDevnetRelayerPrivateKey,
  type PaymentDevnet,
  postJson,
  startPaymentDevnet,
} from '../../../test/payment-test-kit.ts'

// POST /api/pay/deposits/{id}/refund-address (docs/decisions/0032): the sender of a transfer into a
// deposit without a refund address names another one by signing a message. Only the sender may,
// only for this deposit, only before the message expires and before the refund is sent.

let devnet: PaymentDevnet
let database: DatabaseClient
let app: TestApp
const chainId = 8453
const senderIndex = 4
const strangerIndex = 5
const newAddressIndex = 6

beforeAll(async () => {
  devnet = await startPaymentDevnet()
  database = await createTestDatabase()
  app = await buildTestApp(
    {
      devMode: true,
      devnetDeploymentFile: devnet.deploymentFile,
      relayerPrivateKey: getDevnetRelayerPrivateKey(),
      workerIntervalMs: 100,
    },
    { database },
  )
})
afterAll(async () => {
  await app?.app.close()
  await database?.close()
  await devnet?.stop()
})

const usdc = () => devnet.token(chainId, 'USDC')
const inAMinute = () => new Date(Date.now() + 60_000).toISOString()

/** A Base USDC deposit (no refund address) into which the sender sent an unlisted-for-now amount. */
async function fundedDeposit(body: Record<string, unknown> = {}) {
  const link = await createDepositLink(database.db, {
    receiver: devnet.account(2).address,
    chainId,
    token: usdc(),
    symbol: 'USDC',
    amount: '10',
  })
  const deposit = await createTestDeposit(app.app, link.slug, body)
  // Short of the link's amount: it waits for the rest, then is refunded to its sender.
  await sendTokenTransfer(devnet, chainId, senderIndex, usdc(), deposit.address, parseUnits('2', 6))
  await runDepositRound(app.app, chainId)
  return deposit
}

/** The signed request as the status page sends it, signed by `signerIndex` (for `claimed`, if given). */
async function signRequest(
  deposit: Pick<DepositResponse, 'id'>,
  options: {
    signerIndex: number
    claimed?: `0x${string}`
    expiresAt?: string
    refundAddress?: `0x${string}`
  },
) {
  const refundAddress = options.refundAddress ?? devnet.account(newAddressIndex).address
  const expiresAt = options.expiresAt ?? inAMinute()
  const message = buildRefundAddressMessage({ depositId: deposit.id, refundAddress, expiresAt }, getAddress)
  const signature = await devnet.wallet(chainId, options.signerIndex).signMessage({ message })
  const signer = options.claimed ?? devnet.account(options.signerIndex).address
  return { refundAddress, signer, expiresAt, signature }
}

const post = (depositId: string, body: unknown, remoteAddress?: string) =>
  postJson(app.app, `/api/pay/deposits/${depositId}/refund-address`, body, remoteAddress)

describe('naming another refund address', { timeout: 120_000 }, () => {
  it('refuses another address signing, a signature over another deposit, and an expired or distant message', async () => {
    const deposit = await fundedDeposit()
    const other = await fundedDeposit()
    const sender = devnet.account(senderIndex).address

    const stranger = await post(deposit.id, await signRequest(deposit, { signerIndex: strangerIndex }))
    expect(stranger.statusCode, stranger.body).toBe(403)
    expect(stranger.json().error.message).toMatch(/Only an address that sent funds/)

    const forged = await post(
      deposit.id,
      await signRequest(deposit, { signerIndex: strangerIndex, claimed: sender }),
    )
    expect(forged.statusCode, forged.body).toBe(403)
    expect(forged.json().error.message).toMatch(/signature is not/)

    // The sender's valid signature for the other deposit, replayed on this one.
    const replayed = await post(deposit.id, await signRequest(other, { signerIndex: senderIndex }))
    expect(replayed.statusCode, replayed.body).toBe(403)

    const expired = await signRequest(deposit, {
      signerIndex: senderIndex,
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    })
    expect((await post(deposit.id, expired)).statusCode).toBe(422)
    const distant = await signRequest(deposit, {
      signerIndex: senderIndex,
      expiresAt: new Date(Date.now() + 3 * 3600_000).toISOString(),
    })
    expect((await post(deposit.id, distant)).statusCode).toBe(422)

    const read = await app.app.inject({ method: 'GET', url: `/api/pay/deposits/${deposit.id}` })
    expect((read.json().data as DepositResponse).transfers[0]?.refundTo).toBe(sender)
  })

  it('refuses a deposit whose refund address is fixed in its contract', async () => {
    const fixed = devnet.account(7).address
    const deposit = await fundedDeposit({ refundAddress: fixed })
    const answer = await post(deposit.id, await signRequest(deposit, { signerIndex: senderIndex }))
    expect(answer.statusCode, answer.body).toBe(422)
    expect(answer.json().error.message).toContain(fixed)
  })

  it('is rate limited', async () => {
    const deposit = { id: '00000000-0000-4000-8000-000000000000' }
    const body = await signRequest(deposit, { signerIndex: senderIndex })
    const codes: number[] = []
    for (let index = 0; index < 11; index++) codes.push((await post(deposit.id, body, '10.9.9.9')).statusCode)
    expect(codes.slice(0, 10).every((code) => code === 404)).toBe(true)
    expect(codes[10]).toBe(429)
  })

  // Last: it moves Base's clock and the watcher's past the deposits' expiry.
  it('the sender names another address; the refund goes there; an older message and a late one are refused', async () => {
    const deposit = await fundedDeposit()
    const newAddress = devnet.account(newAddressIndex).address
    const later = new Date(Date.now() + 120_000).toISOString()
    const named = await post(
      deposit.id,
      await signRequest(deposit, { signerIndex: senderIndex, expiresAt: later }),
    )
    expect(named.statusCode, named.body).toBe(200)
    expect((named.json().data as DepositResponse).transfers[0]?.refundTo).toBe(newAddress)

    // An older signature (it expires sooner) naming the sender again cannot undo the newer choice.
    const older = await signRequest(deposit, {
      signerIndex: senderIndex,
      refundAddress: devnet.account(senderIndex).address,
    })
    const undo = await post(deposit.id, older)
    expect(undo.statusCode, undo.body).toBe(409)

    const before = await devnet.balanceOf(chainId, usdc(), newAddress)
    const client = devnet.publicClient(chainId)
    await client.request({ method: 'evm_increaseTime' as never, params: [3700] as never })
    await client.request({ method: 'evm_mine' as never, params: [] as never })
    const later61 = () => Date.now() + 61 * 60_000
    await runDepositRound(app.app, chainId, later61)
    const read = await app.app.inject({ method: 'GET', url: `/api/pay/deposits/${deposit.id}` })
    expect((read.json().data as DepositResponse).transfers[0]?.state).toBe('refunded')
    expect((await devnet.balanceOf(chainId, usdc(), newAddress)) - before).toBe(parseUnits('2', 6))

    const afterRefund = await post(deposit.id, await signRequest(deposit, { signerIndex: senderIndex }))
    expect(afterRefund.statusCode, afterRefund.body).toBe(409)
    expect(afterRefund.json().error.message).toMatch(/already sent/)
  })
})
