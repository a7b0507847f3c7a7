import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { FastifyBaseLogger } from 'fastify'
import type { Worker } from '../workers/start-workers.ts'
import { pruneWebhookEvents } from './prune-webhook-events.ts'
import { sendWebhook, type WebhookAttemptResult } from './send-webhook.ts'
import { signWebhook } from './sign-webhook.ts'
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  isDelivered,
  settleAttempt,
  settleSucceededAttempts,
} from './webhook-deliveries-repository.ts'

export const webhookWorkerName = 'webhooks'

export type CreateWebhookWorkerOptions = {
  db: Database
  logger: FastifyBaseLogger
  /** Dev mode: http and this machine's addresses are allowed (the receiver runs here). */
  isAllowingPrivate: boolean
  /** Asks the runner for another round now (slots freed while more were due). */
  wake: () => void
  /** An endpoint was just disabled after 5 days of failures: tell its owner. */
  onEndpointDisabled?: (delivery: ClaimedDelivery) => Promise<void>
  /** Every settled try, for the metrics and tests. */
  onAttempt?: (delivery: ClaimedDelivery, result: WebhookAttemptResult) => void
  /** Tries in flight at once in this instance (default 200). */
  maxInFlight?: number
  /** Tries in flight at once to one endpoint (default 25). */
  perEndpoint?: number
  /** Per-try time-out (default 15 s; tests shorten it). */
  timeoutMs?: number
  /** Epoch ms for claims and retry times (not signatures); tests move it. */
  now?: () => number
  /** Least time between two prunes of events past the retention (default 1 h). */
  pruneEveryMs?: number
}

/** The delivery worker: a `Worker`, and `idle` to wait for the tries in flight (tests, shutdown). */
export type WebhookWorker = Worker & { idle(): Promise<void> }

/**
 * The delivery worker (docs/api.md#webhook-retries): each round claims the due tries it has room
 * for and starts them without waiting, so a receiver that takes its full 15 s holds only its own
 * endpoint's slots, never the round or another endpoint's deliveries. Each try is signed at send
 * time under the event's id (the same on every try), sent, and settled (logged, retried or failed).
 * Once an hour (and on its first round) it deletes events past the 30-day retention.
 * When slots free up while more were due, it wakes itself. `close` waits for the tries in flight.
 */
