import type { RouteAction } from '@quicklinks/core/api/routing'
import { createLogger } from '@quicklinks/runtime/create-logger'
import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { encodeFunctionData, erc20Abi, type Hash, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTestConfig, createTestDatabase } from '../../../../test/build-test-app.ts'
import { type PaymentDevnet, startPaymentDevnet } from '../../../../test/payment-test-kit.ts'
import { createIntentId } from '../route/build-route.ts'
import { recordRouteReceipt } from '../route/record-route-receipt.ts'
import { insertRouteIntent, readRouteIntent } from '../route/route-intents-repository.ts'
import type { RouteStatus, RoutingProvider } from '../route/routing-provider.ts'
import { createTrackerWorker, type TrackerWorker } from './create-tracker-worker.ts'

// A third provider plugs in without touching the tracker: a stand-in bridge, registered here and
// nowhere else, whose payer sends USDC on Base to the bridge's vault and whose operator pays the
// receiver on Arbitrum. The same verifier that judges local and Squid payments follows it: the
// receiver's credit in the transaction the stand-in names decides, never the stand-in's word.

const base = 8453
const arbitrum = 42161
const payerIndex = 1
const receiverIndex = 2
/** The stand-in bridge's vault on Base and its operator on Arbitrum (one devnet account). */
const vaultIndex = 5

let devnet: PaymentDevnet
let database: DatabaseClient
let tracker: TrackerWorker
/** What the stand-in says of each payment: its word and, once it delivered, the transaction. */
const reports = new Map<string, Partial<RouteStatus>>()

const standInDataSchema = z.object({ requestId: z.string(), bridge: z.literal('stand-in') })

const standIn: RoutingProvider<z.output<typeof standInDataSchema>> = {
  name: 'stand-in',
  providerDataSchema: standInDataSchema,
  chains: async () => [],
  tokens: async () => [],
  route: async () => {
    throw new Error('the test stores its intents itself')
  },
  status: async (query) => ({
    statusRaw: 'ongoing',
    destTxHash: null,
    toAmountWei: null,
    steps: [],
    gasStatus: null,
    isGmpTransaction: false,
    axelarTransactionUrl: null,
    errorMessage: null,
    ...reports.get(query.intentId),
  }),
}

/** The payments the tracker told its listeners it made final, in order. */
const finals: string[] = []
/** The tracker's log lines, parsed. */
const logs: { msg?: string; intentId?: string; err?: { message?: string } }[] = []

beforeAll(async () => {
  devnet = await startPaymentDevnet()
  database = await createTestDatabase()
  const config = createTestConfig({ devnetDeploymentFile: devnet.deploymentFile, defaultConfirmations: 0 })
  tracker = createTrackerWorker({
    db: database.db,
    provider: standIn,
    config,
    logger: createLogger('info', { write: (line: string) => void logs.push(JSON.parse(line)) }),
  })
  // A broken listener first: the one after it is still told, and the look is no failure.
  tracker.onPaymentFinal(() => {
    throw new Error('listener broke')
  })
  tracker.onPaymentFinal((intentId) => finals.push(intentId))
})

afterAll(async () => {
  await database?.close()
  await devnet?.stop()
})

/** Stores a stand-in route of `amount` USDC from Base to the receiver on Arbitrum, as a quote would. */
async function storeStandInRoute(amount: bigint): Promise<{ intentId: Hash; toAmountMin: bigint }> {
  const intentId = createIntentId()
  const fromToken = devnet.token(base, 'USDC')
  const toToken = devnet.token(arbitrum, 'USDC')
  const toAmountMin = (amount * 99n) / 100n
  const usdc = (chainId: number, address: `0x${string}`) => ({
    chainId,
    address,
    symbol: 'USDC',
    decimals: 6,
    logoURI: '',
  })
  const action = (type: RouteAction['type'], fromChainId: number, toChainId: number): RouteAction => ({
    type,
    fromChainId,
    toChainId,
    fromToken: usdc(fromChainId, fromChainId === base ? fromToken : toToken),
    toToken: usdc(toChainId, toChainId === base ? fromToken : toToken),
    fromAmount: amount.toString(),
    toAmount: amount.toString(),
    toAmountMin: toAmountMin.toString(),
    provider: 'Stand-in bridge',
    providerLogoURI: '',
    estimatedMs: 1000,
  })
  await insertRouteIntent(database.db, {
    id: intentId,
    provider: standIn.name,
    fromChainId: base,
    toChainId: arbitrum,
    fromToken: fromToken.toLowerCase(),
    toToken: toToken.toLowerCase(),
    fromAmount: amount.toString(),
    toAmount: amount.toString(),
    toAmountMin: toAmountMin.toString(),
    fromAddress: devnet.account(payerIndex).address.toLowerCase(),
    toAddress: devnet.account(receiverIndex).address.toLowerCase(),
    slippage: 1,
    transactionRequest: {
      to: fromToken,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [devnet.account(vaultIndex).address, amount],
      }),
      value: '0',
    },
    actions: [action('bridge', base, arbitrum), action('transfer', arbitrum, arbitrum)],
    providerData: { requestId: `stand-in-${intentId.slice(2, 10)}`, bridge: 'stand-in' },
  })
  return { intentId, toAmountMin }
}

