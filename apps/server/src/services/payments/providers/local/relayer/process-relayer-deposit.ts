import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, inArray, ne } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { erc20Abi, type Hash, maxUint256, type PublicClient, type TransactionReceipt } from 'viem'
import { type RelayerDeposit, relayerDeposits, routeIntents } from '../../../../../db/schema.ts'
import { listBlockRanges, maxLogBlockRange } from '../../../../chains/list-block-ranges.ts'
import { getUniqueViolation } from '../../../../postgres/get-unique-violation.ts'
import { scaleAmount } from '../../../../tokens/scale-amount.ts'
import { getLocalTokenOrThrow, getLocalUsdcOrThrow, type LocalToken } from '../local-devnet-chain.ts'
import { encodePayRouterCall } from '../payrouter/encode-pay-router-call.ts'
import { getPayRouterEvents } from '../payrouter/get-pay-router-events.ts'
import { listPayRouterFilledEvents } from '../payrouter/list-pay-router-filled-events.ts'
import { parsePayRouterLogs } from '../payrouter/parse-pay-router-logs.ts'
import {
  payRouterEscrowState as escrowState,
  readPayRouterDepositState,
  readPayRouterFilled,
  readPayRouterSettlementWindow,
} from '../payrouter/read-pay-router-state.ts'
import { buildLocalSwapPath } from '../uniswap/build-local-swap-path.ts'
import { quoteUniswapAmountOut } from '../uniswap/quote-uniswap-amount-out.ts'
import { matchRelayerDeposit } from './match-relayer-deposit.ts'
import {
  broadcastRelayerTransaction,
  type RelayerChain,
  resetRelayerNonce,
  signRelayerTransaction,
} from './relayer-chain.ts'
import { buildRelayerOrder, type RelayerOrder } from './relayer-order.ts'
import { stepRelayerCursorBack } from './scan-relayer-deposits.ts'

/**
 * How long a claimed deposit stays with its worker before another round may take it again. The
 * worker renews it (a heartbeat) before every wait that may be long, so it only runs out when the
 * worker is gone.
 */
export const depositLeaseMs = 90_000
/** The longest the relayer waits for one of its transactions to be mined before it looks again later. */
export const receiptTimeoutMs = 60_000
/**
 * A fill is not started unless the destination chain's clock is further than this from the
 * deadline: a stalled worker may hold its claim for a whole lease, then wait a whole receipt
 * timeout, and the fill must still be mined before the deadline, with half a minute to spare.
 */
export const fillSafetySeconds = (depositLeaseMs + receiptTimeoutMs) / 1000 + 30

export type ProcessRelayerDepositOptions = {
  db: Database
  chains: ReadonlyMap<number, RelayerChain>
  logger: FastifyBaseLogger
  /** Epoch ms: leases and retry times (never contract time, which is the chain's). */
  now: () => number
  /** First wait before retrying a step that failed; doubles with every failure in a row. */
  retryDelayMs: number
  /** Longest wait between two looks at one deposit (retries, and waits for the chain's clock). */
  maxRetryDelayMs: number
}

type Patch = Partial<typeof relayerDeposits.$inferInsert>

/** One claimed deposit, the chains it touches and how to write it down. */
type Step = {
  options: ProcessRelayerDepositOptions
  deposit: RelayerDeposit
  order: RelayerOrder
  source: RelayerChain
  destination: RelayerChain | undefined
  update(patch: Patch): Promise<void>
  /** Moves to another state, due again at once unless the patch says otherwise; the failure count starts again. */
  moveTo(state: RelayerDeposit['state'], patch?: Patch): Promise<void>
  /** Looks again after `delayMs` (capped by maxRetryDelayMs). */
  waitFor(delayMs: number, patch?: Patch): Promise<void>
  /** Renews the claim before something that may take long. */
  extendLease(): Promise<void>
}

