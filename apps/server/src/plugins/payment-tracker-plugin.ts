import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { createPaymentReadContext } from '../services/payments/history/create-payment-read-context.ts'
import {
  createTrackerWorker,
  type TrackerWorker,
} from '../services/payments/tracking/create-tracker-worker.ts'
import { createPaymentEventWriter } from '../services/payments/tracking/payment-events.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The payment tracker of this process: `trackNow` looks at a payment at once (a receipt was
     * posted); the background worker (when workers run) follows the rest.
     */
    paymentTracker: TrackerWorker
  }
}

export type PaymentTrackerPluginOptions = {
  /** Epoch ms; tests move it. */
  now?: () => number
}

const plugin: FastifyPluginAsync<PaymentTrackerPluginOptions> = async (app, options) => {
  app.decorate(
    'paymentTracker',
    createTrackerWorker({
      db: app.db,
      provider: app.routingProvider,
      config: app.config,
      logger: app.log.child({ worker: 'tracker' }),
      // Every change it makes that is a payment event goes to the webhook outbox with it.
      paymentEvents: createPaymentEventWriter({
        db: app.db,
        readContext: () =>
          createPaymentReadContext({
            provider: app.routingProvider,
            db: app.db,
            devMode: app.config.devMode,
            publicOrigin: app.config.publicOrigin,
          }),
      }),
      ...(options.now ? { now: options.now } : {}),
    }),
  )
}

/** Decorates `app.paymentTracker`; needs the config, database and routing-provider plugins. */
export const paymentTrackerPlugin = fp(plugin, {
  name: 'payment-tracker',
  fastify: '5.x',
  dependencies: ['config', 'database', 'routing-provider'],
})
