import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import { readTransactionStatus } from '@quicklinks/core/transaction-status'
import { and, eq, isNull, lt, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { type Hash, parseEventLogs, type TransactionReceipt } from 'viem'
import type { Database } from '../../db/create-database-client.ts'
import { type RouteIntent, routeIntents } from '../../db/schema.ts'
import type { ServerConfig } from '../../env.ts'
import { getChainRpcUrl } from '../chains/get-chain-rpc-url.ts'
import { getDevnetDeploymentOrThrow } from '../devnet/get-devnet-deployment-or-throw.ts'
import { getLocalPublicClient } from '../routing/providers/local/get-local-public-client.ts'
import type { RouteAction, RouteStatus, RoutingProvider } from '../routing/routing-provider.ts'
import type { Worker } from '../workers/start-workers.ts'
import { buildRouteStepStatuses, type RoutePhase } from './build-route-step-statuses.ts'
import { readRevertReason } from './read-revert-reason.ts'

/** Intents one round looks at, at most. */
const intentsPerRound = 20
/** A claimed intent is left alone by other rounds (and instances) this long. */
const leaseMs = 60_000
/** A posted hash that no node knows after this long is given up as failed. */
const notFoundTimeoutMs = 30 * 60_000
/** Longest wait between two looks at a slow payment. */
const maxBackoffMs = 30_000

/** Routes nobody paid (no receipt) are kept this long, then deleted. */
const abandonedIntentAgeMs = 7 * 24 * 60 * 60_000
const sweepIntervalMs = 60 * 60_000

export const mismatchMessage = 'Transaction does not match the route'

export type CreateTrackerWorkerOptions = {
  db: Database
  provider: RoutingProvider
  config: Pick<ServerConfig, 'rpcUrls' | 'devnetDeploymentFile' | 'workerIntervalMs'>
  logger: FastifyBaseLogger
  /** Epoch ms; tests move it. */
  now?: () => number
}

type Patch = Partial<typeof routeIntents.$inferInsert>

/**
 * The payment tracker (ARCHITECTURE.md "Routing"): each round it takes due route intents (a
 * receipt was posted, the payment is not final) with `FOR UPDATE SKIP LOCKED`, follows the source
 * transaction's receipt (checking it is the payer's call to the route's contract; a revert fails
 * the payment with its reason), then the provider's status for cross-chain payments, and writes the
 * transaction record. Everything lives in route_intents, so tracking resumes after a restart.
 */
export function createTrackerWorker(options: CreateTrackerWorkerOptions): Worker {
  const now = options.now ?? Date.now
  let lastSweepAt = 0
  return {
    name: 'tracker',
    async runOnce() {
      if (now() - lastSweepAt > sweepIntervalMs) {
        lastSweepAt = now()
        await deleteAbandonedIntents(options.db, now())
      }
      const intents = await claimDueIntents(options.db, options.provider.name, now())
      if (intents.length === 0) return
      const devnetChains = await readDevnetChains(options.config.devnetDeploymentFile)
      for (const intent of intents) {
        try {
          await trackIntent(options, intent, devnetChains, now)
        } catch (error) {
          options.logger.warn({ err: error, intentId: intent.id }, 'Tracking a payment failed; retrying')
          await writeIntent(options.db, intent.id, {
            nextCheckAt: new Date(now() + backoffMs(options.config.workerIntervalMs, intent.attempts)),
            lockedUntil: null,
          })
        }
      }
    },
  }
}

async function trackIntent(
  options: CreateTrackerWorkerOptions,
  intent: RouteIntent,
  devnetChains: readonly { chainId: number; rpcUrl: string }[],
  now: () => number,
): Promise<void> {
  const actions = intent.actions as RouteAction[]
  const sourceTxHash = intent.sourceTxHash as Hash
  const later = (): Date => new Date(now() + backoffMs(options.config.workerIntervalMs, intent.attempts))
  const finish = async (patch: Patch, phase: RoutePhase, destTxHash: string | null = null): Promise<void> => {
    const statusRaw = patch.statusRaw ?? intent.statusRaw
    const reading = readTransactionStatus(statusRaw)
    const isFinal = reading.status === 'success' || reading.status === 'failed'
    await writeIntent(options.db, intent.id, {
      ...patch,
      status: reading.status,
      isRefunded: reading.isRefunded,
      routeStatus: buildRouteStepStatuses(actions, {
        phase,
        fromChainId: intent.fromChainId,
        sourceTxHash,
        destTxHash,
      }),
      nextCheckAt: isFinal ? null : later(),
      completedAt: isFinal ? new Date(now()) : null,
      lockedUntil: null,
    })
  }

  if (intent.statusRaw === 'submitted' || intent.statusRaw === null) {
    const client = getLocalPublicClient(getChainRpcUrl(options.config, intent.fromChainId, devnetChains))
    const receipt = await client.getTransactionReceipt({ hash: sourceTxHash }).catch(() => undefined)
    if (!receipt) {
      const submittedAt = intent.submittedAt?.getTime() ?? intent.createdAt.getTime()
      if (now() - submittedAt > notFoundTimeoutMs) {
        await finish(
          { statusRaw: 'failed', errorMessage: 'The transaction was not found on chain.' },
          'source_failed',
        )
      } else {
        await writeIntent(options.db, intent.id, { nextCheckAt: later(), lockedUntil: null })
      }
      return
    }
    const transaction = await client.getTransaction({ hash: sourceTxHash })
    const target = String((intent.transactionRequest as { to?: unknown }).to ?? '').toLowerCase()
    const isMatch =
      transaction.from.toLowerCase() === intent.fromAddress &&
      transaction.to?.toLowerCase() === target &&
      (intent.provider !== 'local' || transaction.input.toLowerCase().includes(intent.id.slice(2)))
    if (!isMatch) {
      await finish({ statusRaw: 'failed', errorMessage: mismatchMessage }, 'source_failed')
      return
    }
    if (receipt.status !== 'success') {
      const reason = await readRevertReason(client, transaction)
      await finish({ statusRaw: 'failed', errorMessage: reason }, 'source_failed')
      return
    }
    if (intent.fromChainId === intent.toChainId) {
      await finish(
        {
          statusRaw: 'success',
          destTxHash: sourceTxHash,
          toAmountWei: readPaidAmount(receipt) ?? intent.toAmount,
        },
        'success',
        sourceTxHash,
      )
      return
    }
    // Cross-chain: the source side is done; the provider follows the rest.
    intent.statusRaw = 'ongoing'
    await writeIntent(options.db, intent.id, {
      statusRaw: 'ongoing',
      status: readTransactionStatus('ongoing').status,
      routeStatus: buildRouteStepStatuses(actions, {
        phase: 'source_done',
        fromChainId: intent.fromChainId,
        sourceTxHash,
        destTxHash: null,
      }),
    })
  }

  const status = await options.provider.status({
    intentId: intent.id as Hash,
    fromChainId: intent.fromChainId,
    toChainId: intent.toChainId,
    sourceTxHash,
    providerData: intent.providerData,
  })
  const reading = readTransactionStatus(status.statusRaw)
  const phase: RoutePhase =
    reading.status === 'success'
      ? 'success'
      : reading.isRefunded
        ? 'refunded'
        : reading.status === 'failed'
          ? 'failed'
          : 'source_done'
  await finishWithStatus(options, intent, status, phase, actions, later, now)
}

async function finishWithStatus(
  options: CreateTrackerWorkerOptions,
  intent: RouteIntent,
  status: RouteStatus,
  phase: RoutePhase,
  actions: RouteAction[],
  later: () => Date,
  now: () => number,
): Promise<void> {
  // The source transaction is mined by now: a provider that has not indexed it yet (Squid's
  // not_found) must not move the payer's record back from bridging to submitted.
  const statusRaw =
    readTransactionStatus(status.statusRaw).status === 'submitted' ? 'ongoing' : status.statusRaw
  const reading = readTransactionStatus(statusRaw)
  const isFinal = reading.status === 'success' || reading.status === 'failed'
  await writeIntent(options.db, intent.id, {
    statusRaw,
    status: reading.status,
    isRefunded: reading.isRefunded,
    destTxHash: status.destTxHash,
    toAmountWei: status.toAmountWei?.toString() ?? null,
    errorMessage: status.errorMessage,
    gasStatus: status.gasStatus,
    isGmp: status.isGmpTransaction,
    axelarUrl: status.axelarTransactionUrl,
    routeStatus: buildRouteStepStatuses(actions, {
      phase,
      fromChainId: intent.fromChainId,
      sourceTxHash: intent.sourceTxHash,
      destTxHash: status.destTxHash,
      providerSteps: intent.provider === 'local' ? undefined : status.steps,
    }),
    nextCheckAt: isFinal ? null : later(),
    completedAt: isFinal ? new Date(now()) : null,
    lockedUntil: null,
  })
}

/** The amount PayRouter paid the receiver, from its Paid or SwappedAndPaid event. */
function readPaidAmount(receipt: TransactionReceipt): string | undefined {
  for (const log of parseEventLogs({ abi: payRouterAbi, logs: receipt.logs })) {
    if (log.eventName === 'Paid') return log.args.amount.toString()
    if (log.eventName === 'SwappedAndPaid') return log.args.amountOut.toString()
  }
  return undefined
}

async function writeIntent(db: Database, id: string, patch: Patch): Promise<void> {
  await db
    .update(routeIntents)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(routeIntents.id, id))
}

