import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { eq } from 'drizzle-orm'
import { parseUnits } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, createTestDatabase, type TestApp } from '../../../../../../test/build-test-app.ts'
import { createWorkerRounds, type WorkerRounds } from '../../../../../../test/create-worker-rounds.ts'
import {
  buildTestRoute,
  getDevnetRelayerPrivateKey,
  type PaymentDevnet,
  startPaymentDevnet,
} from '../../../../../../test/payment-test-kit.ts'
import {
  createTestRelayer,
  getTestChainControl,
  getTestEscrowState,
  getTestFills,
  getTestSettlements,
  payTestRoute,
  readTestDeposit,
  readTestDepositQuote,
  readTestDeposits,
  runTestRelayer,
  sendTestDeposit,
  waitForTestValue,
} from '../../../../../../test/relayer-test-kit.ts'
import { routeIntents } from '../../../../../db/schema.ts'
import { recordRouteReceipt } from '../../../route/record-route-receipt.ts'
import { createTrackerWorker } from '../../../tracking/create-tracker-worker.ts'
import { getRoutingProvider } from '../../get-routing-provider.ts'
import type { RelayerWorker } from './create-relayer-worker.ts'

let devnet: PaymentDevnet
let database: DatabaseClient
let routesApp: TestApp
const relayers: RelayerWorker[] = []

const payerIndex = 1
const receiverIndex = 4
const thiefIndex = 6

beforeAll(async () => {
  devnet = await startPaymentDevnet()
  database = await createTestDatabase()
  // Quotes only: this app runs no workers; each test runs the relayers it needs.
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
  // Every relayer gives its writer lock back, so the next test's relayer can write.
  for (const relayer of relayers.splice(0)) await relayer.close()
})

afterAll(async () => {
  await routesApp?.app.close()
  await database?.close()
  await devnet?.stop()
})

function createRelayer(confirmations: Record<number, number> = {}): RelayerWorker {
  const relayer = createTestRelayer(devnet, database, routesApp.app.log, confirmations)
  relayers.push(relayer)
  return relayer
}

/** A USDC route from `fromChain` to `toChain` for the receiver, and its stored quote. */
async function quoteUsdcRoute(fromChain: number, toChain: number, amount: bigint) {
  const built = await buildTestRoute(routesApp.app, {
    fromChain,
    toChain,
    fromToken: devnet.token(fromChain, 'USDC'),
    toToken: devnet.token(toChain, 'USDC'),
    fromAmount: amount.toString(),
    fromAddress: devnet.account(payerIndex).address,
    toAddress: devnet.account(receiverIndex).address,
  })
  return { ...built, quote: await readTestDepositQuote(database, built.intentId) }
}

