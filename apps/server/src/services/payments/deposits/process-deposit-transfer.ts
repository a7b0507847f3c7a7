import { depositFactoryAbi } from '@quicklinks/contracts/generated/deposit-factory'
import { AppError } from '@quicklinks/core/app-error'
import { isNativeTokenAddress, zeroAddress } from '@quicklinks/core/native-token-address'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { eq } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { encodeFunctionData, erc20Abi, getAddress, type Hash, type Hex } from 'viem'
import { type Deposit, type DepositTransfer, links } from '../../../db/schema.ts'
import {
  broadcastRelayerTransaction,
  type RelayerChain,
  signRelayerTransaction,
} from '../providers/local/relayer/relayer-chain.ts'
import { describeError, getChainTime, ignoreNotFound } from '../providers/local/relayer/relayer-step.ts'
import { recordRouteReceipt } from '../route/record-route-receipt.ts'
import type { RoutingProvider } from '../route/routing-provider.ts'
import { buildDepositRoute } from './build-deposit-route.ts'
import { readDepositTerms } from './deposit-terms.ts'
import { type DepositTransferPatch, readDepositsById, updateDepositTransfer } from './deposits-repository.ts'
import type { DepositSetup } from './get-deposit-setup.ts'

/** A forward is not started this close to the deposit's expiry (seconds): it must be mined before it. */
const expirySafetySeconds = 60
/** Failed steps in a row before a transfer is left failed for the operator to look at. */
const maxAttempts = 8

export type ProcessDepositTransferContext = {
  db: Database
  provider: RoutingProvider
  setup: DepositSetup
  /** The transfer's chain, signing as the deposit operator (its nonce manager shared by the worker). */
  chain: RelayerChain
  logger: FastifyBaseLogger
  now: () => number
  retryDelayMs: number
}

/**
 * Moves one claimed deposit transfer on (docs/decisions/0030): a detected one is routed (its route
 * intent stored, the operator's deployAndForward signed and written down before it is broadcast)
 * or, when it came after expiry, in a token the routes cannot take, or for an invoice that takes
 * no more payments, refunded to the deposit's refund address (at once) or to its sender (once the
 * deposit has expired); a routing or refunding one is followed to its receipt: the route's hash is
 * then posted to the tracker like a wallet's, and the gas the operator paid is recorded. A restart
 * finds the signed transaction and follows it (broadcasting it again if the node lost it) instead
 * of sending another, so a transfer is forwarded once. Failures are stored and retried with
 * backoff; throws only on database errors.
 */
export async function processDepositTransfer(
  context: ProcessDepositTransferContext,
  transfer: DepositTransfer,
): Promise<void> {
  let row = transfer
  try {
    if (row.state === 'detected') row = await decideTransfer(context, row)
    if (row.state === 'routing' || row.state === 'refunding') await followAction(context, row)
  } catch (error) {
    context.logger.warn(
      { err: error, transferId: row.id, state: row.state },
      'Deposit transfer step failed; retrying',
    )
    const attempts = row.attempts + 1
    await save(context, row, {
      attempts,
      lastError: describeError(error),
      ...(attempts >= maxAttempts ? { state: 'failed' as const } : {}),
      nextAttemptAt: new Date(context.now() + context.retryDelayMs * 2 ** Math.min(attempts, 10)),
    })
  }
}

function save(context: ProcessDepositTransferContext, row: DepositTransfer, patch: DepositTransferPatch) {
  return updateDepositTransfer(context.db, row, patch, context.now())
}

async function decideTransfer(
  context: ProcessDepositTransferContext,
  row: DepositTransfer,
): Promise<DepositTransfer> {
  const { db } = context
  const [deposit] = await readDepositsById(db, [row.depositId])
  if (!deposit) return save(context, row, { state: 'failed', lastError: 'The deposit is gone.' })
  const [link] = await db.select().from(links).where(eq(links.id, deposit.linkId)).limit(1)
  const chainTime = await getChainTime(context.chain.client)
  const expiresAt = Math.floor(deposit.expiresAt.getTime() / 1000)
  const isLate = context.now() >= deposit.expiresAt.getTime() || chainTime + expirySafetySeconds >= expiresAt
  if (!link?.enabled) return refund(context, deposit, row, 'The link is unavailable.', chainTime)
  if (isLate) return refund(context, deposit, row, 'It arrived after the deposit expired.', chainTime)
  if (!(await isListedToken(context, row))) {
    return refund(context, deposit, row, 'This token cannot be routed to the link.', chainTime)
  }
  if ((await readHeld(context, deposit, row.token)) < BigInt(row.amount)) {
    return save(context, row, {
      state: 'failed',
      lastError: 'The transfer is no longer at the deposit address.',
    })
  }
  let route: Awaited<ReturnType<typeof buildDepositRoute>>
  try {
    route = await buildDepositRoute(
      { db, provider: context.provider, setup: context.setup, nowMs: context.now() },
      deposit,
      link,
      row,
    )
  } catch (error) {
    // The payer's problem (no route for this token or amount, an invoice already paid): refund it.
    if (error instanceof AppError && error.status < 500) {
      return refund(context, deposit, row, error.userMessage, chainTime)
    }
    throw error
  }
  return sendAction(
    context,
    row,
    'routing',
    { to: route.to, data: route.data, gas: route.gas },
    route.intentId,
  )
}