/**
 * Moves one claimed deposit along pending → filling → filled → settled, or to refund_pending →
 * refunded when its matched order cannot be filled in time, or to ignored (no stored route intent
 * asked for exactly this deposit) or orphaned (its block was reorged away). It only fills a
 * deposit that matches its route intent, has the source chain's confirmation depth on top and is
 * still in the canonical chain right before the fill; at most one deposit per intent id is filled.
 * 'filling' is written with the signed fill's hash before it is broadcast, so a restart follows
 * that transaction instead of sending another, and a fill is settled only once its receipt's
 * `Filled` event says what the order asked for. Step failures are stored (last_error) and retried
 * with exponential backoff; throws only on database errors.
 */
export async function processRelayerDeposit(
  options: ProcessRelayerDepositOptions,
  deposit: RelayerDeposit,
): Promise<void> {
  const update = async (patch: Patch): Promise<void> => {
    await options.db
      .update(relayerDeposits)
      .set({ ...patch, updatedAt: new Date(options.now()) })
      .where(eq(relayerDeposits.id, deposit.id))
    Object.assign(deposit, patch)
  }
  const source = options.chains.get(deposit.sourceChainId)
  if (!source) {
    await update({
      state: 'failed',
      lastError: `Chain ${deposit.sourceChainId} is not served by this relayer`,
    })
    return
  }
  const step: Step = {
    options,
    deposit,
    order: buildRelayerOrder(deposit),
    source,
    destination: options.chains.get(deposit.destinationChainId),
    update,
    moveTo: (state, patch = {}) =>
      update({ attempts: 0, nextAttemptAt: new Date(options.now()), ...patch, state }),
    waitFor: (delayMs, patch = {}) =>
      update({
        ...patch,
        nextAttemptAt: new Date(options.now() + Math.min(delayMs, options.maxRetryDelayMs)),
      }),
    extendLease: () => update({ nextAttemptAt: new Date(options.now() + depositLeaseMs) }),
  }
  try {
    if (deposit.state === 'filling') await followFill(step)
    if (deposit.state === 'pending') await takePending(step)
    if (deposit.state === 'filled') await settle(step)
    if (deposit.state === 'refund_pending') await refund(step)
  } catch (error) {
    options.logger.warn(
      { err: error, intentId: deposit.intentId, orderKey: deposit.orderKey, state: deposit.state },
      'Relayer step failed; retrying with backoff',
    )
    const delayMs = Math.min(
      options.retryDelayMs * 2 ** Math.min(deposit.attempts, 20),
      options.maxRetryDelayMs,
    )
    await update({
      attempts: deposit.attempts + 1,
      lastError: describeError(error),
      nextAttemptAt: new Date(options.now() + delayMs),
    })
  }
}

