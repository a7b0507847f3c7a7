import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { eq } from 'drizzle-orm'
import { encodeFunctionData, erc20Abi, getAddress, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, createTestDatabase, type TestApp } from '../../../../test/build-test-app.ts'
import { createDepositLink, createTestDeposit } from '../../../../test/deposit-test-kit.ts'
import {
  getDevnetRelayerPrivateKey,
  type PaymentDevnet,
  startPaymentDevnet,
} from '../../../../test/payment-test-kit.ts'
import { depositCursors, depositTransfers, routeIntents } from '../../../db/schema.ts'
import { buildDepositChains } from './create-deposit-worker.ts'
import { claimDueTransfer } from './deposits-repository.ts'
import { readDepositSetup } from './get-deposit-setup.ts'
import { processDepositTransfer } from './process-deposit-transfer.ts'
import { scanDepositTransfers } from './scan-deposit-transfers.ts'

// A reorg under a deposit (docs/decisions/0032): the watcher has seen a transfer in a block that
// anvil's snapshot/revert then replaces. The scan steps back and finds what the new chain holds at
// that height; the transfer that is gone is dropped, never routed; mined again later, it is
// detected again and routed once.

let devnet: PaymentDevnet
let database: DatabaseClient
let app: TestApp
const chainId = 8453
const receiverIndex = 2
const goneIndex = 4
const otherIndex = 5

beforeAll(async () => {
  devnet = await startPaymentDevnet()
  database = await createTestDatabase()
  // No workers: the test plays the deposit watcher's rounds itself, between the chain's moves.
  app = await buildTestApp(
    {
      devMode: true,
      devnetDeploymentFile: devnet.deploymentFile,
      relayerPrivateKey: getDevnetRelayerPrivateKey(),
      workerIntervalMs: 100,
    },
    { database },
  )
})
afterAll(async () => {
  await app?.app.close()
  await database?.close()
  await devnet?.stop()
})

const rpc = (method: string, params: unknown[] = []) =>
  devnet.publicClient(chainId).request({ method, params } as never) as Promise<unknown>

const scan = () =>
  scanDepositTransfers({
    db: database.db,
    client: devnet.publicClient(chainId),
    chainId,
    confirmations: 0,
    now: Date.now,
  })

/**
 * One watcher round's second half: every due transfer of the chain taken and moved on; with
 * `isDying`, the process dies inside each broadcast (the signed transaction is written down only).
 */
async function processDue(isDying = false): Promise<void> {
  const setup = await readDepositSetup(app.app.config)
  const built = setup && buildDepositChains(setup, app.app.config).get(chainId)
  if (!setup || !built) throw new Error('no deposit setup on Base')
  const chain = !isDying
    ? built
    : {
        ...built,
        client: new Proxy(built.client, {
          get: (target, property, receiver) =>
            property === 'sendRawTransaction'
              ? () => Promise.reject(new Error('the process was killed'))
              : Reflect.get(target, property, receiver),
        }),
      }
  const taken: string[] = []
  for (;;) {
    const transfer = await claimDueTransfer(database.db, chainId, Date.now(), taken)
    if (!transfer) return
    taken.push(transfer.id)
    const context = { db: database.db, provider: app.app.routingProvider, setup, chain }
    await processDepositTransfer(
      { ...context, logger: app.app.log, now: Date.now, retryDelayMs: 0 },
      transfer,
    )
  }
}

/** A USDC transfer from a devnet account to the deposit, signed (not sent), so it can be sent again. */
async function signTransfer(fromIndex: number, to: string, amount: bigint) {
  const wallet = devnet.wallet(chainId, fromIndex)
  const request = await wallet.prepareTransactionRequest({
    to: devnet.token(chainId, 'USDC'),
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [getAddress(to), amount] }),
    gas: 100_000n,
  })
  return wallet.signTransaction(request)
}

async function sendRaw(serialized: `0x${string}`) {
  const client = devnet.publicClient(chainId)
  const hash = await client.sendRawTransaction({ serializedTransaction: serialized })
  return client.waitForTransactionReceipt({ hash })
}

const readTransfers = (depositId: string) =>
  database.db.select().from(depositTransfers).where(eq(depositTransfers.depositId, depositId))