function backoffMs(intervalMs: number, attempts: number): number {
  // Quick for the first minute of a payment, then slower, never beyond 30 s.
  return Math.min(
    maxBackoffMs,
    attempts < 60 ? intervalMs : intervalMs * 2 ** Math.min(5, Math.floor(attempts / 60)),
  )
}

/** Deletes route intents that never got a receipt and are older than a week: quotes nobody paid. */
async function deleteAbandonedIntents(db: Database, nowMs: number): Promise<void> {
  const cutoff = new Date(nowMs - abandonedIntentAgeMs)
  await db
    .delete(routeIntents)
    .where(and(isNull(routeIntents.sourceTxHash), lt(routeIntents.createdAt, cutoff)))
}

async function readDevnetChains(file: string): Promise<{ chainId: number; rpcUrl: string }[]> {
  try {
    return (await getDevnetDeploymentOrThrow(file)).chains
  } catch {
    return []
  }
}

/**
 * Leases the due intents of this provider for `leaseMs`, in one statement with
 * `FOR UPDATE SKIP LOCKED`, so several instances never track the same payment at once.
 */
async function claimDueIntents(db: Database, provider: string, nowMs: number): Promise<RouteIntent[]> {
  const now = new Date(nowMs).toISOString()
  const leaseEnd = new Date(nowMs + leaseMs).toISOString()
  const result = await db.execute<{ id: string }>(sql`
    UPDATE ${routeIntents} SET locked_until = ${leaseEnd}, attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM ${routeIntents}
      WHERE provider = ${provider} AND next_check_at IS NOT NULL AND next_check_at <= ${now}
        AND (locked_until IS NULL OR locked_until < ${now})
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
