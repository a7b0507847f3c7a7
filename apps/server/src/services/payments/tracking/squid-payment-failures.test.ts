import { describe, expect, it } from 'vitest'
import { readSquidFixture as fixture } from '../../../../test/recorded-squid-api.ts'
import { useSquidPaymentScene } from '../../../../test/squid-payment-scene.ts'

// Squid-routed payments that Squid reports failed (partial success, refund): the record fails with
// Squid's status (the successes are in squid-payments.test.ts; the scene is test/squid-payment-scene.ts).

const scene = useSquidPaymentScene()

describe('Squid-routed payments that Squid reports failed', {
  timeout: 60_000,
}, () => {
  const failures = [
    {
      name: 'partial_success (delivered, but not as the link’s token) fails the payment',
      payerIndex: 5,
      // The recorded success, with the word Squid uses when the destination call did not deliver the asked token.
      reply: () => ({ ...fixture('status-success'), squidTransactionStatus: 'partial_success' }),
      statusRaw: 'partial_success',
      isRefunded: false,
      errorMessage: 'partial success',
    },
    {
      name: 'a refund fails the payment and marks it refunded',
      payerIndex: 6,
      reply: () => fixture('status-refund'),
      statusRaw: 'refunded',
      isRefunded: true,
      errorMessage: 'refunded',
    },
  ] as const

  for (const failure of failures) {
    it(failure.name, async () => {
      const { payThroughSquid, waitForRecord, expectBridging } = scene
      scene.statusReply = fixture('status-ongoing')
      const { built, hash, payer } = await payThroughSquid(failure.payerIndex)
      await expectBridging(payer, built.intentId, hash)

      scene.statusReply = failure.reply()
      const record = await waitForRecord(
        payer,
        built.intentId,
        (candidate) => candidate.status !== 'bridging',
      )
      expect(record).toMatchObject({
        status: 'failed',
        status_raw: failure.statusRaw,
        is_refunded: failure.isRefunded,
        source_tx_hash: hash,
        error_message: failure.errorMessage,
      })
      expect(record.route_status.map((step) => step.status)).toEqual(['failed', 'failed'])
    })
  }
})
