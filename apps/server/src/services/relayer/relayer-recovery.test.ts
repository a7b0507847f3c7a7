import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import { eq } from 'drizzle-orm'
import { erc20Abi, type Hash, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, createTestDatabase, type TestApp } from '../../../test/build-test-app.ts'
import {
  getDevnetRelayerPrivateKey,
  nativeToken,
  type PaymentDevnet,
  postJson,
  startPaymentDevnet,
  waitForFinalRecord,
} from '../../../test/payment-test-kit.ts'
import type { DatabaseClient } from '../../db/create-database-client.ts'
import { relayerDeposits } from '../../db/schema.ts'
import { getPayRouterAddressOrThrow } from '../routing/providers/local/local-devnet-chain.ts'
import { createRelayerWorker } from './create-relayer-worker.ts'
import { getRelayerAccount } from './get-relayer-account.ts'
import { scanRelayerDeposits } from './scan-relayer-deposits.ts'

let devnet: PaymentDevnet
let database: DatabaseClient
const apps: TestApp[] = []

const payerIndex = 1
const receiverIndex = 4

beforeAll(async () => {
  devnet = await startPaymentDevnet()
  database = await createTestDatabase()
})

afterAll(async () => {
  // Closing an app twice is harmless; some tests close theirs early to restart.
  for (const testApp of apps) await testApp.app.close().catch(() => undefined)
  await database?.close()
  await devnet?.stop()
})

/** An app on the shared database; `startWorkers` says whether its tracker and relayer run. */
async function startApp(startWorkers: boolean): Promise<TestApp> {
  const testApp = await buildTestApp(
    {
      devMode: true,
      devnetDeploymentFile: devnet.deploymentFile,
      relayerPrivateKey: getDevnetRelayerPrivateKey(),
      workerIntervalMs: 100,
    },
    { database, startWorkers },
  )
  apps.push(testApp)
  return testApp
}

async function countFills(chainId: number, intentId: Hash): Promise<number> {
  const logs = await devnet.publicClient(chainId).getContractEvents({
    address: getPayRouterAddressOrThrow(devnet.chain(chainId)),
    abi: payRouterAbi,
    eventName: 'Filled',
    args: { intentId },
    fromBlock: 'earliest',
  })
  return logs.length
}

async function approve(chainId: number, token: `0x${string}`, spender: `0x${string}`, amount: bigint) {
  const hash = await devnet
    .wallet(chainId, payerIndex)
    .writeContract({ address: token, abi: erc20Abi, functionName: 'approve', args: [spender, amount] })
  await devnet.publicClient(chainId).waitForTransactionReceipt({ hash })
}

