import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { listenToChannel } from '../services/cache/cache-change-feed.ts'
import { createInvoiceWorker, invoiceWorkerName } from '../services/invoices/create-invoice-worker.ts'
import { createPaymentDigestWorker } from '../services/notices/create-payment-digest-worker.ts'
import { createDepositWorker } from '../services/payments/deposits/create-deposit-worker.ts'
import {
  createReceiptMailWorker,
  receiptMailWorkerName,
} from '../services/receipts/create-receipt-mail-worker.ts'
import { createWebhookWorker, webhookWorkerName } from '../services/webhooks/create-webhook-worker.ts'
import { notifyEndpointDisabled } from '../services/webhooks/notify-endpoint-disabled.ts'
import { webhookDueChannel } from '../services/webhooks/webhook-outbox.ts'
import {
  defaultIdleIntervalMs,
  type RunningWorkers,
  startWorkers,
  type Worker,
} from '../services/workers/start-workers.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs a worker's lane now (only where the workers run: check `hasDecorator('wakeWorker')`). */
    wakeWorker: (workerName: string, lane: string) => void
  }
}

export type PaymentWorkersPluginOptions = {
  /** The app's database: its NOTIFY feed wakes the webhook deliverer. */
  client: DatabaseClient
  /** The workers' clock (epoch ms); tests move it. */
  now?: () => number
  /** Called when a worker round ends: tests await rounds instead of sleeping. */
  onRoundEnd?: (workerName: string, lane: string) => void
  /** The webhook worker's per-try time-out (default 15 s; tests shorten it). */
  webhookTimeoutMs?: number
}

/**
 * The background work of payments, run every config.workerIntervalMs once the app is ready and
 * stopped before it closes (a round in progress finishes its writes before the database closes):
 * the provider's own workers first (the local relayer, so a fill it makes is seen by the tracker
 * in the same round), then the app's tracker (the one receipts wake), then the invoice worker
 * (which credits what the tracker verified), then the receipt mailer, the daily digest and the
 * webhook deliverer (woken by the NOTIFY of every commit that queues a delivery, on any
 * instance). Any provider plugs its workers in through `RoutingProvider.workers`.
 */
const plugin: FastifyPluginAsync<PaymentWorkersPluginOptions> = async (app, options) => {
  let running: RunningWorkers | undefined
  const workers: Worker[] = [
    ...(app.routingProvider.workers?.({
      db: app.db,
      logger: app.log,
      now: options.now,
      wake: (workerName, lane) => running?.wake(workerName, lane),
    }) ?? []),
    // Transfers into deposit addresses, routed like wallet payments (docs/decisions/0030).
    createDepositWorker({
      db: app.db,
      config: app.config,
      provider: app.routingProvider,
      logger: app.log.child({ worker: 'deposits' }),
      ...(options.now ? { now: options.now } : {}),
    }),
    app.paymentTracker,
    // Credits invoices from the payments the tracker made final, and expires them.
    createInvoiceWorker({
      db: app.db,
      logger: app.log.child({ worker: 'invoices' }),
      publicOrigin: app.config.publicOrigin,
      ...(options.now ? { now: options.now } : {}),
    }),
    // Receipt e-mails of payments the tracker made final (docs/api.md#receipt-emails).
    createReceiptMailWorker({
      db: app.db,
      delivery: app.delivery,
      logger: app.log.child({ worker: 'receipt-mail' }),
      publicOrigin: app.config.publicOrigin,
      catalogue: app.routingProvider,
      ...(options.now ? { now: options.now } : {}),
    }),
    // Signed webhook deliveries from the outbox (docs/api.md#webhooks).
    createWebhookWorker({
      db: app.db,
      logger: app.log.child({ worker: webhookWorkerName }),
      isAllowingPrivate: app.config.devMode,
      wake: () => running?.wake(webhookWorkerName, ''),
      onEndpointDisabled: (delivery) =>
        notifyEndpointDisabled(
          { db: app.db, delivery: app.delivery, logger: app.log, publicOrigin: app.config.publicOrigin },
          delivery.endpointId,
        ),
      ...(options.webhookTimeoutMs === undefined ? {} : { timeoutMs: options.webhookTimeoutMs }),
      ...(options.now ? { now: options.now } : {}),
    }),
    // The daily payment digests of the users who asked for one (docs/api.md#notices).
    createPaymentDigestWorker({
      db: app.db,
      delivery: app.delivery,
      logger: app.log.child({ worker: 'payment-digest' }),
      publicOrigin: app.config.publicOrigin,
      catalogue: app.routingProvider,
      ...(options.now ? { now: options.now } : {}),
    }),
  ]
  // What acts on final payments runs at once, not after an idle lane's sleep (docs/decisions/0035).
  app.paymentTracker.onPaymentFinal(() => {
    running?.wake(invoiceWorkerName, '')
    running?.wake(receiptMailWorkerName, '')
  })
  // A lane with work waiting now (an x402 transfer into a deposit address) runs without its sleep.
  app.decorate('wakeWorker', (workerName: string, lane: string) => running?.wake(workerName, lane))
  let unlisten: (() => Promise<void>) | undefined
  app.addHook('onReady', async () => {
    running = startWorkers(workers, {
      intervalMs: app.config.workerIntervalMs,
      idleIntervalMs: app.config.workerIdleIntervalMs ?? defaultIdleIntervalMs(app.config.workerIntervalMs),
      logger: app.log,
      ...(options.onRoundEnd ? { onRoundEnd: options.onRoundEnd } : {}),
    })
    // A queued delivery is sent at once, not at the next round; while the feed is down, rounds still find it.
    unlisten = await listenToChannel(
      options.client,
      webhookDueChannel,
      { onNotice: () => running?.wake(webhookWorkerName, ''), onStatus: () => undefined },
      app.log,
    )
  })
  app.addHook('preClose', async () => {
    await unlisten?.()
    await running?.stop()
  })
}

/** Runs the payment workers in this process; needs the config, database, routing-provider and payment-tracker plugins. */
export const paymentWorkersPlugin = fp(plugin, {
  name: 'payment-workers',
  fastify: '5.x',
  dependencies: ['config', 'database', 'routing-provider', 'payment-tracker'],
})
