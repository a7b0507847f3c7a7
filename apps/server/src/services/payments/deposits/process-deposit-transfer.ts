import { depositFactoryAbi } from '@quicklinks/contracts/generated/deposit-factory'
import { AppError } from '@quicklinks/core/app-error'
import { isNativeTokenAddress, zeroAddress } from '@quicklinks/core/native-token-address'
import { eq } from 'drizzle-orm'
import { encodeFunctionData, getAddress } from 'viem'
import { type Deposit, type DepositTransfer, type Link, links } from '../../../db/schema.ts'
import { describeError, getChainTime } from '../providers/local/relayer/relayer-step.ts'
import { buildDepositRoute, DepositShortError } from './build-deposit-route.ts'
import { checkTransferOnChain } from './check-transfer-on-chain.ts'
import { readDepositTerms } from './deposit-terms.ts'
import {
  followAction,
  type ProcessDepositTransferContext,
  readHeld,
  saveTransfer as save,
  sendAction,
} from './deposit-transfer-actions.ts'
import { listWaitingTransfers, readDepositsById, stepDepositCursorBack } from './deposits-repository.ts'

export type { ProcessDepositTransferContext } from './deposit-transfer-actions.ts'

/** A forward is not started this close to the deposit's expiry (seconds): it must be mined before it. */
const expirySafetySeconds = 60
/** Failed steps in a row before a transfer is left failed for the operator to look at. */
const maxAttempts = 8

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

async function decideTransfer(
  context: ProcessDepositTransferContext,
  detected: DepositTransfer,
): Promise<DepositTransfer> {
  const { db } = context
  const [deposit] = await readDepositsById(db, [detected.depositId])
  if (!deposit) return save(context, detected, { state: 'failed', lastError: 'The deposit is gone.' })
  // Nothing is routed or refunded that the chain no longer has (docs/decisions/0032).
  const { row, isReady } = await followTransferBlock(context, deposit, detected)
  if (!isReady) return row
  const [link] = await db.select().from(links).where(eq(links.id, deposit.linkId)).limit(1)
  const chainTime = await getChainTime(context.chain.client)
  const expiresAt = Math.floor(deposit.expiresAt.getTime() / 1000)
  const isLate = context.now() >= deposit.expiresAt.getTime() || chainTime + expirySafetySeconds >= expiresAt
  if (!link?.enabled) return refund(context, deposit, row, 'The link is unavailable.', chainTime)
  if (isLate) return refund(context, deposit, row, 'It arrived after the deposit expired.', chainTime)
  if (!(await isListedToken(context, row))) {
    return refund(context, deposit, row, 'This token cannot be routed to the link.', chainTime)
  }
  // A fixed-amount link is paid once, in full: this transfer goes with the deposit's others of
  // the same token on this chain that wait for the rest, and all wait while they come to less.
  const wantedAmount = isFixedAmount(deposit, link) ? BigInt(deposit.amountUnits ?? '0') : null
  const waiting = wantedAmount === null ? [] : await listCanonicalWaiting(context, deposit, row)
  const amount = [row, ...waiting].reduce((sum, transfer) => sum + BigInt(transfer.amount), 0n)
  if ((await readHeld(context, deposit, row.token)) < amount) {
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
      { amount, wantedAmount },
    )
  } catch (error) {
    if (error instanceof DepositShortError) return waitForTheRest(context, deposit, row, error)
    // The payer's problem (no route for this token or amount, an invoice already paid): refund it.
    if (error instanceof AppError && error.status < 500) {
      return refund(context, deposit, row, error.userMessage, chainTime)
    }
    throw error
  }
  const next = await sendAction(
    context,
    row,
    'routing',
    { to: route.to, data: route.data, gas: route.gas },
    route.intentId,
  )
  // The others ride in this forward: they follow its transaction (no bytes of their own).
  for (const other of waiting) {
    await save(context, other, {
      state: 'routing',
      intentId: route.intentId,
      actionTxHash: next.actionTxHash,
      actionRawTx: null,
      lastError: null,
      attempts: 0,
      nextAttemptAt: new Date(context.now()),
    })
  }
  return next
}