export function createWebhookWorker(options: CreateWebhookWorkerOptions): WebhookWorker {
  const now = options.now ?? Date.now
  const maxInFlight = options.maxInFlight ?? 200
  const perEndpoint = options.perEndpoint ?? 25
  const pruneEveryMs = options.pruneEveryMs ?? 60 * 60 * 1000
  /** When this instance last pruned (epoch ms); the first round of a process prunes. */
  let prunedAt: number | undefined
  const inFlight = new Set<Promise<void>>()
  const byEndpoint = new Map<string, number>()
  /** The last claim filled every free slot: more may be due once half of them free up. */
  let isFull = false
  /** Endpoints whose slots were full after the last claim: more of theirs may be due. */
  const busyEndpoints = new Set<string>()

  // Successes are written in batches (one statement for all that finished meanwhile): under a
  // burst that is what keeps the database from being the bottleneck. Each try's promise settles
  // when its batch is committed, so its slot is freed only once its outcome is stored.
  type Settled = { delivery: ClaimedDelivery; result: WebhookAttemptResult; done: (error?: unknown) => void }
  const successes: Settled[] = []
  let flushing: Promise<void> | undefined
  const flushSuccesses = (): void => {
    if (flushing !== undefined) return
    flushing = (async () => {
      await new Promise((resolve) => setImmediate(resolve))
      while (successes.length > 0) {
        const batch = successes.splice(0, 200)
        try {
          await settleSucceededAttempts(options.db, batch, now())
          for (const item of batch) item.done()
        } catch (error) {
          for (const item of batch) item.done(error)
        }
      }
    })().finally(() => {
      flushing = undefined
      if (successes.length > 0) flushSuccesses()
    })
  }
  const settleSuccess = (delivery: ClaimedDelivery, result: WebhookAttemptResult): Promise<void> =>
    new Promise((resolve, reject) => {
      successes.push({ delivery, result, done: (error) => (error === undefined ? resolve() : reject(error)) })
      flushSuccesses()
    })

  const attempt = async (delivery: ClaimedDelivery): Promise<void> => {
    const headers = signWebhook({
      id: delivery.eventId,
      // The wall clock, always: the receiver checks it against its own (5 minutes' tolerance).
      timestamp: new Date(),
      body: delivery.body,
      secrets: delivery.secrets,
    })
    const result = await sendWebhook({
      url: delivery.url,
      body: delivery.body,
      headers,
      isAllowingPrivate: options.isAllowingPrivate,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    })
    if (isDelivered(result)) {
      await settleSuccess(delivery, result)
      options.onAttempt?.(delivery, result)
      return
    }
    const settled = await settleAttempt(options.db, delivery, result, now())
    options.onAttempt?.(delivery, result)
    if (settled.state !== 'succeeded') {
      options.logger.info(
        {
          deliveryId: delivery.id,
          eventId: delivery.eventId,
          attempt: delivery.attempt,
          statusCode: result.statusCode,
          error: result.error,
          state: settled.state,
        },
        'Webhook delivery failed',
      )
    }
    if (settled.isEndpointDisabled) {
      options.logger.warn(
        { endpointId: delivery.endpointId },
        'Webhook endpoint disabled after 5 days of failures',
      )
      await options.onEndpointDisabled?.(delivery)
    }
  }

  const start = (delivery: ClaimedDelivery): void => {
    byEndpoint.set(delivery.endpointId, (byEndpoint.get(delivery.endpointId) ?? 0) + 1)
    const running: Promise<void> = attempt(delivery)
      .catch((error: unknown) => {
        // The lease runs out and the try is made again: logged, never lost.
        options.logger.warn(
          { err: error, deliveryId: delivery.id },
          'Webhook try not settled; retried after its lease',
        )
      })
      .finally(() => {
        inFlight.delete(running)
        const left = (byEndpoint.get(delivery.endpointId) ?? 1) - 1
        if (left === 0) byEndpoint.delete(delivery.endpointId)
        else byEndpoint.set(delivery.endpointId, left)
        // Refilled in batches (half the slots free, or a full endpoint half drained), not per
        // try: each claim reads the whole due queue.
        if (isFull && inFlight.size <= maxInFlight / 2) {
          isFull = false
          options.wake()
        } else if (left <= Math.floor(perEndpoint / 2) && busyEndpoints.delete(delivery.endpointId)) {
          options.wake()
        }
      })
    inFlight.add(running)
  }

  return {
    name: webhookWorkerName,
    async runOnce() {
      if (prunedAt === undefined || now() - prunedAt >= pruneEveryMs) {
        prunedAt = now()
        const pruned = await pruneWebhookEvents(options.db, prunedAt)
        if (pruned > 0) options.logger.info({ pruned }, 'Webhook events past the retention deleted')
      }
      const room = maxInFlight - inFlight.size
      if (room <= 0) {
        isFull = true
        return 'worked'
      }
      const busyEndpointIds = [...byEndpoint].filter(([, count]) => count >= perEndpoint).map(([id]) => id)
      const claimed = await claimDueDeliveries(options.db, {
        nowMs: now(),
        limit: room,
        perEndpoint,
        busyEndpointIds,
      })
      for (const delivery of claimed) start(delivery)
      isFull = claimed.length === room
      busyEndpoints.clear()
      for (const [id, count] of byEndpoint) if (count >= perEndpoint) busyEndpoints.add(id)
      return claimed.length === 0 ? 'idle' : 'worked'
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight])
    },
    async close() {
      await this.idle()
    },
  }
}