/** A deposit not yet acted on: match it, wait for its confirmations, then fill it once. */
async function takePending(step: Step): Promise<void> {
  const { options, deposit, source, order } = step
  const [intent] = await options.db
    .select()
    .from(routeIntents)
    .where(eq(routeIntents.id, deposit.intentId))
    .limit(1)
  const match = matchRelayerDeposit({
    deposit,
    intent,
    sourcePayRouter: source.payRouter,
    destinationPayRouter: step.destination?.payRouter,
  })
  if (!match.isMatch) {
    options.logger.info(
      { intentId: deposit.intentId, orderKey: deposit.orderKey, mismatches: match.mismatches },
      'Relayer ignores a deposit that does not match its route intent',
    )
    await step.moveTo('ignored', { lastError: match.reason })
    return
  }
  const destination = step.destination
  if (!destination) {
    await step.moveTo('refund_pending', {
      lastError: `Destination chain ${deposit.destinationChainId} is not served`,
    })
    return
  }
  if (deposit.destinationFromBlock === null)
    await step.update({ destinationFromBlock: match.destinationFromBlock })

  // One fill per intent id, whatever other deposits copy it (the partial unique index backs this up).
  const [other] = await options.db
    .select({ orderKey: relayerDeposits.orderKey })
    .from(relayerDeposits)
    .where(
      and(
        eq(relayerDeposits.intentId, deposit.intentId),
        ne(relayerDeposits.id, deposit.id),
        inArray(relayerDeposits.state, ['filling', 'filled', 'settled']),
      ),
    )
    .limit(1)
  if (other) {
    await step.moveTo('refund_pending', {
      lastError: `The intent is filled through another deposit (${other.orderKey})`,
    })
    return
  }

  const depth = source.confirmations
  const sourceHead = await source.client.getBlockNumber({ cacheTime: 0 })
  if (sourceHead - BigInt(deposit.depositBlock) < BigInt(depth)) {
    await step.waitFor(options.retryDelayMs)
    return
  }

  // A fill that happened already (a crash before 'filled' was written) is recorded, not repeated.
  if (await isFilledOnChain(destination, deposit.orderKey as Hash)) {
    await recordFillFromChain(step, destination)
    return
  }
  const otherFill = (await findFilledLogs(destination, deposit, { intentId: order.intentId })).find(
    (log) => log.args.orderKey.toLowerCase() !== deposit.orderKey,
  )
  if (otherFill) {
    await step.moveTo('refund_pending', {
      lastError: `The intent is filled through another deposit (${otherFill.args.orderKey.toLowerCase()})`,
    })
    return
  }

  const chainTime = await getChainTime(destination.client)
  if (deposit.fillDeadline - chainTime <= fillSafetySeconds) {
    await step.moveTo('refund_pending', {
      lastError: `Not filled: ${fillSafetySeconds} s or less were left before the fill deadline`,
    })
    return
  }

  const plan = buildFillPlan(order, step.source, destination)
  if (!plan) {
    await step.moveTo('refund_pending', {
      lastError: 'The destination token is not on the destination chain',
    })
    return
  }
  const expected = plan.path.length === 0 ? plan.amountIn : await quote(destination, plan.amountIn, plan.path)
  if (expected < order.minAmountOut) {
    throw new Error(`Quote ${expected} is below the minimum ${order.minAmountOut}; waiting for liquidity`)
  }
  await step.extendLease()
  await ensureAllowance(destination, plan.tokenIn, plan.amountIn)

  // Right before the fill: the deposit must still be where it was seen.
  await step.extendLease()
  if (!(await isDepositCanonical(step))) return

  const data = encodePayRouterCall({
    functionName: 'fill',
    args: [order, plan.tokenIn.contractAddress, plan.amountIn, plan.path],
  })
  // The estimate is also the dry run: a fill that would revert never reaches 'filling'. Half again
  // the estimate, since a pool's first swap in a new block second costs more than estimated.
  const estimate = await destination.client.estimateGas({
    account: destination.wallet.account,
    to: destination.payRouter,
    data,
  })
  const signed = await signRelayerTransaction(destination, {
    to: destination.payRouter,
    data,
    gas: (estimate * 3n) / 2n,
  })
  try {
    await step.update({
      state: 'filling',
      fillTxHash: signed.hash,
      lastError: null,
      nextAttemptAt: new Date(options.now() + depositLeaseMs),
    })
  } catch (error) {
    // The signed fill is dropped unsent: its nonce goes back to the node's count.
    resetRelayerNonce(destination)
    if (!getUniqueViolation(error)) throw error
    await step.moveTo('refund_pending', { lastError: 'The intent is filled through another deposit' })
    return
  }
  try {
    await broadcastRelayerTransaction(destination, signed)
  } catch (error) {
    // Maybe the node has it after all: the next round follows the hash either way.
    options.logger.warn(
      { err: error, intentId: deposit.intentId, fillTxHash: signed.hash },
      'Fill broadcast failed',
    )
    await step.waitFor(options.retryDelayMs, { lastError: describeError(error) })
    return
  }
  await awaitFill(step, destination, signed.hash)
}

