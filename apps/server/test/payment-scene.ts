import { afterAll, beforeAll } from 'vitest'
import type { AppDependencies } from '../src/app.ts'
import type { ServerConfig } from '../src/config/server-env.ts'
import type { TestApp } from './build-test-app.ts'
import {
  createTestLink,
  type PaymentDevnet,
  startPaymentApp,
  startPaymentDevnet,
  type TestRoute,
} from './payment-test-kit.ts'

/** What a payment test file shares: one devnet and one app running its workers over it. */
export type PaymentScene = {
  readonly devnet: PaymentDevnet
  readonly testApp: TestApp
}

/**
 * Registers the file's hooks: a payment devnet and an app running its workers every 100 ms
 * (`startPaymentApp`, with these config `overrides` and `onWorkerRound`) before all tests, both
 * stopped after the file. Call once at the top of a test file.
 */
export function usePaymentScene(
  overrides: Partial<ServerConfig> = {},
  dependencies: Pick<AppDependencies, 'onWorkerRound' | 'workerNow'> = {},
): PaymentScene {
  let devnet: PaymentDevnet | undefined
  let testApp: TestApp | undefined
  beforeAll(async () => {
    devnet = await startPaymentDevnet()
    testApp = await startPaymentApp(devnet, overrides, dependencies)
  })
  afterAll(async () => {
    await testApp?.close()
    await devnet?.stop()
  })
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the payment scene is used before its beforeAll ran')
    return value
  }
  return {
    get devnet() {
      return started(devnet)
    },
    get testApp() {
      return started(testApp)
    },
  }
}

/**
 * Sends exactly the route's transaction from the payer and waits until it is mined. As the pay
 * modal does, with the route's gas limit: an ERC-20 payment cannot be estimated before its approval.
 */
export async function sendRouteTransaction(
  devnet: PaymentDevnet,
  payerIndex: number,
  fromChain: number,
  built: TestRoute,
) {
  const request = built.route.transactionRequest
  const hash = await devnet.wallet(fromChain, payerIndex).sendTransaction({
    to: request.to,
    data: request.data,
    value: BigInt(request.value),
    gas: BigInt(request.gasLimit),
  })
  return { hash, receipt: await devnet.publicClient(fromChain).waitForTransactionReceipt({ hash }) }
}

/** A payment link of account `receiverIndex` (owner and receiver) for `symbol` on `chainId`, stored as the owner would create it. */
export async function createReceiverLink(
  scene: PaymentScene,
  receiverIndex: number,
  chainId: number,
  symbol: string,
): Promise<{ id: string; tokenAddress: `0x${string}` }> {
  const tokenAddress = scene.devnet.token(chainId, symbol)
  const receiver = scene.devnet.account(receiverIndex).address
  const link = await createTestLink(scene.testApp.database.db, {
    owner: receiver,
    receiver,
    chainId,
    token: tokenAddress,
    symbol,
  })
  return { id: link.id, tokenAddress }
}
