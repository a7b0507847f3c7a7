import { existsSync } from 'node:fs'
import { buildViemChain } from '@quicklinks/devnet/build-viem-chain'
import type { DevnetDeployment } from '@quicklinks/devnet/devnet-deployment'
import { sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { createWalletClient, http, type LocalAccount } from 'viem'
import type { Database } from '../../db/create-database-client.ts'
import { type RelayerDeposit, relayerDeposits } from '../../db/schema.ts'
import type { ServerConfig } from '../../env.ts'
import { getChainRpcUrl } from '../chains/get-chain-rpc-url.ts'
import { getDevnetDeploymentOrThrow } from '../devnet/get-devnet-deployment-or-throw.ts'
import { getLocalPublicClient } from '../routing/providers/local/get-local-public-client.ts'
import { getPayRouterAddressOrThrow } from '../routing/providers/local/local-devnet-chain.ts'
import type { Worker } from '../workers/start-workers.ts'
import { depositLeaseMs, processRelayerDeposit, type RelayerChain } from './process-relayer-deposit.ts'
import { scanRelayerDeposits } from './scan-relayer-deposits.ts'

/** Deposits one round moves at most, so one busy chain cannot starve the tracker. */
const depositsPerRound = 20

export type CreateRelayerWorkerOptions = {
  db: Database
  config: Pick<ServerConfig, 'devnetDeploymentFile' | 'rpcUrls' | 'workerIntervalMs'>
  account: LocalAccount
  logger: FastifyBaseLogger
  /** Epoch ms; tests move it. */
  now?: () => number
}

/**
 * The local provider's relayer (ARCHITECTURE.md "Routing"): each round it stores new PayRouter
 * `Deposited` events of every devnet chain (from a cursor in the database), then takes due
 * deposits one at a time with `FOR UPDATE SKIP LOCKED` (several instances never share one) and
 * fills, settles or refunds them (see processRelayerDeposit). State lives in the database, so a
 * restart resumes where the last process stopped.
 */
export function createRelayerWorker(options: CreateRelayerWorkerOptions): Worker {
  const now = options.now ?? Date.now
  let chains: Map<number, RelayerChain> | undefined
  let chainsKey = ''

  const getChains = (deployment: DevnetDeployment): Map<number, RelayerChain> => {
    const key = JSON.stringify(
      deployment.chains.map((chain) => [chain.chainId, chain.rpcUrl, chain.contracts]),
    )
    if (chains && key === chainsKey) return chains
    chains = new Map()
    for (const chain of deployment.chains) {
      const rpcUrl = getChainRpcUrl(options.config, chain.chainId, deployment.chains)
      chains.set(chain.chainId, {
        deployment: chain,
        client: getLocalPublicClient(rpcUrl),
        wallet: createWalletClient({
          account: options.account,
          pollingInterval: 250,
          chain: buildViemChain({ ...chain, rpcUrl }),
          transport: http(rpcUrl, { retryCount: 1, timeout: 15_000 }),
        }),
        payRouter: getPayRouterAddressOrThrow(chain),
      })
    }
    chainsKey = key
    return chains
  }

  return {
    name: 'relayer',
    async runOnce() {
      // No devnet (yet): nothing to relay. The devnet may deploy after the server starts.
      if (!existsSync(options.config.devnetDeploymentFile)) return
      const deployment = await getDevnetDeploymentOrThrow(options.config.devnetDeploymentFile)
      const relayerChains = getChains(deployment)
      for (const chain of relayerChains.values()) {
        try {
          await scanRelayerDeposits({
            db: options.db,
            client: chain.client,
            chainId: chain.deployment.chainId,
            payRouter: chain.payRouter,
          })
        } catch (error) {
          options.logger.warn(
            { err: error, chainId: chain.deployment.chainId },
            'Relayer could not read deposits',
          )
        }
      }
      for (let index = 0; index < depositsPerRound; index++) {
        const deposit = await claimDueDeposit(options.db, now())
        if (!deposit) return
        await processRelayerDeposit(
          {
            db: options.db,
            chains: relayerChains,
            logger: options.logger,
            now,
            retryDelayMs: options.config.workerIntervalMs,
          },
          deposit,
        )
      }
    },
  }
}

/**
 * Takes the most overdue deposit that still needs work and leases it for `depositLeaseMs`
 * (next_attempt_at moves ahead), in one statement with `FOR UPDATE SKIP LOCKED`.
 */
async function claimDueDeposit(db: Database, nowMs: number): Promise<RelayerDeposit | undefined> {
  const now = new Date(nowMs)
  const leaseEnd = new Date(nowMs + depositLeaseMs)
  const result = await db.execute<{ id: string }>(sql`
    UPDATE ${relayerDeposits} SET next_attempt_at = ${leaseEnd.toISOString()}, updated_at = ${now.toISOString()}
    WHERE id = (
      SELECT id FROM ${relayerDeposits}
      WHERE state IN ('pending', 'filling', 'filled', 'refund_pending') AND next_attempt_at <= ${now.toISOString()}
      ORDER BY next_attempt_at
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`)
  const id = result.rows[0]?.id
  if (!id) return undefined
  const [row] = await db.select().from(relayerDeposits).where(sql`${relayerDeposits.id} = ${id}`)
  return row
}
