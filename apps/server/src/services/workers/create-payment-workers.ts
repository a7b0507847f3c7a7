import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { FastifyBaseLogger } from 'fastify'
import type { ServerConfig } from '../../config/server-env.ts'
import { createRelayerWorker } from '../relayer/create-relayer-worker.ts'
import { getRelayerAccount } from '../relayer/get-relayer-account.ts'
import type { RoutingProvider } from '../routing/routing-provider.ts'
import { createTrackerWorker, type TrackerWorker } from '../tracking/create-tracker-worker.ts'
import type { Worker } from './start-workers.ts'

export type CreatePaymentWorkersOptions = {
  db: Database
  config: ServerConfig
  logger: FastifyBaseLogger
  /** The app's one routing provider (`app.routingProvider`): the tracker reads statuses through it. */
  provider: RoutingProvider
  /** Epoch ms; tests move it. */
  now?: () => number
  /** The app's tracker (the one receipts wake); a new one when absent. */
  tracker?: TrackerWorker
}

/**
 * The background work of payments: the relayer first (local provider with a relayer key), so a
 * fill it makes is seen by the tracker in the same round, then the tracker. Never throws.
 */
export function createPaymentWorkers(options: CreatePaymentWorkersOptions): Worker[] {
  const workers: Worker[] = []
  const now = options.now ? { now: options.now } : {}
  const relayerAccount =
    options.config.routingProvider === 'local' ? getRelayerAccount(options.config) : undefined
  if (relayerAccount) {
    workers.push(
      createRelayerWorker({
        db: options.db,
        config: options.config,
        account: relayerAccount,
        logger: options.logger.child({ worker: 'relayer' }),
        ...now,
      }),
    )
  }
  workers.push(
    options.tracker ??
      createTrackerWorker({
        db: options.db,
        provider: options.provider,
        config: options.config,
        logger: options.logger.child({ worker: 'tracker' }),
        ...now,
      }),
  )
  return workers
}
