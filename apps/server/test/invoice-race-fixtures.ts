import { randomBytes } from 'node:crypto'
import { invoiceMonitoringWindowSeconds } from '@quicklinks/core/api/invoices'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { type Invoice, type RouteIntent, routeIntents } from '../src/db/schema.ts'
import { createInvoiceId } from '../src/services/invoices/create-invoice.ts'
import { insertInvoice } from '../src/services/invoices/invoices-repository.ts'
import { getOrCreateUser } from '../src/services/users/get-or-create-user.ts'
import { baseUsdc } from './link-test-fixtures.ts'
import { insertTestLink } from './payment-history-fixtures.ts'

/**
 * Invoices and their payments written straight into the database, for tests of the invoice worker
 * without a devnet: the payments start as the route build leaves them (a posted hash, submitted,
 * not on chain), and the test then writes the tracker's verdicts on them with updateRouteIntent.
 */

const receiver = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const usdc = baseUsdc.toLowerCase()

function randomHex(bytes: number): `0x${string}` {
  return `0x${randomBytes(bytes).toString('hex')}`
}

/** A fresh payee with one Base USDC link. */
export async function createTestInvoiceUser(db: Database): Promise<{ userId: string; linkId: string }> {
  const user = await getOrCreateUser(db, { address: randomHex(20) })
  const linkId = await insertTestLink(db, { userId: user.id, alias: 'Invoice race' })
  return { userId: user.id, linkId }
}

/**
 * An invoice of `amountUnits` (USDC, 6 decimals) on the link, made at `createdAtMs` for an hour,
 * and a way to add a payment of it: a Base USDC transfer whose route promises `credit` units to
 * the invoice's receiver, submitted and not on chain yet.
 */
export async function createTestInvoiceRow(
  db: Database,
  input: { userId: string; linkId: string; amountUnits: bigint; toleranceBps: number; createdAtMs: number },
): Promise<{ invoice: Invoice; insertPayment(credit: bigint): Promise<RouteIntent> }> {
  const expiresAtMs = input.createdAtMs + 60 * 60_000
  const invoice = await insertInvoice(db, {
    id: createInvoiceId(),
    linkId: input.linkId,
    userId: input.userId,
    chainId: 8453,
    tokenAddress: usdc,
    tokenSymbol: 'USDC',
    tokenDecimals: 6,
    receiverAddress: receiver,
    amount: (Number(input.amountUnits) / 1e6).toString(),
    amountUnits: input.amountUnits.toString(),
    toleranceBps: input.toleranceBps,
    expiresAt: new Date(expiresAtMs),
    monitorUntil: new Date(expiresAtMs + invoiceMonitoringWindowSeconds * 1000),
    createdAt: new Date(input.createdAtMs),
    updatedAt: new Date(input.createdAtMs),
  })
  const insertPayment = async (credit: bigint): Promise<RouteIntent> => {
    const usdcRef = { chainId: 8453, address: usdc, symbol: 'USDC', decimals: 6, logoURI: '' }
    const now = new Date()
    const [row] = await db
      .insert(routeIntents)
      .values({
        id: randomHex(32),
        provider: 'local',
        linkId: input.linkId,
        invoiceId: invoice.id,
        fromChainId: 8453,
        toChainId: 8453,
        fromToken: usdc,
        toToken: usdc,
        fromAmount: credit.toString(),
        toAmount: credit.toString(),
        toAmountMin: credit.toString(),
        fromAddress: randomHex(20),
        toAddress: receiver,
        slippage: 0,
        transactionRequest: {},
        actions: [{ type: 'transfer', fromToken: usdcRef, toToken: usdcRef }],
        sourceTxHash: randomHex(32),
        status: 'submitted',
        statusRaw: 'submitted',
        submittedAt: now,
        nextCheckAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
    if (row === undefined) throw new Error('route intent not inserted')
    return row
  }
  return { invoice, insertPayment }
}

/**
 * For each state, how many more changes leave it than enter it, zeros left out: a walk from open
 * to S has open +1 and S -1 (nothing when S is open), every state passed through 0.
 */
export function countWalkImbalance(
  chain: Array<{ fromState: string; toState: string }>,
): Record<string, number> {
  const balance = new Map<string, number>()
  for (const step of chain) {
    balance.set(step.fromState, (balance.get(step.fromState) ?? 0) + 1)
    balance.set(step.toState, (balance.get(step.toState) ?? 0) - 1)
  }
  return Object.fromEntries([...balance].filter(([, count]) => count !== 0))
}
