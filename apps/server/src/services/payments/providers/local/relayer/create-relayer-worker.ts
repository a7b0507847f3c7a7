import { existsSync } from 'node:fs'
import { buildViemChain } from '@quicklinks/devnet/build-viem-chain'
import type { DevnetDeployment } from '@quicklinks/devnet/devnet-deployment'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { getDevnetDeploymentOrThrow } from '@quicklinks/runtime/devnet/get-devnet-deployment-or-throw'
import type { FastifyBaseLogger } from 'fastify'
import { createWalletClient, http, type LocalAccount } from 'viem'
import { createNonceManager, jsonRpc } from 'viem/nonce'
import { getConfirmations } from '../../../../../config/routing-env.ts'
import type { ServerConfig } from '../../../../../config/server-env.ts'
import { getChainRpcUrl } from '../../../../chains/get-chain-rpc-url.ts'
import { getLocalPublicClient } from '../../../../chains/get-local-public-client.ts'
import type { Worker } from '../../../../workers/start-workers.ts'
import { getPayRouterAddressOrThrow } from '../payrouter/get-pay-router-address-or-throw.ts'
import { processRelayerDeposit } from './process-relayer-deposit.ts'
import type { RelayerChain } from './relayer-chain.ts'
import { claimDueDeposit } from './relayer-deposits-repository.ts'
import { createRelayerWriterLock } from './relayer-writer-lock.ts'
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
 * A slow chain therefore never holds up another. Only the instance holding the relayer key's
 * writer lock does any of this; the others retry the lock every round. All lanes sign through one
 * account with one nonce manager, so transactions they send to one chain never share a nonce.
 * State lives in the database, so a restart resumes where the last process stopped.
 */
export function createRelayerWorker(options: CreateRelayerWorkerOptions): RelayerWorker {
  const now = options.now ?? Date.now
  const lock = createRelayerWriterLock(options.db, options.account.address)
  let isWriter: boolean | undefined
  let isClosed = false
  let chains: Map<number, RelayerChain> | undefined
  let chainsKey = ''

  const getChains = (deployment: DevnetDeployment): Map<number, RelayerChain> => {
    const key = JSON.stringify(
      deployment.chains.map((chain) => [chain.chainId, chain.rpcUrl, chain.contracts]),
    )
    if (chains && key === chainsKey) return chains
    // A new deployment (a reset devnet) starts counting nonces afresh.
    const account: LocalAccount = {
      ...options.account,
      nonceManager: createNonceManager({ source: jsonRpc() }),
    }
    chains = new Map()
    for (const chain of deployment.chains) {
      const rpcUrl = getChainRpcUrl(options.config, chain.chainId, deployment.chains)
      chains.set(chain.chainId, {
        deployment: chain,
        client: getLocalPublicClient(rpcUrl),
        wallet: createWalletClient({
          account,
          pollingInterval: 250,
          chain: buildViemChain({ ...chain, rpcUrl }),
          transport: http(rpcUrl, { retryCount: 1, timeout: 15_000 }),
        }),
        payRouter: getPayRouterAddressOrThrow(chain),
        confirmations: getConfirmations(options.config, chain.chainId),
      })
    }
    chainsKey = key
    return chains
  }

  const readDeployment = async (): Promise<DevnetDeployment | undefined> => {
    // No devnet (yet): nothing to relay. The devnet may deploy after the server starts.
    if (!existsSync(options.config.devnetDeploymentFile)) return undefined
    return getDevnetDeploymentOrThrow(options.config.devnetDeploymentFile)
  }

  const isWriterNow = async (): Promise<boolean> => {
    const isHeld = await lock.acquire()
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
      const deployment = await readDeployment()
      return deployment ? deployment.chains.map((chain) => String(chain.chainId)) : []
    },
    async runOnce(lane) {
      if (isClosed) return
      const deployment = await readDeployment()
      if (!deployment) return
      const relayerChains = getChains(deployment)
      const chain = relayerChains.get(Number(lane))
      if (!chain || !(await isWriterNow())) return
      const chainId = chain.deployment.chainId
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
        if (scan.steppedBack) {
          options.logger.warn({ chainId, reason: scan.steppedBack }, 'Relayer scan stepped back')
        }
      } catch (error) {
        options.logger.warn({ err: error, chainId }, 'Relayer could not read deposits')
      }
      const taken: string[] = []
      for (let index = 0; index < depositsPerRound && !isClosed; index++) {
        const claimed = await claimDueDeposit(options.db, chainId, now(), taken)
        if (!claimed) return
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
    },
    async close() {
      isClosed = true
      await lock.release()
    },
  }
}