/** Whether the routing provider lists the token on the transfer's chain (any other is refunded). */
async function isListedToken(context: ProcessDepositTransferContext, row: DepositTransfer): Promise<boolean> {
  const tokens = await context.provider.tokens({ withoutPrices: true })
  return tokens.some(
    (token) =>
      token.chainId === row.chainId &&
      (isNativeTokenAddress(row.token)
        ? isNativeTokenAddress(token.address)
        : token.address.toLowerCase() === row.token.toLowerCase()),
  )
}

async function readHeld(
  context: ProcessDepositTransferContext,
  deposit: Deposit,
  token: string,
): Promise<bigint> {
  const owner = getAddress(deposit.address)
  if (isNativeTokenAddress(token)) return context.chain.client.getBalance({ address: owner })
  return context.chain.client.readContract({
    address: getAddress(token),
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [owner],
  })
}

/**
 * Refunds a transfer: to the deposit's refund address at once (the forwarder sends its whole
 * balance of the token there), else to the transfer's sender once the deposit has expired on
 * chain (until then it waits, saying why).
 */
async function refund(
  context: ProcessDepositTransferContext,
  deposit: Deposit,
  row: DepositTransfer,
  reason: string,
  chainTime: number,
): Promise<DepositTransfer> {
  const terms = readDepositTerms(deposit)
  const token = isNativeTokenAddress(row.token) ? zeroAddress : getAddress(row.token)
  if ((await readHeld(context, deposit, row.token)) === 0n) {
    return save(context, row, {
      state: 'refunded',
      lastError: `${reason} Refunded with an earlier transfer.`,
    })
  }
  if (deposit.refundAddress !== null) {
    const data = encodeFunctionData({
      abi: depositFactoryAbi,
      functionName: 'deployAndRefund',
      args: [terms, token],
    })
    return sendAction(context, { ...row, lastError: reason }, 'refunding', {
      to: context.setup.factory,
      data,
    })
  }
  if (row.sender === null) {
    return save(context, row, {
      state: 'failed',
      lastError: `${reason} No refund address and no sender to refund.`,
    })
  }
  if (chainTime < Number(terms.expiresAt)) {
    return save(context, row, {
      lastError: `${reason} It goes back to its sender when the deposit expires.`,
      nextAttemptAt: new Date(Math.max(context.now(), Number(terms.expiresAt) * 1000) + 1000),
    })
  }
  const data = encodeFunctionData({
    abi: depositFactoryAbi,
    functionName: 'deployAndRefundToSender',
    args: [terms, token, BigInt(row.amount), getAddress(row.sender)],
  })
  return sendAction(context, { ...row, lastError: reason }, 'refunding', { to: context.setup.factory, data })
}

/** Signs the operator's transaction, writes its hash and bytes down, then broadcasts it. */
async function sendAction(
  context: ProcessDepositTransferContext,
  row: DepositTransfer,
  state: 'routing' | 'refunding',
  request: { to: `0x${string}`; data: Hex; gas?: bigint },
  intentId: string | null = null,
): Promise<DepositTransfer> {
  const signed = await signRelayerTransaction(context.chain, request)
  const next = await save(context, row, {
    state,
    intentId,
    actionTxHash: signed.hash,
    actionRawTx: signed.serialized,
    lastError: row.lastError,
    attempts: 0,
    nextAttemptAt: new Date(context.now()),
  })
  await broadcastRelayerTransaction(context.chain, signed)
  return next
}

/** Follows the written-down transaction to its receipt, broadcasting it again when the node lost it. */
async function followAction(
  context: ProcessDepositTransferContext,
  row: DepositTransfer,
): Promise<DepositTransfer> {
  const hash = row.actionTxHash as Hash
  const client = context.chain.client
  let receipt = await client.getTransactionReceipt({ hash }).catch(ignoreNotFound)
  if (!receipt) {
    // Signed and written down, but the node does not know it (the process died before sending it,
    // or the node dropped it): the same bytes again, so it can only ever be this one transaction.
    const pending = await client.getTransaction({ hash }).catch(ignoreNotFound)
    if (!pending && row.actionRawTx) {
      await client.sendRawTransaction({ serializedTransaction: row.actionRawTx as Hex })
    }
    receipt = await client
      .waitForTransactionReceipt({ hash, timeout: 15_000, pollingInterval: 100 })
      .catch((error: unknown) => (isWaitTimeout(error) ? undefined : ignoreNotFound(error)))
  }
  if (!receipt) return save(context, row, { nextAttemptAt: new Date(context.now() + context.retryDelayMs) })
  const gasCostWei = (receipt.gasUsed * receipt.effectiveGasPrice).toString()
  if (receipt.status !== 'success') {
    // Nothing moved: decide again (the deposit may have expired meanwhile, so it is refunded instead).
    return save(context, row, {
      state: 'detected',
      gasCostWei,
      lastError: `The operator's transaction ${hash} reverted.`,
      attempts: row.attempts + 1,
      nextAttemptAt: new Date(context.now() + context.retryDelayMs),
    })
  }
  if (row.state === 'routing' && row.intentId) {
    await recordRouteReceipt(context.db, row.intentId, hash, { nowMs: context.now() })
    return save(context, row, { state: 'routed', gasCostWei, lastError: null })
  }
  return save(context, row, { state: 'refunded', gasCostWei })
}

function isWaitTimeout(error: unknown): boolean {
  return (error as { name?: unknown }).name === 'WaitForTransactionReceiptTimeoutError'
}
