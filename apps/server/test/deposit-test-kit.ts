import type { DepositResponse } from '@quicklinks/core/api/deposits'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { FastifyInstance } from 'fastify'
import { erc20Abi, getAddress, type Hash } from 'viem'
import { expect, vi } from 'vitest'
import { links } from '../src/db/schema.ts'
import { buildDepositChains } from '../src/services/payments/deposits/create-deposit-worker.ts'
import { claimDueTransfer } from '../src/services/payments/deposits/deposits-repository.ts'
import { readDepositSetup } from '../src/services/payments/deposits/get-deposit-setup.ts'
import { processDepositTransfer } from '../src/services/payments/deposits/process-deposit-transfer.ts'
import { scanDepositTransfers } from '../src/services/payments/deposits/scan-deposit-transfers.ts'
import { getOrCreateUser } from '../src/services/users/get-or-create-user.ts'
import type { PaymentDevnet } from './payment-test-kit.ts'
import { postJson } from './payment-test-kit.ts'

/** A link of `receiver` for `token` on `chainId` (amount optional), with a slug to make deposits on. */
export async function createDepositLink(
  db: Database,
  options: {
    receiver: `0x${string}`
    chainId: number
    token: `0x${string}`
    symbol: string
    amount?: string
  },
): Promise<{ id: string; slug: string }> {
  const user = await getOrCreateUser(db, { address: options.receiver })
  const slug = `deposit-${options.symbol.toLowerCase()}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`
  const [link] = await db
    .insert(links)
    .values({
      userId: user.id,
      alias: `Deposit ${slug}`,
      aliasSlug: slug,
      receiverAddress: options.receiver.toLowerCase(),
      chain: String(options.chainId),
      chainId: options.chainId,
      tokenName: options.symbol,
      tokenAddress: options.token.toLowerCase(),
      amount: options.amount ?? null,
    })
    .returning()
  if (!link) throw new Error('link not stored')
  return { id: link.id, slug }
}

/** POST /api/pay/links/{slug}/deposits, expecting 201; answers the deposit. */
export async function createTestDeposit(
  app: FastifyInstance,
  slug: string,
  body: Record<string, unknown> = {},
): Promise<DepositResponse> {
  const response = await postJson(app, `/api/pay/links/${slug}/deposits`, body)
  expect(response.statusCode, response.body).toBe(201)
  return response.json().data as DepositResponse
}

/** GET /api/pay/deposits/{id}. */
export async function readTestDeposit(app: FastifyInstance, id: string): Promise<DepositResponse> {
  const response = await app.inject({ method: 'GET', url: `/api/pay/deposits/${id}` })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as DepositResponse
}

/** One plain ERC-20 `transfer` from a devnet account to `to`, mined. */
export async function sendTokenTransfer(
  devnet: PaymentDevnet,
  chainId: number,
  fromIndex: number,
  token: `0x${string}`,
  to: string,
  amount: bigint,
): Promise<Hash> {
  const hash = await devnet.wallet(chainId, fromIndex).writeContract({
    address: token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [getAddress(to), amount],
  })
  await devnet.publicClient(chainId).waitForTransactionReceipt({ hash })
  return hash
}

/** One plain native transfer from a devnet account to `to`, mined. */
export async function sendNativeTransfer(
  devnet: PaymentDevnet,
  chainId: number,
  fromIndex: number,
  to: string,
  value: bigint,
): Promise<Hash> {
  const hash = await devnet.wallet(chainId, fromIndex).sendTransaction({ to: getAddress(to), value })
  await devnet.publicClient(chainId).waitForTransactionReceipt({ hash })
  return hash
}

/**
 * Reads the deposit until every one of its `count` transfers is in a final state (routed, refunded,
 * failed) and, for routed ones, its payment record is final; throws after `timeoutMs`.
 */
export async function waitForDepositTransfers(
  app: FastifyInstance,
  id: string,
  count: number,
  timeoutMs = 45_000,
): Promise<DepositResponse> {
  return vi.waitFor(
    async () => {
      const deposit = await readTestDeposit(app, id)
      const isDone =
        deposit.transfers.length >= count &&
        deposit.transfers.every((transfer) => ['routed', 'refunded', 'failed'].includes(transfer.state))
      if (!isDone) throw new Error(`deposit ${id} not settled: ${JSON.stringify(deposit.transfers)}`)
      return deposit
    },
    { timeout: timeoutMs, interval: 200 },
  )
}

/**
 * One deposit watcher round played by a test without workers: the chain's new transfers stored
 * (confirmations 0), then every due transfer taken and moved on, as createDepositWorker's lane does.
 */
export async function runDepositRound(app: FastifyInstance, chainId: number, now: () => number = Date.now) {
  const setup = await readDepositSetup(app.config)
  const chain = setup && buildDepositChains(setup, app.config).get(chainId)
  if (!setup || !chain) throw new Error(`no deposit setup on chain ${chainId}`)
  const scanned = await scanDepositTransfers({
    db: app.db,
    client: chain.client,
    chainId,
    confirmations: 0,
    now,
  })
  const taken: string[] = []
  for (;;) {
    const transfer = await claimDueTransfer(app.db, chainId, now(), taken)
    if (!transfer) return scanned
    taken.push(transfer.id)
    const context = { db: app.db, provider: app.routingProvider, setup, chain, logger: app.log }
    await processDepositTransfer({ ...context, now, retryDelayMs: 0 }, transfer)
  }
}
