import { describe, expect, it } from 'vitest'
import { readSquidFixture as fixture } from '../../../../test/recorded-squid-api.ts'
import {
  fromChainId,
  integratorId,
  toChainId,
  useSquidPaymentScene,
} from '../../../../test/squid-payment-scene.ts'

// A Squid-routed payment followed from the route to its transaction record, and the verifier's
// check of what Squid claims on the destination chain (Squid's own failures are in
// squid-payment-failures.test.ts; the scene is test/squid-payment-scene.ts).

const scene = useSquidPaymentScene()

describe('Squid-routed payments, from POST /api/squid/route to the transaction record', {
  timeout: 60_000,
}, () => {
  it('goes from bridging (ongoing) to success once the transfer Squid names is found on the destination chain', async () => {
    const { rounds, payThroughSquid, deliver, waitForRecord, statusCallsFor, expectBridging } = scene
    // Squid has not indexed the transaction yet (404): the mined source keeps the record bridging,
    // never back at submitted, and tracking goes on.
    scene.statusReply = null
    const { built, hash, payer, receiver, toAmountMin } = await payThroughSquid(1)
    expect(built.route.estimate.actions.map((action) => action.type)).toEqual(['bridge', 'transfer'])
    const unknown = await waitForRecord(
      payer,
      built.intentId,
      (candidate) => candidate.status_raw === 'ongoing' && statusCallsFor(hash).length >= 2,
    )
    expect(unknown).toMatchObject({ status: 'bridging', source_tx_hash: hash, dest_tx_hash: null })

    scene.statusReply = fixture('status-ongoing')
    await expectBridging(payer, built.intentId, hash)
    // Every status call names the payment as the route call left it: integrator, request id, quote id.
    for (const call of statusCallsFor(hash)) {
      expect(call.headers['x-integrator-id']).toBe(integratorId)
      expect(call.query.get('fromChainId')).toBe(String(fromChainId))
      expect(call.query.get('toChainId')).toBe(String(toChainId))
      expect(call.query.get('requestId')).toMatch(/.+/)
      expect(call.query.get('quoteId')).toMatch(/^[0-9a-f]{32}$/)
    }

    const delivered = toAmountMin + 17n
    scene.destTxHash = await deliver(receiver, delivered)
    scene.statusReply = fixture('status-success')
    const record = await waitForRecord(payer, built.intentId, (candidate) => candidate.status !== 'bridging')
    expect(record).toMatchObject({
      status: 'success',
      status_raw: 'success',
      source_tx_hash: hash,
      dest_tx_hash: scene.destTxHash,
      is_refunded: false,
      error_message: null,
      gas_status: 'gas_paid_enough_gas',
      // What arrived, read on the destination chain, not what Squid quoted.
      to_amount_wei: delivered.toString(),
    })
    expect(record.route_status.map((step) => step.status)).toEqual(['success', 'success'])
    // A final payment is no longer polled.
    const callsAtEnd = statusCallsFor(hash).length
    await rounds.settle('tracker', 3)
    expect(statusCallsFor(hash).length).toBe(callsAtEnd)
  })

  it('a Squid success whose destination transaction pays someone else, or less, is not a success', async () => {
    const { freshAddress, payThroughSquid, deliver, waitForRecord, expectBridging } = scene
    for (const [payerIndex, to, amount] of [
      [2, freshAddress(), 10n ** 9n],
      [3, 'receiver', 1n],
    ] as const) {
      scene.statusReply = fixture('status-ongoing')
      const payment = await payThroughSquid(payerIndex)
      await expectBridging(payment.payer, payment.built.intentId, payment.hash)
      scene.destTxHash = await deliver(to === 'receiver' ? payment.receiver : to, amount)
      scene.statusReply = fixture('status-success')
      const record = await waitForRecord(
        payment.payer,
        payment.built.intentId,
        (candidate) => candidate.status !== 'bridging',
      )
      expect(record.status).toBe('failed')
      expect(record.status_raw).toBe('failed')
      expect(record.dest_tx_hash).toBe(scene.destTxHash)
      expect(record.to_amount_wei).toBe(to === 'receiver' ? '1' : '0')
      expect(record.error_message).toMatch(
        /^The routing service reports success, but the receiver got .* USDC of the .* USDC the route promised on chain 8453/,
      )
    }
  })

  it('a Squid success naming a transaction the destination chain does not have is not a success', async () => {
    const { rounds, payThroughSquid, waitForRecord, expectBridging } = scene
    scene.statusReply = fixture('status-ongoing')
    const payment = await payThroughSquid(4)
    await expectBridging(payment.payer, payment.built.intentId, payment.hash)
    scene.destTxHash = `0x${'7e'.repeat(32)}`
    scene.statusReply = fixture('status-success')
    await rounds.settle('tracker', 3)
    const record = await waitForRecord(payment.payer, payment.built.intentId, () => true)
    expect(record.status).not.toBe('success')
  })
})