describe('a reorg under a deposit transfer', { timeout: 120_000 }, () => {
  it('drops a transfer its block lost, routes what the new chain holds, and routes the dropped one once when it is mined again', async () => {
    const receiver = devnet.account(receiverIndex).address
    const usdc = devnet.token(chainId, 'USDC')
    const link = await createDepositLink(database.db, { receiver, chainId, token: usdc, symbol: 'USDC' })
    const deposit = await createTestDeposit(app.app, link.slug)
    const before = await devnet.balanceOf(chainId, usdc, receiver)
    await scan()

    // Seen in block N: the watcher stores it with its block.
    const snapshot = await rpc('evm_snapshot')
    const goneAmount = parseUnits('3', 6)
    const gone = await signTransfer(goneIndex, deposit.address, goneAmount)
    const first = await sendRaw(gone)
    expect((await scan()).stored).toBe(1)
    const [seen] = await readTransfers(deposit.id)
    expect(seen).toMatchObject({ state: 'detected', blockHash: first.blockHash })

    // Block N is replaced by one holding another payer's transfer instead.
    expect(await rpc('evm_revert', [snapshot])).toBe(true)
    const otherAmount = parseUnits('2', 6)
    const replacing = await sendRaw(await signTransfer(otherIndex, deposit.address, otherAmount))
    expect(replacing.blockNumber).toBe(first.blockNumber)
    expect(replacing.blockHash).not.toBe(first.blockHash)
    expect(await scan()).toMatchObject({ stored: 1, steppedBack: 'reorg' })

    await processDue()
    const afterReorg = await readTransfers(deposit.id)
    const dropped = afterReorg.find((row) => row.txHash === first.transactionHash)
    const routed = afterReorg.find((row) => row.txHash === replacing.transactionHash)
    expect(dropped?.state).toBe('dropped')
    expect(dropped?.intentId).toBeNull()
    expect(dropped?.actionTxHash).toBeNull()
    expect(routed?.state, routed?.lastError ?? '').toBe('routed')
    expect((await devnet.balanceOf(chainId, usdc, receiver)) - before).toBe(otherAmount)
    // The scan was sent back to before the dropped transfer's block, to find it if it comes back.
    const [cursor] = await database.db
      .select()
      .from(depositCursors)
      .where(eq(depositCursors.chainId, chainId))
    expect(cursor?.lastBlock).toBeLessThan(Number(first.blockNumber))

    // The same signed transfer is mined again, in a later block: detected again, routed once.
    const again = await sendRaw(gone)
    expect(again.transactionHash).toBe(first.transactionHash)
    expect(again.blockNumber).toBeGreaterThan(first.blockNumber)
    await scan()
    const [revived] = (await readTransfers(deposit.id)).filter((row) => row.txHash === again.transactionHash)
    expect(revived).toMatchObject({ state: 'detected', blockHash: again.blockHash })
    await processDue()
    await processDue()
    const settled = await readTransfers(deposit.id)
    expect(settled.map((row) => row.state)).toEqual(['routed', 'routed'])
    expect(settled).toHaveLength(2)
    expect((await devnet.balanceOf(chainId, usdc, receiver)) - before).toBe(goneAmount + otherAmount)
    const intents = await database.db
      .select()
      .from(routeIntents)
      .where(eq(routeIntents.fromAddress, deposit.address.toLowerCase()))
    expect(intents).toHaveLength(2)
  })
})

describe('a reorg after the forward was signed', { timeout: 120_000 }, () => {
  it('the forward reverts on the new chain, and the transfer it was for is dropped, nothing paid', async () => {
    const receiver = devnet.account(receiverIndex).address
    const usdc = devnet.token(chainId, 'USDC')
    const link = await createDepositLink(database.db, { receiver, chainId, token: usdc, symbol: 'USDC' })
    const deposit = await createTestDeposit(app.app, link.slug)
    const before = await devnet.balanceOf(chainId, usdc, receiver)
    await scan()
    const snapshot = await rpc('evm_snapshot')
    await sendRaw(await signTransfer(goneIndex, deposit.address, parseUnits('1', 6)))
    await scan()
    // Routing began: the forward is signed and written down, then the process dies before sending it.
    await processDue(true)
    const [routing] = await readTransfers(deposit.id)
    expect(routing?.state).toBe('routing')
    expect(routing?.intentId).not.toBeNull()

    // The payer's transfer leaves the chain; the forward (sent again from its written-down bytes) meets an empty address.
    expect(await rpc('evm_revert', [snapshot])).toBe(true)
    await processDue()
    const [reverted] = await readTransfers(deposit.id)
    expect(reverted?.state).toBe('detected')
    expect(reverted?.lastError).toMatch(/reverted/)
    const receipt = await devnet
      .publicClient(chainId)
      .getTransactionReceipt({ hash: routing?.actionTxHash as `0x${string}` })
    expect(receipt.status).toBe('reverted')

    await processDue()
    const [dropped] = await readTransfers(deposit.id)
    expect(dropped?.state).toBe('dropped')
    expect(await devnet.balanceOf(chainId, usdc, receiver)).toBe(before)
  })
})