/** A fill was signed (and maybe sent) before: follow that transaction rather than send another. */
async function followFill(step: Step): Promise<void> {
  const { options, deposit } = step
  const destination = step.destination
  if (!destination) {
    await step.moveTo('failed', {
      lastError: `Destination chain ${deposit.destinationChainId} is not served`,
    })
    return
  }
  if (await isFilledOnChain(destination, deposit.orderKey as Hash)) {
    await recordFillFromChain(step, destination)
    return
  }
  const hash = deposit.fillTxHash as Hash | null
  const outcome = hash ? await readTransactionOutcome(destination.client, hash) : 'unknown'
  if (hash && outcome === 'pending') {
    await step.extendLease()
    await awaitFill(step, destination, hash)
    return
  }
  if (hash && outcome === 'success') {
    await awaitFill(step, destination, hash)
    return
  }
  // Reverted, or it never reached the node: the order is not filled, so the deposit is pending again.
  if (outcome === 'unknown') resetRelayerNonce(destination)
  await step.moveTo('pending', {
    lastError: `Fill ${hash ?? '(none)'} ${outcome === 'reverted' ? 'reverted' : 'was never mined'}`,
  })
  options.logger.info(
    { intentId: deposit.intentId, fillTxHash: hash, outcome },
    'Relayer fill did not happen',
  )
}

/** Waits for a fill's receipt and records it once its `Filled` event shows what the order asked for. */
async function awaitFill(step: Step, destination: RelayerChain, hash: Hash): Promise<void> {
  const { options, deposit } = step
  let receipt: TransactionReceipt
  try {
    receipt = await destination.client.waitForTransactionReceipt({ hash, timeout: receiptTimeoutMs })
  } catch (error) {
    // Not mined in time (or the RPC failed): the next round follows the same hash.
    resetRelayerNonce(destination)
    await step.waitFor(options.retryDelayMs, { lastError: describeError(error) })
    return
  }
  if (receipt.status !== 'success') {
    await step.moveTo('pending', {
      lastError: `Fill ${hash} reverted`,
      nextAttemptAt: new Date(options.now() + options.retryDelayMs),
    })
    return
  }
  const fill = readFilledEvent(step, destination, receipt)
  if ('problem' in fill) {
    await step.moveTo('failed', { lastError: `Fill ${hash}: ${fill.problem}` })
    options.logger.error(
      { intentId: deposit.intentId, fillTxHash: hash, problem: fill.problem },
      'Relayer fill is wrong',
    )
    return
  }
  options.logger.info(
    {
      intentId: deposit.intentId,
      orderKey: deposit.orderKey,
      fillTxHash: hash,
      chainId: deposit.destinationChainId,
    },
    'Relayer filled an order',
  )
  await step.moveTo('filled', {
    fillTxHash: hash,
    filledAmount: fill.amount.toString(),
    filledAt: new Date(options.now()),
    lastError: null,
  })
}

/** PayRouter says the order is filled: find its `Filled` log, check it, and record it as ours. */
async function recordFillFromChain(step: Step, destination: RelayerChain): Promise<void> {
  const { options, deposit } = step
  const [log] = await findFilledLogs(destination, deposit, { orderKey: deposit.orderKey as Hash })
  if (!log) throw new Error(`Order ${deposit.orderKey} is filled, but its Filled log was not found`)
  const receipt = await destination.client.getTransactionReceipt({ hash: log.transactionHash })
  const fill = readFilledEvent(step, destination, receipt)
  if ('problem' in fill) {
    await step.moveTo('failed', { lastError: `Fill ${log.transactionHash}: ${fill.problem}` })
    options.logger.error({ intentId: deposit.intentId, problem: fill.problem }, 'Relayer fill is wrong')
    return
  }
  try {
    await step.moveTo('filled', {
      fillTxHash: log.transactionHash,
      filledAmount: fill.amount.toString(),
      filledAt: new Date(options.now()),
      lastError: null,
    })
  } catch (error) {
    if (!getUniqueViolation(error)) throw error
    // Two orders of one intent filled on chain: the database lost track once; people must look.
    await step.moveTo('failed', {
      lastError: 'Filled on chain while another deposit of the intent is filled',
    })
    options.logger.error({ intentId: deposit.intentId }, 'Two deposits of one intent were filled')
  }
}