// Chain round trips on a CI runner shared by every test project: more room than the default 30 s.
describe('the relayer fills only deposits that match their quotes', { timeout: 60_000 }, () => {
  it('ignores copies of an intent id that pay someone else or less; the honest deposit is filled exactly once', async () => {
    const amount = parseUnits('20', 6)
    const { intentId, route, quote } = await quoteUsdcRoute(8453, 43114, amount)
    const usdc = devnet.token(8453, 'USDC')
    const destinationUsdc = devnet.token(43114, 'USDC')
    const receiver = devnet.account(receiverIndex).address
    const thief = devnet.account(thiefIndex).address
    const honestArgs = {
      chainId: 8453,
      payerIndex,
      intentId,
      tokenIn: usdc,
      amountIn: amount,
      minEscrowAmount: quote.minEscrowAmount,
      destinationChainId: 43114,
      destinationToken: destinationUsdc,
      minAmountOut: quote.toAmountMin,
      receiver,
      fillDeadline: quote.fillDeadline,
    }
    const receiverBefore = await devnet.balanceOf(43114, destinationUsdc, receiver)
    const thiefBefore = await devnet.balanceOf(43114, destinationUsdc, thief)

    // Deposits that carry the stored intent's id: to another receiver, escrowing less, asking for
    // less out, and one by another payer paying themselves.
    const otherReceiver = await sendTestDeposit(devnet, { ...honestArgs, receiver: thief })
    const lessEscrow = await sendTestDeposit(devnet, {
      ...honestArgs,
      amountIn: quote.minEscrowAmount - 1n,
      minEscrowAmount: 1n,
    })
    const lessOut = await sendTestDeposit(devnet, { ...honestArgs, minAmountOut: quote.toAmountMin - 1n })
    const otherPayer = await sendTestDeposit(devnet, {
      ...honestArgs,
      payerIndex: thiefIndex,
      receiver: thief,
    })
    const honest = await payTestRoute(devnet, 8453, payerIndex, route, usdc, amount)

    const relayer = createRelayer()
    await runTestRelayer(relayer, [8453], 2)
    expect((await readTestDeposit(database, honest.orderKey)).state).toBe('settled')
    for (const [copy, mismatch] of [
      [otherReceiver, 'receiver'],
      [lessEscrow, 'escrow amount'],
      [lessOut, 'minimum out'],
      [otherPayer, 'payer, receiver'],
    ] as const) {
      const row = await readTestDeposit(database, copy.orderKey)
      expect(row.state).toBe('ignored')
      expect(row.lastError).toBe(`Ignored: does not match its route intent (${mismatch})`)
      // Never refunded by the relayer: the payer may take it back after the settlement window.
      expect(await getTestEscrowState(devnet, 8453, copy.orderKey)).toBe(1)
    }

    // A second deposit that matches the quote (the payer paid twice) is not filled either.
    const twice = await sendTestDeposit(devnet, { ...honestArgs, amountIn: amount + 1n })
    await runTestRelayer(relayer, [8453], 2)
    const twiceRow = await readTestDeposit(database, twice.orderKey)
    expect(twiceRow.state).toBe('refund_pending')
    expect(twiceRow.lastError).toBe(`The intent is filled through another deposit (${honest.orderKey})`)

    const fills = await getTestFills(devnet, 43114, intentId)
    expect(fills.map((fill) => fill.args.receiver.toLowerCase())).toEqual([receiver.toLowerCase()])
    expect(fills[0]?.args.orderKey).toBe(honest.orderKey)
    expect((await devnet.balanceOf(43114, destinationUsdc, receiver)) - receiverBefore).toBe(amount)
    expect(await devnet.balanceOf(43114, destinationUsdc, thief)).toBe(thiefBefore)
    expect((await getTestSettlements(devnet, 8453, intentId)).map((event) => event.args.orderKey)).toEqual([
      honest.orderKey,
    ])
  })

  it('pays the merchant once when the intent id is copied onto another chain, and settles only the escrow it filled', async () => {
    const amount = parseUnits('9', 6)
    const { intentId, route, quote } = await quoteUsdcRoute(8453, 43114, amount)
    const destinationUsdc = devnet.token(43114, 'USDC')
    const receiver = devnet.account(receiverIndex).address
    const receiverBefore = await devnet.balanceOf(43114, destinationUsdc, receiver)

    // The same payer deposits the very same order on Arbitrum: same id, receiver, amounts, deadline.
    const copy = await sendTestDeposit(devnet, {
      chainId: 42161,
      payerIndex,
      intentId,
      tokenIn: devnet.token(42161, 'USDC'),
      amountIn: amount,
      minEscrowAmount: quote.minEscrowAmount,
      destinationChainId: 43114,
      destinationToken: destinationUsdc,
      minAmountOut: quote.toAmountMin,
      receiver,
      fillDeadline: quote.fillDeadline,
    })
    const honest = await payTestRoute(devnet, 8453, payerIndex, route, devnet.token(8453, 'USDC'), amount)
    expect(copy.orderKey).not.toBe(honest.orderKey)

    const relayer = createRelayer()
    await runTestRelayer(relayer, [42161, 8453], 2)

    expect((await readTestDeposit(database, honest.orderKey)).state).toBe('settled')
    const copyRow = await readTestDeposit(database, copy.orderKey)
    expect(copyRow.state).toBe('ignored')
    expect(copyRow.lastError).toBe('Ignored: does not match its route intent (source chain)')
    const fills = await getTestFills(devnet, 43114, intentId)
    expect(fills.map((fill) => fill.args.orderKey)).toEqual([honest.orderKey])
    expect((await devnet.balanceOf(43114, destinationUsdc, receiver)) - receiverBefore).toBe(amount)
    // Settled on the chain it was filled for, never on the copy's chain.
    expect((await getTestSettlements(devnet, 8453, intentId)).map((event) => event.args.orderKey)).toEqual([
      honest.orderKey,
    ])
    expect(await getTestSettlements(devnet, 42161, intentId)).toHaveLength(0)
    expect(await getTestEscrowState(devnet, 8453, honest.orderKey)).toBe(2)
    expect(await getTestEscrowState(devnet, 42161, copy.orderKey)).toBe(1)
  })

  it('waits for the confirmation depth, never fills a deposit a reorg took away, and fills it once when mined again', async () => {
    const amount = parseUnits('4', 6)
    const { intentId, route } = await quoteUsdcRoute(8453, 42161, amount)
    const source = getTestChainControl(devnet, 8453)
    const usdc = devnet.token(8453, 'USDC')
    const relayer = createRelayer({ 8453: 2 })

    // The tracker, with the same depth, follows the payment's record through it all.
    const tracker = createTrackerWorker({
      db: database.db,
      provider: getRoutingProvider(routesApp.app.config),
      config: { ...routesApp.app.config, confirmations: { 8453: 2 } },
      logger: routesApp.app.log,
    })
    const readRecord = async (hash: string) => {
      await recordRouteReceipt(database.db, intentId, hash)
      await tracker.trackNow(intentId)
      const [record] = await database.db.select().from(routeIntents).where(eq(routeIntents.id, intentId))
      return record
    }

    const deposit = await payTestRoute(devnet, 8453, payerIndex, route, usdc, amount)
    expect((await readRecord(deposit.txHash))?.status).toBe('bridging')
    await runTestRelayer(relayer, [8453])
    let row = await readTestDeposit(database, deposit.orderKey)
    expect(row.state).toBe('pending')
    expect(row.depositBlockHash).toMatch(/^0x[0-9a-f]{64}$/)
    await source.mine(1)
    await runTestRelayer(relayer, [8453])
    expect((await readTestDeposit(database, deposit.orderKey)).state).toBe('pending')
    expect(await getTestFills(devnet, 42161, intentId)).toHaveLength(0)

    // The deposit's block and the one on top are replaced; one more block would have made it deep enough.
    await source.reorg(2)
    await source.mine(1)
    await runTestRelayer(relayer, [8453])
    row = await readTestDeposit(database, deposit.orderKey)
    expect(row.state).toBe('orphaned')
    expect(await getTestFills(devnet, 42161, intentId)).toHaveLength(0)
    // The record no longer relies on a deposit the chain does not have.
    expect(await readRecord(deposit.txHash)).toMatchObject({ status: 'submitted', sourceBlockHash: null })

    // The payer sends the same deposit again (the reorg dropped it): the same order, found again.
    const again = await payTestRoute(devnet, 8453, payerIndex, route, usdc, amount)
    expect(again.orderKey).toBe(deposit.orderKey)
    await runTestRelayer(relayer, [8453])
    row = await readTestDeposit(database, deposit.orderKey)
    expect(row.state).toBe('pending')
    expect(row.depositBlock).toBe(Number(again.blockNumber))
    expect(await getTestFills(devnet, 42161, intentId)).toHaveLength(0)

    await source.mine(2)
    await runTestRelayer(relayer, [8453])
    row = await readTestDeposit(database, deposit.orderKey)
    expect(row.state).toBe('settled')
    expect(await readTestDeposits(database, intentId)).toHaveLength(1)
    expect(await getTestFills(devnet, 42161, intentId)).toHaveLength(1)
    expect(await getTestEscrowState(devnet, 8453, deposit.orderKey)).toBe(2)
    // The re-sent deposit (a new hash) pays the same intent: the record follows it to a success
    // with what the receiver got on Arbitrum.
    const record = await readRecord(again.txHash)
    expect(record).toMatchObject({ status: 'success', sourceTxHash: again.txHash.toLowerCase() })
    const [fill] = await getTestFills(devnet, 42161, intentId)
    expect(record?.toAmountWei).toBe(fill?.args.amount.toString())
    expect(record?.destTxHash).toBe(fill?.transactionHash)
  })

  it('two app instances on one database relay with one writer, each deposit filled once, and the other takes over', async () => {
    // Each instance's worker rounds, so the test waits for rounds instead of time.
    const rounds = new Map<TestApp, WorkerRounds>()
    const startApp = async () => {
      const appRounds = createWorkerRounds()
      const testApp = await buildTestApp(
        {
          devMode: true,
          devnetDeploymentFile: devnet.deploymentFile,
          relayerPrivateKey: getDevnetRelayerPrivateKey(),
          workerIntervalMs: 100,
        },
        { database, startWorkers: true, onWorkerRound: appRounds.onWorkerRound },
      )
      rounds.set(testApp, appRounds)
      return testApp
    }
    const apps = [await startApp(), await startApp()]
    const roundsOf = (testApp: TestApp): WorkerRounds => {
      const appRounds = rounds.get(testApp)
      if (!appRounds) throw new Error('an app without its rounds')
      return appRounds
    }
    let closed: TestApp | undefined
    // The next relayer round of any instance still running.
    const nextRelayerRound = () =>
      Promise.race(
        apps.filter((testApp) => testApp !== closed).map((testApp) => roundsOf(testApp).next('relayer')),
      )
    const lockMessage = 'Relayer holds the writer lock of its key'
    const writers = () => apps.filter((testApp) => testApp.logs.some((line) => line.msg === lockMessage))
    try {
      const payments = [
        { from: 8453, to: 42161, amount: parseUnits('3', 6) },
        { from: 42161, to: 8453, amount: parseUnits('2', 6) },
      ]
      const paid = []
      for (const payment of payments) {
        const { intentId, route } = await quoteUsdcRoute(payment.from, payment.to, payment.amount)
        const deposit = await payTestRoute(
          devnet,
          payment.from,
          payerIndex,
          route,
          devnet.token(payment.from, 'USDC'),
          payment.amount,
        )
        paid.push({ ...payment, intentId, deposit })
      }
      for (const payment of paid) {
        await waitForTestValue(
          async () => {
            const row = await readTestDeposit(database, payment.deposit.orderKey).catch(() => undefined)
            return row?.state === 'settled' ? row : undefined
          },
          `settlement of ${payment.intentId}`,
          nextRelayerRound,
        )
      }
      expect(writers().length).toBe(1)
      const [writer] = writers()
      const other = apps.find((testApp) => testApp !== writer)
      if (!writer || !other) throw new Error('expected one writer and one waiting instance')
      expect(
        other.logs.some(
          (line) => line.msg === 'Another instance relays with this key; waiting for its writer lock',
        ),
      ).toBe(true)

      // The writer stops: the other instance takes the lock and relays the next payment.
      await writer.app.close()
      closed = writer
      const { intentId, route } = await quoteUsdcRoute(8453, 43114, parseUnits('1', 6))
      const last = await payTestRoute(
        devnet,
        8453,
        payerIndex,
        route,
        devnet.token(8453, 'USDC'),
        parseUnits('1', 6),
      )
      await waitForTestValue(
        async () => {
          const row = await readTestDeposit(database, last.orderKey).catch(() => undefined)
          return row?.state === 'settled' ? row : undefined
        },
        'settlement after the takeover',
        nextRelayerRound,
      )
      expect(other.logs.some((line) => line.msg === lockMessage)).toBe(true)

      // A few more rounds of the remaining instance (every chain's lane) change nothing.
      await roundsOf(other).settle('relayer', 3)
      for (const payment of [...paid, { to: 43114, intentId }]) {
        expect(await getTestFills(devnet, payment.to, payment.intentId)).toHaveLength(1)
      }
    } finally {
      for (const testApp of apps) await testApp.app.close()
    }
  })
})
