import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { eq } from 'drizzle-orm'
import { getAddress, parseEventLogs, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, createTestDatabase, type TestApp } from '../../../../test/build-test-app.ts'
import {
  createDepositLink,
  createTestDeposit,
  sendTokenTransfer,
  waitForDepositTransfers,
} from '../../../../test/deposit-test-kit.ts'
import {
  getDevnetRelayerPrivateKey,
  type PaymentDevnet,
  startPaymentDevnet,
  waitForFinalRecord,
} from '../../../../test/payment-test-kit.ts'
import { depositTransfers, routeIntents } from '../../../db/schema.ts'
import { buildDepositChains } from './create-deposit-worker.ts'
import { claimDueTransfer } from './deposits-repository.ts'
import { readDepositSetup } from './get-deposit-setup.ts'
import { processDepositTransfer } from './process-deposit-transfer.ts'
import { scanDepositTransfers } from './scan-deposit-transfers.ts'

// Kill the app between a deposit and its routing: after the restart the deposit is routed once.
// The first app runs no workers; the test plays its watcher up to the moment it dies, then a
// second app on the same database takes over with its workers.

let devnet: PaymentDevnet
let database: DatabaseClient
const receiverIndex = 2
const payerIndex = 4

const config = () => ({
  devMode: true,
  devnetDeploymentFile: devnet.deploymentFile,
  relayerPrivateKey: getDevnetRelayerPrivateKey(),
  workerIntervalMs: 100,
})

beforeAll(async () => {
  devnet = await startPaymentDevnet()
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.close()
  await devnet?.stop()
})

/** A deposit on a Base USDC link, paid by one USDC transfer on Avalanche, made through a first app without workers. */
async function payDepositWithoutWorkers(first: TestApp) {
  const link = await createDepositLink(database.db, {
    receiver: devnet.account(receiverIndex).address,
    chainId: 8453,
    token: devnet.token(8453, 'USDC'),
    symbol: 'USDC',
  })
  const deposit = await createTestDeposit(first.app, link.slug)
  await sendTokenTransfer(
    devnet,
    43114,
    payerIndex,
    devnet.token(43114, 'USDC'),
    deposit.address,
    parseUnits('6', 6),
  )
  await scanDepositTransfers({
    db: database.db,
    client: devnet.publicClient(43114),
    chainId: 43114,
    confirmations: 0,
    now: Date.now,
  })
  return deposit
}

/** Starts the second app on the same database with its workers, waits for the deposit, answers what it did. */
async function restartAndSettle(depositId: string, address: string) {
  const second = await buildTestApp(config(), { database, startWorkers: true })
  try {
    const settled = await waitForDepositTransfers(second.app, depositId, 1)
    const transfer = settled.transfers[0]
    expect(transfer?.state, JSON.stringify(transfer)).toBe('routed')
    const record = await waitForFinalRecord(second.app, address, transfer?.intentId ?? '')
    expect(record.status).toBe('success')
    const intents = await database.db
      .select()
      .from(routeIntents)
      .where(eq(routeIntents.fromAddress, address.toLowerCase()))
    // Routed once: one route intent, one escrow of this deposit on chain.
    expect(intents).toHaveLength(1)
    const logs = await devnet
      .publicClient(43114)
      .getLogs({ address: devnet.chain(43114).contracts.payRouter, fromBlock: 0n })
    const escrows = parseEventLogs({ abi: payRouterAbi, logs, eventName: 'Deposited' }).filter(
      (log) => log.args.payer === getAddress(address),
    )
    expect(escrows).toHaveLength(1)
    return transfer
  } finally {
    await second.app.close()
  }
}

describe('a deposit survives the app dying before it is routed', { timeout: 120_000 }, () => {
  it('routes once a transfer the dead app had only detected', async () => {
    const first = await buildTestApp(config(), { database })
    const deposit = await payDepositWithoutWorkers(first)
    const [row] = await database.db.select().from(depositTransfers)
    expect(row?.state).toBe('detected')
    await first.app.close()
    const before = await devnet.balanceOf(
      8453,
      devnet.token(8453, 'USDC'),
      devnet.account(receiverIndex).address,
    )
    await restartAndSettle(deposit.id, deposit.address)
    const after = await devnet.balanceOf(
      8453,
      devnet.token(8453, 'USDC'),
      devnet.account(receiverIndex).address,
    )
    expect(after - before).toBe(parseUnits('6', 6))
  })

  it('routes once a transfer whose forward the dead app had signed and written down but never sent', async () => {
    const first = await buildTestApp(config(), { database })
    const deposit = await payDepositWithoutWorkers(first)
    const setup = await readDepositSetup(first.app.config)
    if (!setup) throw new Error('no deposit setup')
    const chain = buildDepositChains(setup, first.app.config).get(43114)
    if (!chain) throw new Error('no Avalanche chain')
    // The process dies inside the broadcast: the signed forward is in the database, not on the chain.
    const dying = {
      ...chain,
      client: new Proxy(chain.client, {
        get: (target, property, receiver) =>
          property === 'sendRawTransaction'
            ? () => Promise.reject(new Error('the process was killed'))
            : Reflect.get(target, property, receiver),
      }),
    }
    const claimed = await claimDueTransfer(database.db, 43114, Date.now(), [])
    if (!claimed) throw new Error('nothing to claim')
    await processDepositTransfer(
      {
        db: database.db,
        provider: first.app.routingProvider,
        setup,
        chain: dying,
        logger: first.app.log,
        now: Date.now,
        retryDelayMs: 0,
      },
      claimed,
    )
    const [written] = await database.db
      .select()
      .from(depositTransfers)
      .where(eq(depositTransfers.id, claimed.id))
    expect(written?.state).toBe('routing')
    expect(written?.actionTxHash).toMatch(/^0x[0-9a-f]{64}$/)
    await first.app.close()

    const transfer = await restartAndSettle(deposit.id, deposit.address)
    // The very transaction written down before the crash, broadcast again: no second forward.
    expect(transfer?.actionTxHash).toBe(written?.actionTxHash)
  })
})