/** Settles the escrow of a filled order once the fill has the destination's confirmation depth. */
async function settle(step: Step): Promise<void> {
  const { options, deposit, source, order } = step
  const destination = step.destination
  if (!destination) {
    await step.moveTo('failed', {
      lastError: `Destination chain ${deposit.destinationChainId} is not served`,
    })
    return
  }
  // The fill must still be there (a destination reorg may have taken it) and deep enough.
  if (!(await isFilledOnChain(destination, deposit.orderKey as Hash))) {
    await step.moveTo('filling', { lastError: 'The fill is no longer on the destination chain' })
    return
  }
  const fillReceipt = deposit.fillTxHash
    ? await destination.client
        .getTransactionReceipt({ hash: deposit.fillTxHash as Hash })
        .catch(ignoreNotFound)
    : undefined
  if (!fillReceipt) {
    await recordFillFromChain(step, destination)
    return
  }
  const destinationHead = await destination.client.getBlockNumber({ cacheTime: 0 })
  if (destinationHead - fillReceipt.blockNumber < BigInt(destination.confirmations)) {
    await step.waitFor(options.retryDelayMs)
    return
  }

  const state = await readEscrowState(source, deposit.orderKey as Hash)
  if (state === escrowState.settled) {
    await step.moveTo('settled', { settledAt: new Date(options.now()), lastError: null })
    return
  }
  if (state !== escrowState.open) {
    // Refunded after the fill, or the deposit was reorged away deeper than the confirmation depth:
    // the relayer paid without escrow; people must look.
    await step.moveTo('failed', { lastError: `Escrow is in state ${state}; cannot settle after the fill` })
    options.logger.error(
      { intentId: deposit.intentId, orderKey: deposit.orderKey, state },
      'Filled an order whose escrow is not open',
    )
    return
  }
  await step.extendLease()
  const hash = await releaseEscrow(source, 'settle', order)
  options.logger.info({ intentId: deposit.intentId, settleTxHash: hash }, 'Relayer settled an escrow')
  await step.moveTo('settled', { settleTxHash: hash, settledAt: new Date(options.now()), lastError: null })
}

/**
 * A matched deposit the relayer will not fill: settle it after all if a fill landed, otherwise
 * refund it to its payer once the source chain's clock is past the deadline and the settlement window.
 */
async function refund(step: Step): Promise<void> {
  const { options, deposit, source, order } = step
  const destination = step.destination
  if (destination && (await isFilledOnChain(destination, deposit.orderKey as Hash))) {
    await recordFillFromChain(step, destination)
    if (deposit.state === 'filled') await settle(step)
    return
  }
  const state = await readEscrowState(source, deposit.orderKey as Hash)
  if (state === escrowState.refunded) {
    await step.moveTo('refunded', { refundedAt: new Date(options.now()) })
    return
  }
  if (state === escrowState.none) {
    if (await isDepositCanonical(step))
      throw new Error(`Escrow of order ${deposit.orderKey} is unknown to PayRouter`)
    return
  }
  if (state !== escrowState.open) {
    await step.moveTo('failed', { lastError: `Escrow is in state ${state}; nothing to refund` })
    return
  }
  const settlementWindow = await readPayRouterSettlementWindow(source.client, source.payRouter)
  const chainTime = await getChainTime(source.client)
  const opensAt = deposit.fillDeadline + Number(settlementWindow) + 1
  if (chainTime < opensAt) {
    await step.waitFor((opensAt - chainTime) * 1000)
    return
  }
  await step.extendLease()
  const hash = await releaseEscrow(source, 'refund', order)
  options.logger.info(
    { intentId: deposit.intentId, refundTxHash: hash },
    'Relayer refunded an unfilled deposit',
  )
  await step.moveTo('refunded', { refundTxHash: hash, refundedAt: new Date(options.now()), lastError: null })
}

/**
 * Whether the deposit's transaction is still mined in the block it was seen in, with its
 * `Deposited` log. When it moved to another block (re-mined after a reorg) the row follows it and
 * waits for its confirmations again; when it is gone, the row becomes 'orphaned' and the source
 * cursor steps back so a re-mined deposit is found by the scan.
 */
