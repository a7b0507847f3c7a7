import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { FastifyBaseLogger } from 'fastify'
import type { LocalAccount } from 'viem'
import type { ServerConfig } from '../../../../../config/server-env.ts'
import type { Worker } from '../../../../workers/start-workers.ts'
import { processRelayerDeposit } from './process-relayer-deposit.ts'
import { claimDueDeposit } from './relayer-deposits-repository.ts'
import { createRelayerHub, type RelayerHub } from './relayer-hub.ts'
import { scanRelayerDeposits } from './scan-relayer-deposits.ts'

/** Deposits one round of a lane moves at most, so one busy chain cannot hold its lane for long. */
const depositsPerRound = 20

export type CreateRelayerWorkerOptions = {
  db: Database
  config: Pick<
    ServerConfig,
    'devnetDeploymentFile' | 'rpcUrls' | 'workerIntervalMs' | 'confirmations' | 'defaultConfirmations'
  >
  account: LocalAccount
  /**
   * The app's hub of this key (its chains, nonce manager and writer lock), shared with the x402
   * facilitator; default: one of the worker's own.
   */
  hub?: RelayerHub
  logger: FastifyBaseLogger
  /** Epoch ms; tests move it. */
  now?: () => number
  /** Longest wait between two looks at one deposit; default 30 worker intervals. */
  maxRetryDelayMs?: number
}

/** The relayer's worker: one lane per devnet chain, and a lock to give back when it stops. */
export type RelayerWorker = Required<Worker>

/**
 * The local provider's relayer (docs/api.md#relayer, docs/decisions/0010). Its lanes are the
 * devnet's chain ids; a round of a lane stores that chain's new PayRouter `Deposited` events (from
 * a cursor in the database), then takes due deposits whose source is that chain one at a time
 * (`FOR UPDATE SKIP LOCKED` and a lease) and fills, settles or refunds them (processRelayerDeposit).
 * A slow chain therefore never holds up another. Each round first runs the hub's writer tasks on
 * that chain (the x402 settlements queued or left unsent there: docs/decisions/0031). Only the instance holding the relayer key's
 * writer lock does any of this; the others retry the lock every round. All lanes sign through one
 * account with one nonce manager, so transactions they send to one chain never share a nonce.
 * State lives in the database, so a restart resumes where the last process stopped.
 */
export function createRelayerWorker(options: CreateRelayerWorkerOptions): RelayerWorker {
  const now = options.now ?? Date.now
  const hub = options.hub ?? createRelayerHub(options)
  let isWriter: boolean | undefined
  let isClosed = false

  const isWriterNow = async (): Promise<boolean> => {
    const isHeld = await hub.acquireWriter()
    if (isHeld !== isWriter) {
      options.logger.info(
        { relayer: options.account.address },
        isHeld
          ? 'Relayer holds the writer lock of its key'
          : 'Another instance relays with this key; waiting for its writer lock',
      )
      isWriter = isHeld
    }
    return isHeld
  }

  return {
    name: 'relayer',
    async lanes() {
      const relayerChains = await hub.chains()
      return relayerChains ? [...relayerChains.keys()].map(String) : []
    },
    async runOnce(lane) {
      if (isClosed) return 'idle'
      const relayerChains = await hub.chains()
      const chain = relayerChains?.get(Number(lane))
      // Not the writer: this instance looks again now and then, to take over when the writer stops.
      if (!relayerChains || !chain || !(await isWriterNow())) return 'idle'
      const chainId = chain.deployment.chainId
      // The hub's writer tasks first (x402 settlements another instance queued: a request waits on them).
      await hub.runWriterTasks(chain)
      let blocks = 0
      let isScanFailed = false
      try {
        const scan = await scanRelayerDeposits({
          db: options.db,
          client: chain.client,
          chainId,
          payRouter: chain.payRouter,
          confirmations: chain.confirmations,
          logger: options.logger,
          now,
        })
        blocks = scan.blocks
        if (scan.steppedBack) {
          options.logger.warn({ chainId, reason: scan.steppedBack }, 'Relayer scan stepped back')
        }
      } catch (error) {
        isScanFailed = true
        options.logger.warn({ err: error, chainId }, 'Relayer could not read deposits')
      }
      const taken: string[] = []
      for (let index = 0; index < depositsPerRound && !isClosed; index++) {
        const claimed = await claimDueDeposit(options.db, chainId, now(), taken)
        if (!claimed) break
        const { deposit, requestId } = claimed
        taken.push(deposit.id)
        await processRelayerDeposit(
          {
            db: options.db,
            chains: relayerChains,
            // Its lines name the intent themselves, and with this the request that last moved the
            // payment (docs/api.md#request-ids).
            logger: options.logger.child({ requestId: requestId ?? undefined }),
            now,
            retryDelayMs: options.config.workerIntervalMs,
            maxRetryDelayMs: options.maxRetryDelayMs ?? options.config.workerIntervalMs * 30,
          },
          deposit,
        )
      }
      // Idle only when no block was new and no deposit was due (a failed scan is not idle).
      return blocks === 0 && !isScanFailed && taken.length === 0 ? 'idle' : 'worked'
    },
    async close() {
      isClosed = true
      await hub.releaseWriter()
    },
  }
}
