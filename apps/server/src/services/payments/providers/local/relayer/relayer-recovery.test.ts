import { eq } from 'drizzle-orm'
import { type Hash, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { createWorkerRounds } from '../../../../../../test/create-worker-rounds.ts'
import { buildTestRoute, nativeToken } from '../../../../../../test/payment-test-kit.ts'
import {
  relayerPayerIndex as payerIndex,
  relayerReceiverIndex as receiverIndex,
  useRelayerScene,
} from '../../../../../../test/relayer-scene.ts'
import {
  getTestChainControl,
  getTestEscrowState,
  getTestFills,
  payTestRoute,
  readTestDeposit,
  readTestDepositQuote,
  runTestRelayer,
  sendTestDeposit,
  waitForTestValue,
} from '../../../../../../test/relayer-test-kit.ts'
import { relayerDeposits } from '../../../../../db/schema.ts'
import { startWorkers } from '../../../../workers/start-workers.ts'
import { getPayRouterAddressOrThrow } from '../payrouter/get-pay-router-address-or-throw.ts'
import { scanRelayerDeposits } from './scan-relayer-deposits.ts'

// A relayer that was not running, died mid-fill or meets a deposit no quote has, and the refund
// of what it cannot fill (the set-up is shared with relayer-matching.test.ts).

const scene = useRelayerScene()

// Chain round trips on a CI runner shared by every test project: more room than the default 30 s.
describe('the relayer across restarts and deadlines', { timeout: 60_000 }, () => {
  it('fills a deposit made while no relayer ran exactly once, and a restart after the fill does not fill again', async () => {
    const { devnet, database, routesApp, createRelayer } = scene
    const receiver = devnet.account(receiverIndex).address
    const usdc = devnet.token(8453, 'USDC')
    const amount = parseUnits('30', 6)
    const { intentId, route } = await buildTestRoute(routesApp.app, {
      fromChain: 8453,
      toChain: 43114,
      fromToken: usdc,
      toToken: nativeToken,
      fromAmount: amount.toString(),
      fromAddress: devnet.account(payerIndex).address,
      toAddress: receiver,
    })
    expect(route.estimate.actions.map((action) => action.type)).toEqual(['bridge', 'swap', 'transfer'])
    const before = await devnet.balanceOf(43114, nativeToken, receiver)
    const deposit = await payTestRoute(devnet, 8453, payerIndex, route, usdc, amount)
    expect(await getTestFills(devnet, 43114, intentId)).toHaveLength(0)

    // A relayer starts afterwards, in the background as the app runs it.
    const relayer = createRelayer()
    const rounds = createWorkerRounds()
    const running = startWorkers([relayer], {
      intervalMs: 100,
      logger: routesApp.app.log,
      onRoundEnd: rounds.onWorkerRound,
    })
    const settled = await waitForTestValue(
      async () => {
        const row = await readTestDeposit(database, deposit.orderKey).catch(() => undefined)
        return row?.state === 'settled' ? row : undefined
      },
      'settlement',
      () => rounds.next('relayer'),
    )
    await running.stop()

    const fills = await getTestFills(devnet, 43114, intentId)
    expect(fills).toHaveLength(1)
    expect(fills[0]?.args.receiver.toLowerCase()).toBe(receiver.toLowerCase())
    expect(fills[0]?.transactionHash).toBe(settled.fillTxHash)
    const received = (await devnet.balanceOf(43114, nativeToken, receiver)) - before
    expect(received).toBeGreaterThanOrEqual(BigInt(route.estimate.toAmountMin))
    expect(settled.settleTxHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await getTestEscrowState(devnet, 8453, deposit.orderKey)).toBe(2)
    // (Tracker: the transaction record of this payment is checked in the tracker's own tests.)

    // A process that died after broadcasting, before writing 'filled': the next one must not fill again.
    await database.db
      .update(relayerDeposits)
      .set({ state: 'filling', nextAttemptAt: new Date(0) })
      .where(eq(relayerDeposits.orderKey, deposit.orderKey))
    await runTestRelayer(createRelayer(), [8453])
    expect(await getTestFills(devnet, 43114, intentId)).toHaveLength(1)
    expect((await readTestDeposit(database, deposit.orderKey)).state).toBe('settled')
  })

  it('fills once a deposit left in filling by a transaction that never reached the chain', async () => {
    const { devnet, database, routesApp, createRelayer } = scene
    const receiver = devnet.account(receiverIndex).address
    const usdc = devnet.token(8453, 'USDC')
    const destinationUsdc = devnet.token(42161, 'USDC')
    const amount = parseUnits('7', 6)
    const { intentId, route } = await buildTestRoute(routesApp.app, {
      fromChain: 8453,
      toChain: 42161,
      fromToken: usdc,
      toToken: destinationUsdc,
      fromAmount: amount.toString(),
      fromAddress: devnet.account(payerIndex).address,
      toAddress: receiver,
    })
    const deposit = await payTestRoute(devnet, 8453, payerIndex, route, usdc, amount)
    const before = await devnet.balanceOf(42161, destinationUsdc, receiver)

    // The deposit is stored, then marked as if a fill had been signed and the process died before broadcasting it.
    await scanRelayerDeposits({
      db: database.db,
      client: devnet.publicClient(8453),
      chainId: 8453,
      payRouter: getPayRouterAddressOrThrow(devnet.chain(8453)),
      confirmations: 0,
      logger: routesApp.app.log,
    })
    const lost = `0x${'ee'.repeat(32)}`
    await database.db
      .update(relayerDeposits)
      .set({ state: 'filling', fillTxHash: lost })
      .where(eq(relayerDeposits.orderKey, deposit.orderKey))

    await runTestRelayer(createRelayer(), [8453])
    expect(await getTestFills(devnet, 42161, intentId)).toHaveLength(1)
    const row = await readTestDeposit(database, deposit.orderKey)
    expect(row.state).toBe('settled')
    expect(row.fillTxHash).not.toBe(lost)
    expect((await devnet.balanceOf(42161, destinationUsdc, receiver)) - before).toBe(amount)
  })

  it('ignores, and never refunds, a deposit whose intent id no quote has (sent around the routes)', async () => {
    const { devnet, database, createRelayer } = scene
    const usdt = devnet.token(8453, 'USDT')
    const amount = parseUnits('5', 6)
    const intentId = `0x${'5d'.repeat(32)}` as Hash
    const deposit = await sendTestDeposit(devnet, {
      chainId: 8453,
      payerIndex,
      intentId,
      tokenIn: usdt,
      amountIn: amount,
      minEscrowAmount: amount,
      destinationChainId: 43114,
      destinationToken: devnet.token(43114, 'USDC'),
      minAmountOut: amount,
      receiver: devnet.account(receiverIndex).address,
      fillDeadline: (await getTestChainControl(devnet, 8453).getTime()) + 600,
    })
    await runTestRelayer(createRelayer(), [8453], 2)
    expect(await getTestFills(devnet, 43114, intentId)).toHaveLength(0)
    const row = await readTestDeposit(database, deposit.orderKey)
    expect(row.state).toBe('ignored')
    expect(row.lastError).toBe('Ignored: no route intent has this id')
    expect(await getTestEscrowState(devnet, 8453, deposit.orderKey)).toBe(1)
  })

  // Last in this file: it moves two chains' clocks past every deadline the other tests quote.
  it('refunds a matched deposit it cannot fill only once the deadline and the settlement window have passed, by chain time', async () => {
    const { devnet, database, routesApp, createRelayer } = scene
    const payer = devnet.account(payerIndex).address
    const receiver = devnet.account(receiverIndex).address
    const usdc = devnet.token(8453, 'USDC')
    const destinationUsdc = devnet.token(43114, 'USDC')
    const amount = parseUnits('12', 6)
    const { intentId } = await buildTestRoute(routesApp.app, {
      fromChain: 8453,
      toChain: 43114,
      fromToken: usdc,
      toToken: destinationUsdc,
      fromAmount: amount.toString(),
      fromAddress: payer,
      toAddress: receiver,
    })
    const quote = await readTestDepositQuote(database, intentId)
    const balanceBefore = await devnet.balanceOf(8453, usdc, payer)

    // The payer's own deposit for the quote, asking for far more out than the escrow is worth: it
    // matches the quote (a higher minimum is allowed), but no relayer can fill it.
    const deposit = await sendTestDeposit(devnet, {
      chainId: 8453,
      payerIndex,
      intentId,
      tokenIn: usdc,
      amountIn: amount,
      minEscrowAmount: quote.minEscrowAmount,
      destinationChainId: 43114,
      destinationToken: destinationUsdc,
      minAmountOut: quote.toAmountMin * 1000n,
      receiver,
      fillDeadline: quote.fillDeadline,
    })
    const relayer = createRelayer()
    await runTestRelayer(relayer, [8453], 2)
    let row = await readTestDeposit(database, deposit.orderKey)
    expect(row.state).toBe('pending')
    expect(row.lastError).toMatch(/below the minimum/)
    expect(row.attempts).toBeGreaterThanOrEqual(2)

    // The destination's clock passes the deadline: the relayer gives the fill up, but the escrow
    // stays open through the settlement window.
    const destination = getTestChainControl(devnet, 43114)
    await destination.increaseTime(quote.fillDeadline - (await destination.getTime()) + 1)
    await runTestRelayer(relayer, [8453], 2)
    row = await readTestDeposit(database, deposit.orderKey)
    expect(row.state).toBe('refund_pending')
    expect(await getTestEscrowState(devnet, 8453, deposit.orderKey)).toBe(1)
    expect(await devnet.balanceOf(8453, usdc, payer)).toBe(balanceBefore - amount)

    // The source chain's clock passes the deadline but not the window: still no refund.
    const source = getTestChainControl(devnet, 8453)
    await source.increaseTime(quote.fillDeadline - (await source.getTime()) + 60)
    await runTestRelayer(relayer, [8453], 2)
    expect((await readTestDeposit(database, deposit.orderKey)).state).toBe('refund_pending')

    // Past deadline + SETTLEMENT_WINDOW on the source chain: refunded to the payer.
    await source.increaseTime(3600)
    await runTestRelayer(relayer, [8453])
    row = await readTestDeposit(database, deposit.orderKey)
    expect(row.state).toBe('refunded')
    expect(row.refundTxHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await getTestEscrowState(devnet, 8453, deposit.orderKey)).toBe(3)
    expect(await devnet.balanceOf(8453, usdc, payer)).toBe(balanceBefore)
    expect(await getTestFills(devnet, 43114, intentId)).toHaveLength(0)
  })
})