async function isDepositCanonical(step: Step): Promise<boolean> {
  const { options, deposit, source } = step
  const receipt = await source.client
    .getTransactionReceipt({ hash: deposit.depositTxHash as Hash })
    .catch(ignoreNotFound)
  const hasLog =
    receipt?.status === 'success' &&
    parsePayRouterLogs(receipt.logs, source.payRouter, 'Deposited').some(
      (log) => log.args.orderKey.toLowerCase() === deposit.orderKey,
    )
  if (receipt && hasLog && receipt.blockHash === deposit.depositBlockHash) return true
  if (receipt && hasLog) {
    await step.waitFor(options.retryDelayMs, {
      depositBlock: Number(receipt.blockNumber),
      depositBlockHash: receipt.blockHash,
    })
    return false
  }
  options.logger.warn(
    { intentId: deposit.intentId, orderKey: deposit.orderKey, depositTxHash: deposit.depositTxHash },
    'Relayer deposit was reorged away',
  )
  await step.moveTo('orphaned', {
    lastError: `Deposit ${deposit.depositTxHash} is no longer in block ${deposit.depositBlock}`,
  })
  await stepRelayerCursorBack(options.db, deposit.sourceChainId, deposit.depositBlock)
  return false
}

/**
 * Sends the source PayRouter's `settle` (escrow to the relayer) or `refund` (to the payer) for an
 * order and waits for it to be mined. Throws when it reverts or is not mined in time; the caller retries.
 */
async function releaseEscrow(
  source: RelayerChain,
  action: 'settle' | 'refund',
  order: RelayerOrder,
): Promise<Hash> {
  const hash = await source.wallet.sendTransaction({
    to: source.payRouter,
    data: encodePayRouterCall({ functionName: action, args: [order] }),
  })
  const receipt = await source.client
    .waitForTransactionReceipt({ hash, timeout: receiptTimeoutMs })
    .catch((error) => {
      resetRelayerNonce(source)
      throw error
    })
  if (receipt.status !== 'success')
    throw new Error(`${action === 'settle' ? 'Settle' : 'Refund'} ${hash} reverted`)
  return hash
}

/**
 * The `Filled` event of this order in a fill receipt, checked against the order: same key, intent,
 * receiver and token, at least the minimum amount, from this PayRouter and this relayer.
 */
function readFilledEvent(
  step: Step,
  destination: RelayerChain,
  receipt: TransactionReceipt,
): { amount: bigint } | { problem: string } {
  const { deposit, order } = step
  const events = listPayRouterFilledEvents(receipt, destination.payRouter, deposit.orderKey)
  const [event] = events
  if (!event || events.length > 1) return { problem: `${events.length} Filled events for the order` }
  const args = event.args
  const problems = [
    args.intentId.toLowerCase() !== order.intentId.toLowerCase() && 'intent id',
    args.receiver.toLowerCase() !== order.receiver.toLowerCase() && 'receiver',
    args.token.toLowerCase() !== order.destinationToken.toLowerCase() && 'token',
    args.amount < order.minAmountOut && 'amount below the minimum',
    args.sourceChainId !== order.sourceChainId && 'source chain',
    args.relayer.toLowerCase() !== destination.wallet.account.address.toLowerCase() && 'relayer',
  ].filter((problem): problem is string => typeof problem === 'string')
  if (problems.length > 0) return { problem: `Filled event differs from the order (${problems.join(', ')})` }
  return { amount: args.amount }
}

/**
 * `Filled` logs on the destination PayRouter for an order key or an intent id, read in ranges of
 * at most `maxLogBlockRange` blocks from the block the quote named (never from `earliest`).
 */
async function findFilledLogs(
  destination: RelayerChain,
  deposit: RelayerDeposit,
  args: { orderKey: Hash } | { intentId: Hash },
) {
  const head = await destination.client.getBlockNumber({ cacheTime: 0 })
  // Without the quote's block (a row from before it was stored), a window back from the head.
  const start =
    deposit.destinationFromBlock !== null
      ? BigInt(deposit.destinationFromBlock)
      : head > maxLogBlockRange
        ? head - maxLogBlockRange
        : 0n
  const found = []
  for (const [fromBlock, toBlock] of listBlockRanges(start, head)) {
    const logs = await getPayRouterEvents({
      client: destination.client,
      payRouter: destination.payRouter,
      eventName: 'Filled',
      args,
      fromBlock,
      toBlock,
    })
    found.push(...logs)
  }
  return found
}