/** A link with its own amount, paid without an invoice (invoices add up payments themselves). */
function isFixedAmount(deposit: Deposit, link: Link): boolean {
  return deposit.invoiceId === null && link.amount !== null && deposit.amountUnits !== null
}

/**
 * Checks the transfer is still on the chain: a transfer gone in a reorg is dropped (and the scan
 * steps back, so it is found again if it is mined again), one mined again in another block
 * follows that block, and one without its confirmations yet waits. Answers the row as it is now,
 * and whether it may be routed or refunded now.
 */
async function followTransferBlock(
  context: ProcessDepositTransferContext,
  deposit: Deposit,
  row: DepositTransfer,
): Promise<{ row: DepositTransfer; isReady: boolean }> {
  const { chain } = context
  const onChain = await checkTransferOnChain(chain.client, chain.confirmations, deposit, row)
  if (onChain.kind === 'gone') {
    context.logger.warn({ transferId: row.id, txHash: row.txHash }, 'Deposit transfer was reorged away')
    await stepDepositCursorBack(context.db, row.chainId, row.blockNumber ?? 0)
    const dropped = await save(context, row, {
      state: 'dropped',
      lastError: `The transfer ${row.txHash} left the chain in a reorg (block ${row.blockNumber} was replaced): it is not routed unless it is mined again.`,
    })
    return { row: dropped, isReady: false }
  }
  const place = { blockNumber: onChain.blockNumber, blockHash: onChain.blockHash }
  if (onChain.kind === 'unconfirmed') {
    const next = await save(context, row, {
      ...place,
      nextAttemptAt: new Date(context.now() + context.retryDelayMs),
    })
    return { row: next, isReady: false }
  }
  return { row: onChain.blockHash === row.blockHash ? row : await save(context, row, place), isReady: true }
}

/** The deposit's other waiting transfers of the row's token and chain that are still on the chain. */
async function listCanonicalWaiting(
  context: ProcessDepositTransferContext,
  deposit: Deposit,
  row: DepositTransfer,
): Promise<DepositTransfer[]> {
  const waiting: DepositTransfer[] = []
  for (const other of await listWaitingTransfers(context.db, row)) {
    const checked = await followTransferBlock(context, deposit, other)
    if (checked.isReady) waiting.push(checked.row)
  }
  return waiting
}

/** Leaves a short transfer waiting for the rest until the deposit expires, when it is refunded. */
function waitForTheRest(
  context: ProcessDepositTransferContext,
  deposit: Deposit,
  row: DepositTransfer,
  short: DepositShortError,
): Promise<DepositTransfer> {
  context.logger.info(
    { transferId: row.id, toAmount: short.toAmount.toString(), wantedAmount: short.wantedAmount.toString() },
    'Deposit short of its fixed amount; waiting for the rest',
  )
  return save(context, row, {
    lastError:
      'Less than the amount so far: send the rest to the same address in the same token on the same network before the deposit expires, or it goes back then.',
    nextAttemptAt: new Date(deposit.expiresAt.getTime() + 1000),
  })
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

/**
 * Refunds a transfer: to the deposit's refund address at once (the forwarder sends its whole
 * balance of the token there), else to the transfer's sender (or the address the sender named
 * instead) once the deposit has expired on chain (until then it waits, saying why).
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
  // The sender, or the address the sender named instead by a signed message (refund-address route).
  const sender = row.refundTo ?? row.sender
  if (sender === null) {
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
    args: [terms, token, BigInt(row.amount), getAddress(sender)],
  })
  return sendAction(context, { ...row, lastError: reason }, 'refunding', { to: context.setup.factory, data })
}
