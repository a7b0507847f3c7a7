import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { getDevnetDeploymentOrThrow } from '@quicklinks/runtime/devnet/get-devnet-deployment-or-throw'
import { and, eq, isNull, lt, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { PublicClient } from 'viem'
import { getConfirmations } from '../../config/routing-env.ts'
import type { ServerConfig } from '../../config/server-env.ts'
import { type RouteIntent, routeIntents } from '../../db/schema.ts'
import { getChainRpcUrl } from '../chains/get-chain-rpc-url.ts'
import { getLocalPublicClient } from '../chains/get-local-public-client.ts'
import type { RoutingProvider } from '../routing/routing-provider.ts'
import { backoffMs, type TrackPaymentContext, trackPayment } from './track-payment.ts'

/** Intents one round of a lane looks at, at most. */
const intentsPerRound = 20
/** A claimed intent is left alone by other rounds (and instances) this long; extended while in flight. */
const leaseMs = 60_000

/** How long `trackNow` waits for a round that holds the payment. */
const trackNowWaitMs = 5_000

/** Routes nobody paid (no receipt) are kept this long, then deleted. */
const abandonedIntentAgeMs = 7 * 24 * 60 * 60_000
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
  /** Epoch ms; tests move it. */
  now?: () => number
  /** Told when a local cross-chain deposit is confirmed, so the relayer can look at once. */
  onDepositConfirmed?: (chainId: number) => void
}

/**
 * The tracker's worker: a `Worker` of services/workers/start-workers.ts (spelled out here because
 * that folder wires the tracker in, and importing it back would be a folder cycle), plus trackNow.
 */
export type TrackerWorker = {
  readonly name: string
  lanes(): Promise<readonly string[]>
  runOnce(lane: string): Promise<void>
  /**
   * Looks at one payment now (a receipt was just posted), unless another round holds it. Resolves
   * when the look is done; never throws (a failure is logged and left to the rounds).
   */
  trackNow(intentId: string): Promise<void>
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
    ...(options.onDepositConfirmed ? { onDepositConfirmed: options.onDepositConfirmed } : {}),
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
      void options.db
        .update(routeIntents)
        .set({ lockedUntil: new Date(now() + leaseMs) })
        .where(eq(routeIntents.id, intent.id))
        .catch(() => undefined)
    }, leaseMs / 3)
    // Every line about this payment names it and the request that last moved it (docs/api.md#request-ids).
    const logger = options.logger.child({ intentId: intent.id, requestId: intent.requestId ?? undefined })
    const wasFinal = intent.finalAt !== null
    try {
      await trackPayment({ ...context, logger }, intent)
      if (!wasFinal && intent.finalAt !== null) {
        logger.info({ status: intent.status, toAmountWei: intent.toAmountWei }, 'Payment final')
      }
    } catch (error) {
      logger.warn({ err: error }, 'Tracking a payment failed; retrying')
      await options.db
        .update(routeIntents)
        .set({
          nextCheckAt: new Date(now() + backoffMs(options.config.workerIntervalMs, intent.attempts)),
          lockedUntil: null,
        })
        .where(eq(routeIntents.id, intent.id))
    } finally {
      clearInterval(heartbeat)
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

/** Deletes route intents that never got a receipt and are older than a week: quotes nobody paid. */
async function deleteAbandonedIntents(db: Database, nowMs: number): Promise<void> {
  const cutoff = new Date(nowMs - abandonedIntentAgeMs)
  await db.delete(routeIntents).where(and(isNull(routeIntents.status), lt(routeIntents.createdAt, cutoff)))
}

type ClaimOptions = {
  provider: string
  nowMs: number
  /** Only this source chain; null for the catch-all lane. */
  chainId: number | null
  /** The catch-all lane leaves these chains to their own lanes. */
  exceptChainIds: number[]
}

/**
 * Leases the due intents of this provider (and lane) for `leaseMs`, in one statement with
 * `FOR UPDATE SKIP LOCKED`, so several instances never track the same payment at once.
 */
async function claimDueIntents(db: Database, options: ClaimOptions): Promise<RouteIntent[]> {
  const now = new Date(options.nowMs).toISOString()
  const leaseEnd = new Date(options.nowMs + leaseMs).toISOString()
  const chainFilter =
    options.chainId !== null
      ? sql`AND from_chain_id = ${options.chainId}`
      : options.exceptChainIds.length > 0
        ? sql`AND from_chain_id NOT IN (${sql.join(
            options.exceptChainIds.map((id) => sql`${id}`),
            sql`, `,
          )})`
        : sql``
  const result = await db.execute<{ id: string }>(sql`
    UPDATE ${routeIntents} SET locked_until = ${leaseEnd}, attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM ${routeIntents}
      WHERE provider = ${options.provider} AND next_check_at IS NOT NULL AND next_check_at <= ${now}
        AND (locked_until IS NULL OR locked_until < ${now}) ${chainFilter}
      ORDER BY next_check_at
      LIMIT ${intentsPerRound}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`)
  const ids = result.rows.map((row) => row.id)
  if (ids.length === 0) return []
  return db
    .select()
    .from(routeIntents)
    .where(
      sql`${routeIntents.id} IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    )
}

/** Leases one intent now, whatever its next check says, unless another round holds it. */
async function claimIntent(db: Database, intentId: string, nowMs: number): Promise<RouteIntent[]> {
  const now = new Date(nowMs).toISOString()
  const leaseEnd = new Date(nowMs + leaseMs).toISOString()
  const result = await db.execute<{ id: string }>(sql`
    UPDATE ${routeIntents} SET locked_until = ${leaseEnd}, attempts = attempts + 1
    WHERE id = ${intentId} AND next_check_at IS NOT NULL
      AND (locked_until IS NULL OR locked_until < ${now})
    RETURNING id`)
  if (result.rows.length === 0) return []
  return db.select().from(routeIntents).where(eq(routeIntents.id, intentId))
}

/** Whether a round holds the intent's lease now (and it is still to be tracked). */
async function isLockedForTracking(db: Database, intentId: string, nowMs: number): Promise<boolean> {
  const [row] = await db
    .select({ lockedUntil: routeIntents.lockedUntil, nextCheckAt: routeIntents.nextCheckAt })
    .from(routeIntents)
    .where(eq(routeIntents.id, intentId))
    .limit(1)
  return row?.nextCheckAt != null && row.lockedUntil !== null && row.lockedUntil.getTime() >= nowMs
}
