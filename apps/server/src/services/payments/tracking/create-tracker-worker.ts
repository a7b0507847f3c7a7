import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { getDevnetDeploymentOrThrow } from '@quicklinks/runtime/devnet/get-devnet-deployment-or-throw'
import type { FastifyBaseLogger } from 'fastify'
import type { PublicClient } from 'viem'
import { getConfirmations } from '../../../config/routing-env.ts'
import type { ServerConfig } from '../../../config/server-env.ts'
import type { RouteIntent } from '../../../db/schema.ts'
import { getChainRpcUrl } from '../../chains/get-chain-rpc-url.ts'
import { getLocalPublicClient } from '../../chains/get-local-public-client.ts'
import type { Worker } from '../../workers/start-workers.ts'
import {
  claimDueIntents,
  claimIntent,
  deleteAbandonedIntents,
  extendIntentLease,
  intentLeaseMs,
  isLockedForTracking,
  releaseIntent,
} from '../route/route-intent-leases.ts'
import type { PaymentEventWriter } from '../route/route-intents-repository.ts'
import { updateRouteIntent } from '../route/route-intents-repository.ts'
import type { RoutingProvider } from '../route/routing-provider.ts'
import { isX402Intent } from './match-source-transaction.ts'
import { finalFailure } from './payment-patches.ts'
import { backoffMs, type TrackPaymentContext, trackPayment } from './track-payment.ts'

/** How long `trackNow` waits for a round that holds the payment. */
const trackNowWaitMs = 5_000
const sweepIntervalMs = 60 * 60_000

export { mismatchMessage } from './track-payment.ts'

export type CreateTrackerWorkerOptions = {
  db: Database
  provider: RoutingProvider
  config: Pick<
    ServerConfig,
    'rpcUrls' | 'devnetDeploymentFile' | 'workerIntervalMs' | 'confirmations' | 'defaultConfirmations'
  >
  logger: FastifyBaseLogger
  /** Writes the webhook events of the changes it makes (default: none). */
  paymentEvents?: PaymentEventWriter
  /** Epoch ms; tests move it. */
  now?: () => number
}

/** The tracker's worker: a `Worker` with one lane per source chain, plus trackNow. */
export type TrackerWorker = Worker & {
  /**
   * Looks at one payment now (a receipt was just posted), unless another round holds it. Resolves
   * when the look is done; never throws (a failure is logged and left to the rounds).
   */
  trackNow(intentId: string): Promise<void>
  /**
   * Calls `listener` with the intent's id each time this process makes a payment final (the workers that act on final
   * payments, the invoice crediter and the receipt mailer, are woken by it).
   */
  onPaymentFinal(listener: (intentId: string) => void): void
}

/**
 * The payment tracker (docs/api.md#payment-tracker): one lane per source chain; each round takes the
 * lane's due route intents (a receipt was posted, the payment is not final) with
 * `FOR UPDATE SKIP LOCKED` and a lease, and lets trackPayment verify them on chain. Everything
 * lives in route_intents and route_intent_receipts, so tracking resumes after a restart.
 */