/** The payer's part: the route's transaction on Base, mined, and its hash posted. */
async function pay(intentId: Hash, amount: bigint): Promise<Hash> {
  const hash = await devnet.wallet(base, payerIndex).writeContract({
    address: devnet.token(base, 'USDC'),
    abi: erc20Abi,
    functionName: 'transfer',
    args: [devnet.account(vaultIndex).address, amount],
  })
  await devnet.publicClient(base).waitForTransactionReceipt({ hash })
  await recordRouteReceipt(database.db, intentId, hash)
  return hash
}

/** The stand-in operator pays the receiver on Arbitrum. */
async function deliver(amount: bigint): Promise<Hash> {
  const hash = await devnet.wallet(arbitrum, vaultIndex).writeContract({
    address: devnet.token(arbitrum, 'USDC'),
    abi: erc20Abi,
    functionName: 'transfer',
    args: [devnet.account(receiverIndex).address, amount],
  })
  await devnet.publicClient(arbitrum).waitForTransactionReceipt({ hash })
  return hash
}

async function look(intentId: Hash) {
  await tracker.trackNow(intentId)
  const intent = await readRouteIntent(database.db, intentId)
  if (!intent) throw new Error(`no intent ${intentId}`)
  return intent
}

describe('a stand-in third provider, tracked by the same verifier', { timeout: 60_000 }, () => {
  it('is bridging while the stand-in is on its way, and a success once its delivery credits the receiver', async () => {
    const amount = parseUnits('2', 6)
    const { intentId } = await storeStandInRoute(amount)
    const source = await pay(intentId, amount)

    const bridging = await look(intentId)
    expect([bridging.status, bridging.statusRaw, bridging.sourceTxHash]).toEqual([
      'bridging',
      'ongoing',
      source,
    ])
    expect(finals).not.toContain(intentId)

    const delivery = await deliver(amount)
    reports.set(intentId, { statusRaw: 'success', destTxHash: delivery })
    const done = await look(intentId)
    expect(done).toMatchObject({
      status: 'success',
      destTxHash: delivery,
      toAmountWei: amount.toString(),
      errorMessage: null,
      nextCheckAt: null,
    })
    expect(done.finalAt).not.toBeNull()
    // The workers that act on final payments are woken once, when it becomes final.
    await look(intentId)
    expect(finals.filter((id) => id === intentId)).toHaveLength(1)
    const lines = logs.filter((line) => line.intentId === intentId)
    expect(lines.filter((line) => line.msg === 'A listener of final payments failed')).toMatchObject([
      { err: { message: 'listener broke' } },
    ])
    expect(lines.map((line) => line.msg)).not.toContain('Tracking a payment failed; retrying')
  })

  it('is no success when the stand-in reports one whose delivery pays the receiver less, or names a transaction the chain lacks', async () => {
    const amount = parseUnits('3', 6)
    const short = await storeStandInRoute(amount)
    await pay(short.intentId, amount)
    const delivery = await deliver(short.toAmountMin - 1n)
    reports.set(short.intentId, { statusRaw: 'success', destTxHash: delivery })
    const failed = await look(short.intentId)
    expect(failed.status).toBe('failed')
    expect(failed.errorMessage).toMatch(
      /^The routing service reports success, but the receiver got 2\.969999 USDC of the 2\.97 USDC the route promised on chain 42161/,
    )

    const phantom = await storeStandInRoute(amount)
    await pay(phantom.intentId, amount)
    reports.set(phantom.intentId, { statusRaw: 'success', destTxHash: `0x${'77'.repeat(32)}` })
    const waiting = await look(phantom.intentId)
    expect(waiting.status).toBe('bridging')
    expect(waiting.nextCheckAt).not.toBeNull()
  })

  it('takes the stand-in’s own failure as final, with its message', async () => {
    const amount = parseUnits('1', 6)
    const { intentId } = await storeStandInRoute(amount)
    await pay(intentId, amount)
    reports.set(intentId, {
      statusRaw: 'failed_on_destination',
      destTxHash: null,
      errorMessage: 'Vault is empty',
    })
    const failed = await look(intentId)
    expect(failed).toMatchObject({
      status: 'failed',
      statusRaw: 'failed_on_destination',
      errorMessage: 'Vault is empty',
      nextCheckAt: null,
    })
    expect(failed.finalAt).not.toBeNull()
    expect(finals).toContain(intentId)
  })
})
