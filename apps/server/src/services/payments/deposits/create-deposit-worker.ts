import { buildViemChain } from '@quicklinks/devnet/build-viem-chain'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { FastifyBaseLogger } from 'fastify'
import { createWalletClient, http, type LocalAccount } from 'viem'
import { createNonceManager, jsonRpc } from 'viem/nonce'
import { getConfirmations } from '../../../config/routing-env.ts'
import type { ServerConfig } from '../../../config/server-env.ts'
import type { Worker } from '../../workers/start-workers.ts'
import type { RelayerChain } from '../providers/local/relayer/relayer-chain.ts'
import {
  createRelayerWriterLock,
  type RelayerWriterLock,
} from '../providers/local/relayer/relayer-writer-lock.ts'
import type { RoutingProvider } from '../route/routing-provider.ts'
import { claimDueTransfer } from './deposits-repository.ts'
import { type DepositSetup, readDepositSetup } from './get-deposit-setup.ts'
import { processDepositTransfer } from './process-deposit-transfer.ts'
import { scanDepositTransfers } from './scan-deposit-transfers.ts'

/** Transfers one round of a lane moves on at most. */
const transfersPerRound = 10

export type CreateDepositWorkerOptions = {
  db: Database
  config: Parameters<typeof readDepositSetup>[0] &
    Pick<ServerConfig, 'confirmations' | 'defaultConfirmations' | 'workerIntervalMs'>
  provider: RoutingProvider
  logger: FastifyBaseLogger
  /** Epoch ms; tests move it. */
  now?: () => number
  /** Told when a transfer was routed, so the tracker looks at once. */
  onRouted?: () => void
}

/**
 * The deposit watcher (docs/decisions/0030). Its lanes are the chains deposits run on; a round of
 * a lane stores the chain's new transfers into watched deposit addresses (scanDepositTransfers),
 * then takes due transfers of that chain one at a time (`FOR UPDATE SKIP LOCKED` and a lease) and
 * routes or refunds them (processDepositTransfer). Only the instance holding the operator key's
 * writer lock sends anything; all lanes sign through one nonce manager. State lives in the
 * database, so a restart resumes where the last process stopped. Idle without a deposit setup.
 */
export function createDepositWorker(options: CreateDepositWorkerOptions): Required<Worker> {
  const now = options.now ?? Date.now
  let lock: RelayerWriterLock | undefined
  let chains: Map<number, RelayerChain> | undefined
  let chainsKey = ''
  let isClosed = false

  const getChains = (setup: DepositSetup): Map<number, RelayerChain> => {
    const key = JSON.stringify([
      setup.operator.address,
      setup.chains.map((chain) => [chain.chainId, chain.rpcUrl]),
    ])
    if (chains && key === chainsKey) return chains
    lock ??= createRelayerWriterLock(options.db, setup.operator.address)
    chains = buildDepositChains(setup, options.config)
    chainsKey = key
    return chains
  }

  return {
    name: 'deposits',
    async lanes() {
      const setup = await readDepositSetup(options.config)
      return setup ? setup.chains.map((chain) => String(chain.chainId)) : []
    },
    async runOnce(lane) {
      if (isClosed) return 'idle'
      const setup = await readDepositSetup(options.config)
      if (!setup) return 'idle'
      const chain = getChains(setup).get(Number(lane))
      // Another instance holds the operator's lock: this one looks again now and then, to take over.
      if (!chain || !(await lock?.acquire())) return 'idle'
      const chainId = chain.deployment.chainId
      const scan = await scanDepositTransfers({
        db: options.db,
        client: chain.client,
        chainId,
        confirmations: chain.confirmations,
        now,
      })
      const taken: string[] = []
      for (let index = 0; index < transfersPerRound && !isClosed; index++) {
        const transfer = await claimDueTransfer(options.db, chainId, now(), taken)
        if (!transfer) break
        taken.push(transfer.id)
        await processDepositTransfer(
          {
            db: options.db,
            provider: options.provider,
            setup,
            chain,
            logger: options.logger,
            now,
            retryDelayMs: options.config.workerIntervalMs,
          },
          transfer,
        )
        options.onRouted?.()
      }
      // Idle only when no block was new and nothing was due: on a chain that makes blocks faster
      // than the interval, every round reads one.
      return scan.blocks === 0 && taken.length === 0 ? 'idle' : 'worked'
    },
    async close() {
      isClosed = true
      await lock?.release()
    },
  }
}

/**
 * The deposit operator's signer on each chain of the setup, all lanes sharing one nonce manager
 * (a new one per call: a new deployment counts nonces afresh). Never throws.
 */
export function buildDepositChains(
  setup: DepositSetup,
  config: Pick<ServerConfig, 'confirmations' | 'defaultConfirmations'>,
): Map<number, RelayerChain> {
  const account: LocalAccount = { ...setup.operator, nonceManager: createNonceManager({ source: jsonRpc() }) }
  const chains = new Map<number, RelayerChain>()
  for (const chain of setup.chains) {
    const client = setup.getClient(chain.chainId)
    const rpcUrl = client.transport.url ?? chain.rpcUrl
    chains.set(chain.chainId, {
      deployment: chain,
      client,
      wallet: createWalletClient({
        account,
        pollingInterval: 250,
        chain: buildViemChain({ ...chain, rpcUrl }),
        transport: http(rpcUrl, { retryCount: 1, timeout: 15_000 }),
      }),
      payRouter: chain.contracts.payRouter,
      confirmations: getConfirmations(config, chain.chainId),
    })
  }
  return chains
}
