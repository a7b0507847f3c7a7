import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { createInvoiceWorker } from '../services/invoices/create-invoice-worker.ts'
import { createDepositWorker } from '../services/payments/deposits/create-deposit-worker.ts'
import { createReceiptMailWorker } from '../services/receipts/create-receipt-mail-worker.ts'
import { type RunningWorkers, startWorkers, type Worker } from '../services/workers/start-workers.ts'

export type PaymentWorkersPluginOptions = {
  /** The workers' clock (epoch ms); tests move it. */
  now?: () => number
  /** Called when a worker round ends: tests await rounds instead of sleeping. */
  onRoundEnd?: (workerName: string, lane: string) => void
}

/**
 * The background work of payments, run every config.workerIntervalMs once the app is ready and
 * stopped before it closes (a round in progress finishes its writes before the database closes):
 * the provider's own workers first (the local relayer, so a fill it makes is seen by the tracker
 * in the same round), then the app's tracker (the one receipts wake), then the invoice worker
 * (which credits what the tracker verified), then the receipt mailer. Any provider plugs its
 * workers in through `RoutingProvider.workers`.
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
    // Transfers into deposit addresses, routed like wallet payments (docs/decisions/0026).
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
  ]
  app.addHook('onReady', async () => {
    running = startWorkers(workers, {
      intervalMs: app.config.workerIntervalMs,
      logger: app.log,
      ...(options.onRoundEnd ? { onRoundEnd: options.onRoundEnd } : {}),
    })
  })
  app.addHook('preClose', async () => {
    await running?.stop()
  })
}

/** Runs the payment workers in this process; needs the config, database, routing-provider and payment-tracker plugins. */
export const paymentWorkersPlugin = fp(plugin, {
  name: 'payment-workers',
  fastify: '5.x',
  dependencies: ['config', 'database', 'routing-provider', 'payment-tracker'],
})
