import { eq } from 'drizzle-orm'
import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  relayerPayerIndex as payerIndex,
  relayerReceiverIndex as receiverIndex,
  useRelayerScene,
} from '../../../../../../test/relayer-scene.ts'
import {
  getTestChainControl,
  getTestEscrowState,
  getTestFills,
  getTestSettlements,
  payTestRoute,
  readTestDeposit,
  readTestDeposits,
  runTestRelayer,
  sendTestDeposit,
} from '../../../../../../test/relayer-test-kit.ts'
import { routeIntents } from '../../../../../db/schema.ts'
import { recordRouteReceipt } from '../../../route/record-route-receipt.ts'
import { createTrackerWorker } from '../../../tracking/create-tracker-worker.ts'
import { getRoutingProvider } from '../../get-routing-provider.ts'

// Deposits that copy an honest one, and deposits a reorg takes away: the relayer fills a deposit
// only when it matches its stored quote and sits deep enough (the two-instance relaying is in
// relayer-instances.test.ts; restarts and deadlines in relayer-recovery.test.ts).

const scene = useRelayerScene()
const thiefIndex = 6

// Chain round trips on a CI runner shared by every test project: more room than the default 30 s.
describe('the relayer fills only deposits that match their quotes', { timeout: 60_000 }, () => {
  it('ignores copies of an intent id that pay someone else or less; the honest deposit is filled exactly once', async () => {
    const { devnet, database, createRelayer, quoteUsdcRoute } = scene
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
    const { devnet, database, createRelayer, quoteUsdcRoute } = scene
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
    const { devnet, database, routesApp, createRelayer, quoteUsdcRoute } = scene
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
})