export function createTrackerWorker(options: CreateTrackerWorkerOptions): TrackerWorker {
  const now = options.now ?? Date.now
  let lastSweepAt = 0
  const finalListeners: ((intentId: string) => void)[] = []
  let devnetChains: { chainId: number; rpcUrl: string }[] = []

  const context: TrackPaymentContext = {
    db: options.db,
    provider: options.provider,
    logger: options.logger,
    now,
    workerIntervalMs: options.config.workerIntervalMs,
    getClient: (chainId: number): PublicClient =>
      getLocalPublicClient(getChainRpcUrl(options.config, chainId, devnetChains)),
    getConfirmations: (chainId) => getConfirmations(options.config, chainId),
    paymentEvents: options.paymentEvents,
  }

  const refreshDevnetChains = async (): Promise<void> => {
    try {
      devnetChains = (await getDevnetDeploymentOrThrow(options.config.devnetDeploymentFile)).chains
    } catch {
      devnetChains = []
    }
  }

  const track = async (intent: RouteIntent): Promise<void> => {
    // The lease outlives slow RPCs: extended every 20 s while the look is in flight.
    const heartbeat = setInterval(() => {
      void extendIntentLease(options.db, intent.id, now()).catch(() => undefined)
    }, intentLeaseMs / 3)
    // Every line about this payment names it and the request that last moved it (docs/api.md#request-ids).
    const logger = options.logger.child({ intentId: intent.id, requestId: intent.requestId ?? undefined })
    const wasFinal = intent.finalAt !== null
    let becameFinal = false
    try {
      // The provider's data is parsed once, here, as the intent is read back for a look.
      // An x402 payment's record needs no provider (docs/decisions/0031): its data is not the provider's.
      const providerData = isX402Intent(intent)
        ? { success: true as const, data: intent.providerData }
        : options.provider.providerDataSchema.safeParse(intent.providerData)
      const next = providerData.success
        ? await trackPayment({ ...context, logger }, intent, providerData.data)
        : await updateRouteIntent(
            options.db,
            intent,
            finalFailure(now(), `The stored route cannot be read by the ${options.provider.name} provider.`),
            { nowMs: now(), events: options.paymentEvents },
          )
      if (!wasFinal && next.finalAt !== null) {
        logger.info({ status: next.status, toAmountWei: next.toAmountWei }, 'Payment final')
        becameFinal = true
      }
    } catch (error) {
      logger.warn({ err: error }, 'Tracking a payment failed; retrying')
      const nextCheckAt = new Date(now() + backoffMs(options.config.workerIntervalMs, intent.attempts))
      await releaseIntent(options.db, intent.id, nextCheckAt)
    } finally {
      clearInterval(heartbeat)
    }
    // Outside the look: a listener's failure is its own (the payment is final either way, and the
    // other listeners are still told), never a failed look to retry.
    if (becameFinal) {
      for (const listener of finalListeners) {
        try {
          listener(intent.id)
        } catch (error) {
          logger.error({ err: error }, 'A listener of final payments failed')
        }
      }
    }
  }

  /** Chains with a lane of their own: the devnet's (as last read) and those with an RPC_URL_<id>. */
  const servedChainIds = (): number[] =>
    [
      ...new Set([
        ...devnetChains.map((chain) => chain.chainId),
        ...Object.keys(options.config.rpcUrls).map(Number),
      ]),
    ].sort((a, b) => a - b)

  const lanes = async (): Promise<string[]> => {
    await refreshDevnetChains()
    // Lane '' takes payments from chains without an RPC (their looks fail with 503 and are retried).
    return ['', ...servedChainIds().map(String)]
  }

  return {
    name: 'tracker',
    lanes,
    async runOnce(lane) {
      if (lane === '') {
        if (now() - lastSweepAt > sweepIntervalMs) {
          lastSweepAt = now()
          await deleteAbandonedIntents(options.db, now())
        }
      }
      const intents = await claimDueIntents(options.db, {
        provider: options.provider.name,
        nowMs: now(),
        chainId: lane === '' ? null : Number(lane),
        // The runner refreshes the lanes (and the devnet's chains) every interval; no second read here.
        exceptChainIds: lane === '' ? servedChainIds() : [],
      })
      for (const intent of intents) await track(intent)
      return intents.length === 0 ? 'idle' : 'worked'
    },
    onPaymentFinal(listener) {
      finalListeners.push(listener)
    },
    async trackNow(intentId) {
      try {
        if (devnetChains.length === 0) await refreshDevnetChains()
        // A round may hold the payment right now: wait for it (briefly), then look with what was posted since.
        const deadline = Date.now() + trackNowWaitMs
        for (;;) {
          const [intent] = await claimIntent(options.db, intentId, now())
          if (intent) {
            await track(intent)
            return
          }
          if (Date.now() > deadline || !(await isLockedForTracking(options.db, intentId, now()))) return
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      } catch (error) {
        options.logger.warn({ err: error, intentId }, 'Tracking a payment at once failed')
      }
    },
  }
}