async function isFilledOnChain(chain: RelayerChain, orderKey: Hash): Promise<boolean> {
  return readPayRouterFilled(chain.client, chain.payRouter, orderKey)
}

async function readEscrowState(chain: RelayerChain, orderKey: Hash): Promise<number> {
  return readPayRouterDepositState(chain.client, chain.payRouter, orderKey)
}

/** The chain's clock: its latest block's timestamp (contracts compare deadlines with it, not with ours). */
async function getChainTime(client: PublicClient): Promise<number> {
  const block = await client.getBlock({ blockTag: 'latest' })
  return Number(block.timestamp)
}

type FillPlan = { tokenIn: LocalToken; amountIn: bigint; path: `0x${string}`[] }

/**
 * The relayer pays the escrow's worth of USDC from its inventory (decimals scaled from the source
 * USDC), swapping it on the destination when the order wants another token. Undefined when the
 * order's token is not on the destination chain.
 */
function buildFillPlan(
  order: RelayerOrder,
  source: RelayerChain,
  destination: RelayerChain,
): FillPlan | undefined {
  const tokenIn = getLocalUsdcOrThrow(destination.deployment)
  let tokenOut: LocalToken
  try {
    tokenOut = getLocalTokenOrThrow(destination.deployment, order.destinationToken, 'toToken')
  } catch {
    return undefined
  }
  const escrowToken = source.deployment.tokens.find(
    (token) => token.address.toLowerCase() === order.escrowToken.toLowerCase(),
  )
  const amountIn = scaleAmount(
    order.escrowAmount,
    escrowToken?.decimals ?? tokenIn.decimals,
    tokenIn.decimals,
  )
  return { tokenIn, amountIn, path: buildLocalSwapPath(tokenIn, tokenOut, tokenIn) }
}

async function quote(chain: RelayerChain, amountIn: bigint, path: `0x${string}`[]): Promise<bigint> {
  return quoteUniswapAmountOut({
    client: chain.client,
    router: chain.deployment.contracts.uniswapV2Router,
    amountIn,
    path,
  })
}

async function ensureAllowance(chain: RelayerChain, token: LocalToken, amount: bigint): Promise<void> {
  const owner = chain.wallet.account.address
  const allowance = await chain.client.readContract({
    address: token.contractAddress,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, chain.payRouter],
  })
  if (allowance >= amount) return
  const hash = await chain.wallet.writeContract({
    address: token.contractAddress,
    abi: erc20Abi,
    functionName: 'approve',
    args: [chain.payRouter, maxUint256],
  })
  const receipt = await chain.client
    .waitForTransactionReceipt({ hash, timeout: receiptTimeoutMs })
    .catch((error) => {
      resetRelayerNonce(chain)
      throw error
    })
  if (receipt.status !== 'success') throw new Error(`Approve ${hash} reverted`)
}

/**
 * Whether a transaction hash is mined (success or reverted), still pending, or unknown to the
 * node. Throws on RPC errors other than "not found": an unreachable node proves nothing.
 */
async function readTransactionOutcome(
  client: PublicClient,
  hash: Hash,
): Promise<'success' | 'reverted' | 'pending' | 'unknown'> {
  const receipt = await client.getTransactionReceipt({ hash }).catch(ignoreNotFound)
  if (receipt) return receipt.status === 'success' ? 'success' : 'reverted'
  const transaction = await client.getTransaction({ hash }).catch(ignoreNotFound)
  return transaction ? 'pending' : 'unknown'
}

/** viem's "no such receipt/transaction/block" errors become undefined; anything else is rethrown. */
function ignoreNotFound(error: unknown): undefined {
  const name = (error as { name?: unknown }).name
  if (
    name === 'TransactionReceiptNotFoundError' ||
    name === 'TransactionNotFoundError' ||
    name === 'BlockNotFoundError'
  ) {
    return undefined
  }
  throw error
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const short = (error as { shortMessage?: unknown }).shortMessage
    return (typeof short === 'string' ? short : error.message).slice(0, 500)
  }
  return String(error).slice(0, 500)
}
