import { existsSync } from 'node:fs'
import { buildViemChain } from '@quicklinks/devnet/build-viem-chain'
import type { DevnetDeployment } from '@quicklinks/devnet/devnet-deployment'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { getDevnetDeploymentOrThrow } from '@quicklinks/runtime/devnet/get-devnet-deployment-or-throw'
import { createWalletClient, http, type LocalAccount } from 'viem'
import { createNonceManager, jsonRpc } from 'viem/nonce'
import { getConfirmations } from '../../../../../config/routing-env.ts'
import type { ServerConfig } from '../../../../../config/server-env.ts'
import { getChainRpcUrl } from '../../../../chains/get-chain-rpc-url.ts'
import { getLocalPublicClient } from '../../../../chains/get-local-public-client.ts'
import { getPayRouterAddressOrThrow } from '../payrouter/get-pay-router-address-or-throw.ts'
import type { RelayerChain } from './relayer-chain.ts'
import { createRelayerWriterLock } from './relayer-writer-lock.ts'

export type RelayerHubConfig = Pick<
  ServerConfig,
  'devnetDeploymentFile' | 'rpcUrls' | 'confirmations' | 'defaultConfirmations'
>

/**
 * One relayer key in one process: its chains (one account, one nonce manager, shared by every
 * caller, so the relayer's fills and the x402 facilitator's settlements never sign two
 * transactions with one nonce) and its writer lock. The relayer worker takes the lock; others only
 * ask whether this instance holds it.
 */
export type RelayerHub = {
  readonly address: `0x${string}`
  /**
   * The relayer's chains for the deployment on file now, built once per deployment (a reset devnet
   * starts counting nonces afresh); undefined while there is no deployment file. Throws when the
   * file is unreadable.
   */
  chains(): Promise<ReadonlyMap<number, RelayerChain> | undefined>
  /** Takes the writer lock when free, or checks it is still held (the relayer worker's rounds). Throws on database errors. */
  acquireWriter(): Promise<boolean>
  /**
   * Whether this instance holds the writer lock now. Never takes a free lock: only a running relayer
   * worker writes, since it also sends what other instances queued. Never throws (false on errors).
   */
  isWriter(): Promise<boolean>
  /** Gives the writer lock up (the worker stops); safe to call twice. */
  releaseWriter(): Promise<void>
  /**
   * Adds work the writer does on a chain at the start of each relayer round, before its deposits
   * (x402 settlements other instances queued: docs/decisions/0031). Tasks must not throw.
   */
  addWriterTask(task: RelayerWriterTask): void
  /** Runs the writer tasks on one chain, in the order added (the relayer worker's rounds). */
  runWriterTasks(chain: RelayerChain): Promise<void>
}

/** Work on one chain that only the writer of the relayer key does. */
export type RelayerWriterTask = (chain: RelayerChain) => Promise<void>

/** The hub of `account` on `db` (docs/decisions/0009, 0031). Builds nothing until asked. */
export function createRelayerHub(options: {
  db: Database
  config: RelayerHubConfig
  account: LocalAccount
}): RelayerHub {
  const lock = createRelayerWriterLock(options.db, options.account.address)
  let isHeld = false
  const tasks: RelayerWriterTask[] = []
  let chains: Map<number, RelayerChain> | undefined
  let chainsKey = ''

  const buildChains = (deployment: DevnetDeployment): Map<number, RelayerChain> => {
    const key = JSON.stringify(
      deployment.chains.map((chain) => [chain.chainId, chain.rpcUrl, chain.contracts]),
    )
    if (chains && key === chainsKey) return chains
    const account: LocalAccount = {
      ...options.account,
      nonceManager: createNonceManager({ source: jsonRpc() }),
    }
    const built = new Map<number, RelayerChain>()
    for (const chain of deployment.chains) {
      const rpcUrl = getChainRpcUrl(options.config, chain.chainId, deployment.chains)
      built.set(chain.chainId, {
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
    chains = built
    chainsKey = key
    return built
  }

  return {
    address: options.account.address,
    async chains() {
      // No devnet (yet): nothing to relay. The devnet may deploy after the server starts.
      if (!existsSync(options.config.devnetDeploymentFile)) return undefined
      return buildChains(await getDevnetDeploymentOrThrow(options.config.devnetDeploymentFile))
    },
    async acquireWriter() {
      isHeld = await lock.acquire()
      return isHeld
    },
    async isWriter() {
      if (!isHeld) return false
      // Checks the lock is still ours (on Postgres, that its connection lives) before answering yes.
      isHeld = await lock.acquire().catch(() => false)
      return isHeld
    },
    async releaseWriter() {
      isHeld = false
      await lock.release()
    },
    addWriterTask(task) {
      tasks.push(task)
    },
    async runWriterTasks(chain) {
      for (const task of tasks) await task(chain)
    },
  }
}
