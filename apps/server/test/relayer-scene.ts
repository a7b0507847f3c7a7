import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { afterAll, afterEach, beforeAll } from 'vitest'
import type { RelayerWorker } from '../src/services/payments/providers/local/relayer/create-relayer-worker.ts'
import { buildTestApp, createTestDatabase, type TestApp } from './build-test-app.ts'
import {
  buildTestRoute,
  getDevnetRelayerPrivateKey,
  type PaymentDevnet,
  startPaymentDevnet,
} from './payment-test-kit.ts'
import { createTestRelayer, readTestDepositQuote } from './relayer-test-kit.ts'

/** The devnet account that pays in the relayer's tests. */
export const relayerPayerIndex = 1
/** The devnet account the links pay. */
export const relayerReceiverIndex = 4

/** What a relayer test file shares: one devnet, one database, an app that quotes, its relayers. */
export type RelayerScene = {
  readonly devnet: PaymentDevnet
  readonly database: DatabaseClient
  /** Quotes only: this app runs no workers; each test runs the relayers it needs. */
  readonly routesApp: TestApp
  /** A relayer over the scene's database (with these confirmation depths), closed after the test. */
  createRelayer(confirmations?: Record<number, number>): RelayerWorker
  /** A USDC route from `fromChain` to `toChain` paying the receiver, and its stored quote. */
  quoteUsdcRoute(
    fromChain: number,
    toChain: number,
    amount: bigint,
  ): Promise<
    Awaited<ReturnType<typeof buildTestRoute>> & { quote: Awaited<ReturnType<typeof readTestDepositQuote>> }
  >
}

/**
 * Registers the file's hooks: a payment devnet, a database and a quoting app before all tests; every
 * relayer a test made closed after it (giving its writer lock back, so the next test's relayer can
 * write); all of it stopped after the file. Call once at the top of a test file.
 */
export function useRelayerScene(): RelayerScene {
  let devnet: PaymentDevnet | undefined
  let database: DatabaseClient | undefined
  let routesApp: TestApp | undefined
  const relayers: RelayerWorker[] = []
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the relayer scene is used before its beforeAll ran')
    return value
  }

  beforeAll(async () => {
    devnet = await startPaymentDevnet()
    database = await createTestDatabase()
    routesApp = await buildTestApp(
      {
        devMode: true,
        devnetDeploymentFile: devnet.deploymentFile,
        relayerPrivateKey: getDevnetRelayerPrivateKey(),
      },
      { database },
    )
  })
  afterEach(async () => {
    for (const relayer of relayers.splice(0)) await relayer.close()
  })
  afterAll(async () => {
    await routesApp?.app.close()
    await database?.close()
    await devnet?.stop()
  })

  const scene: RelayerScene = {
    get devnet() {
      return started(devnet)
    },
    get database() {
      return started(database)
    },
    get routesApp() {
      return started(routesApp)
    },
    createRelayer(confirmations = {}) {
      const relayer = createTestRelayer(scene.devnet, scene.database, scene.routesApp.app.log, confirmations)
      relayers.push(relayer)
      return relayer
    },
    async quoteUsdcRoute(fromChain, toChain, amount) {
      const built = await buildTestRoute(scene.routesApp.app, {
        fromChain,
        toChain,
        fromToken: scene.devnet.token(fromChain, 'USDC'),
        toToken: scene.devnet.token(toChain, 'USDC'),
        fromAmount: amount.toString(),
        fromAddress: scene.devnet.account(relayerPayerIndex).address,
        toAddress: scene.devnet.account(relayerReceiverIndex).address,
      })
      return { ...built, quote: await readTestDepositQuote(scene.database, built.intentId) }
    },
  }
  return scene
}