// Chain round trips on a CI runner shared by every test project: more room than the default 30 s.
describe('the relayer across restarts and deadlines', { timeout: 60_000 }, () => {
  it('completes a cross-chain payment deposited while no worker ran, filling it exactly once', async () => {
    const payer = devnet.account(payerIndex).address
    const receiver = devnet.account(receiverIndex).address
    const usdc = devnet.token(8453, 'USDC')
    const amount = parseUnits('30', 6)
    const first = await startApp(false)

    const routeResponse = await postJson(first.app, '/api/local/route', {
      fromChain: 8453,
      toChain: 43114,
      fromToken: usdc,
      toToken: nativeToken,
      fromAmount: amount.toString(),
      fromAddress: payer,
      toAddress: receiver,
    })
    expect(routeResponse.statusCode, routeResponse.body).toBe(200)
    const { intentId, route } = routeResponse.json().data
    expect(route.estimate.actions.map((action: { type: string }) => action.type)).toEqual([
      'bridge',
      'swap',
      'transfer',
    ])
    const before = await devnet.balanceOf(43114, nativeToken, receiver)

    await approve(8453, usdc, route.spender, amount)
    const hash = await devnet.wallet(8453, payerIndex).sendTransaction({
      to: route.transactionRequest.to,
      data: route.transactionRequest.data,
      gas: BigInt(route.transactionRequest.gasLimit),
    })
    await devnet.publicClient(8453).waitForTransactionReceipt({ hash })
    expect(
      (await postJson(first.app, `/api/route-intent/${intentId}/receipt`, { txHash: hash })).statusCode,
    ).toBe(202)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await countFills(43114, intentId)).toBe(0)
    await first.app.close()

    const second = await startApp(true)
    const record = await waitForFinalRecord(second.app, payer, intentId)
    expect(record.status).toBe('success')
    expect(record.route_status.map((step) => step.status)).toEqual(['success', 'success', 'success'])
    const received = (await devnet.balanceOf(43114, nativeToken, receiver)) - before
    expect(received).toBeGreaterThanOrEqual(BigInt(route.estimate.toAmountMin))
    expect(await countFills(43114, intentId)).toBe(1)

    // The escrow went to the relayer, both hashes are on the row.
    const waitForSettled = async () => {
      for (let attempt = 0; attempt < 50; attempt++) {
        const [row] = await database.db
          .select()
          .from(relayerDeposits)
          .where(eq(relayerDeposits.intentId, intentId))
        if (row?.state === 'settled') return row
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      throw new Error('deposit not settled')
    }
    const settled = await waitForSettled()
    expect(settled.fillTxHash).toBe(record.dest_tx_hash)
    expect(settled.settleTxHash).toMatch(/^0x[0-9a-f]{64}$/)
    await second.app.close()

    // A process that died after broadcasting, before writing 'filled': the next one must not fill again.
    await database.db
      .update(relayerDeposits)
      .set({ state: 'filling', nextAttemptAt: new Date(0) })
      .where(eq(relayerDeposits.intentId, intentId))
    const account = getRelayerAccount({ relayerPrivateKey: getDevnetRelayerPrivateKey(), devMode: false })
    if (!account) throw new Error('no relayer account')
    const worker = createRelayerWorker({
      db: database.db,
      config: { devnetDeploymentFile: devnet.deploymentFile, rpcUrls: {}, workerIntervalMs: 100 },
      account,
      logger: second.app.log,
    })
    await worker.runOnce()
    expect(await countFills(43114, intentId)).toBe(1)
    const [after] = await database.db
      .select()
      .from(relayerDeposits)
      .where(eq(relayerDeposits.intentId, intentId))
    expect(after?.state).toBe('settled')
  })

  it('fills once a deposit left in filling by a transaction that never reached the chain', async () => {
    const testApp = await startApp(false)
    const payer = devnet.account(payerIndex).address
    const receiver = devnet.account(receiverIndex).address
    const usdc = devnet.token(8453, 'USDC')
    const amount = parseUnits('7', 6)
    const routeResponse = await postJson(testApp.app, '/api/local/route', {
      fromChain: 8453,
      toChain: 42161,
      fromToken: usdc,
      toToken: devnet.token(42161, 'USDC'),
      fromAmount: amount.toString(),
      fromAddress: payer,
      toAddress: receiver,
    })
    expect(routeResponse.statusCode, routeResponse.body).toBe(200)
    const { intentId, route } = routeResponse.json().data
    await approve(8453, usdc, route.spender, amount)
    const hash = await devnet.wallet(8453, payerIndex).sendTransaction({
      to: route.transactionRequest.to,
      data: route.transactionRequest.data,
      gas: BigInt(route.transactionRequest.gasLimit),
    })
    await devnet.publicClient(8453).waitForTransactionReceipt({ hash })
    const before = await devnet.balanceOf(42161, devnet.token(42161, 'USDC'), receiver)

    // The deposit is stored, then marked as if a fill had been signed and the process died before broadcasting it.
    await scanRelayerDeposits({
      db: database.db,
      client: devnet.publicClient(8453),
      chainId: 8453,
      payRouter: getPayRouterAddressOrThrow(devnet.chain(8453)),
    })
    const lost = `0x${'ee'.repeat(32)}`
    await database.db
      .update(relayerDeposits)
      .set({ state: 'filling', fillTxHash: lost })
      .where(eq(relayerDeposits.intentId, intentId))

    const account = getRelayerAccount({ relayerPrivateKey: getDevnetRelayerPrivateKey(), devMode: false })
    if (!account) throw new Error('no relayer account')
    const worker = createRelayerWorker({
      db: database.db,
      config: { devnetDeploymentFile: devnet.deploymentFile, rpcUrls: {}, workerIntervalMs: 100 },
      account,
      logger: testApp.app.log,
    })
    await worker.runOnce()
    await worker.runOnce()
    expect(await countFills(42161, intentId)).toBe(1)
    const [row] = await database.db
      .select()
      .from(relayerDeposits)
      .where(eq(relayerDeposits.intentId, intentId))
    expect(row?.state).toBe('settled')
    expect(row?.fillTxHash).not.toBe(lost)
    expect((await devnet.balanceOf(42161, devnet.token(42161, 'USDC'), receiver)) - before).toBe(amount)
  })

  it('two instances relaying one database fill a payment once', async () => {
    const first = await startApp(true)
    const second = await startApp(true)
    const payer = devnet.account(payerIndex).address
    const amount = parseUnits('3', 6)
    const routeResponse = await postJson(first.app, '/api/local/route', {
      fromChain: 42161,
      toChain: 8453,
      fromToken: devnet.token(42161, 'USDC'),
      toToken: devnet.token(8453, 'USDC'),
      fromAmount: amount.toString(),
      fromAddress: payer,
      toAddress: devnet.account(receiverIndex).address,
    })
    expect(routeResponse.statusCode, routeResponse.body).toBe(200)
    const { intentId, route } = routeResponse.json().data
    await approve(42161, devnet.token(42161, 'USDC'), route.spender, amount)
    const hash = await devnet.wallet(42161, payerIndex).sendTransaction({
      to: route.transactionRequest.to,
      data: route.transactionRequest.data,
      gas: BigInt(route.transactionRequest.gasLimit),
    })
    await devnet.publicClient(42161).waitForTransactionReceipt({ hash })
    expect(
      (await postJson(second.app, `/api/route-intent/${intentId}/receipt`, { txHash: hash })).statusCode,
    ).toBe(202)
    const record = await waitForFinalRecord(first.app, payer, intentId)
    expect(record.status).toBe('success')
    // Give both relayers a few more rounds: still one fill.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(await countFills(8453, intentId)).toBe(1)
    await first.app.close()
    await second.app.close()
  })

  it('does not fill a deposit escrowed in anything but USDC (sent around the routes)', async () => {
    const testApp = await startApp(false)
    const usdt = devnet.token(8453, 'USDT')
    const amount = parseUnits('5', 6)
    const intentId = `0x${'5d'.repeat(32)}` as Hash
    const payRouter = getPayRouterAddressOrThrow(devnet.chain(8453))
    await approve(8453, usdt, payRouter, amount)
    const hash = await devnet.wallet(8453, payerIndex).writeContract({
      address: payRouter,
      abi: payRouterAbi,
      functionName: 'deposit',
      args: [
        intentId,
        usdt,
        amount,
        [],
        amount,
        43114n,
        devnet.token(43114, 'USDC'),
        amount,
        devnet.account(receiverIndex).address,
        BigInt(Math.floor(Date.now() / 1000) + 600),
      ],
    })
    await devnet.publicClient(8453).waitForTransactionReceipt({ hash })
    const account = getRelayerAccount({ relayerPrivateKey: getDevnetRelayerPrivateKey(), devMode: false })
    if (!account) throw new Error('no relayer account')
    const worker = createRelayerWorker({
      db: database.db,
      config: { devnetDeploymentFile: devnet.deploymentFile, rpcUrls: {}, workerIntervalMs: 100 },
      account,
      logger: testApp.app.log,
    })
    await worker.runOnce()
    expect(await countFills(43114, intentId)).toBe(0)
    const [row] = await database.db
      .select()
      .from(relayerDeposits)
      .where(eq(relayerDeposits.intentId, intentId))
    expect(row?.state).toBe('failed')
    expect(row?.lastError).toBe("The escrow is not the source chain's USDC; not filled")
  })

  it('refunds a deposit it cannot fill once its deadline has passed', async () => {
    const testApp = await startApp(true)
    const payer = devnet.account(payerIndex).address
    const usdc = devnet.token(8453, 'USDC')
    const amount = parseUnits('12', 6)
    const routeResponse = await postJson(testApp.app, '/api/local/route', {
      fromChain: 8453,
      toChain: 43114,
      fromToken: usdc,
      toToken: devnet.token(43114, 'USDC'),
      fromAmount: amount.toString(),
      fromAddress: payer,
      toAddress: devnet.account(receiverIndex).address,
    })
    expect(routeResponse.statusCode, routeResponse.body).toBe(200)
    const { intentId, route } = routeResponse.json().data
    const balanceBefore = await devnet.balanceOf(8453, usdc, payer)

    // The payer's own deposit for the intent, asking for far more than the escrow: no relayer can fill it.
    await approve(8453, usdc, route.spender, amount)
    const fillDeadline = BigInt(Math.floor(Date.now() / 1000) + 4)
    const hash = await devnet.wallet(8453, payerIndex).writeContract({
      address: route.transactionRequest.to,
      abi: payRouterAbi,
      functionName: 'deposit',
      args: [
        intentId,
        usdc,
        amount,
        [],
        amount,
        43114n,
        devnet.token(43114, 'USDC'),
        amount * 1000n,
        devnet.account(receiverIndex).address,
        fillDeadline,
      ],
    })
    await devnet.publicClient(8453).waitForTransactionReceipt({ hash })
    expect(await devnet.balanceOf(8453, usdc, payer)).toBe(balanceBefore - amount)
    expect(
      (await postJson(testApp.app, `/api/route-intent/${intentId}/receipt`, { txHash: hash })).statusCode,
    ).toBe(202)

    const record = await waitForFinalRecord(testApp.app, payer, intentId, 20_000)
    expect(record.status).toBe('failed')
    expect(record.status_raw).toBe('refunded')
    expect(record.is_refunded).toBe(true)
    expect(await devnet.balanceOf(8453, usdc, payer)).toBe(balanceBefore)
    expect(await countFills(43114, intentId)).toBe(0)
    const [row] = await database.db
      .select()
      .from(relayerDeposits)
      .where(eq(relayerDeposits.intentId, intentId))
    expect(row?.state).toBe('refunded')
    expect(row?.refundTxHash).toMatch(/^0x[0-9a-f]{64}$/)
  })
})
