import { erc20Abi, maxUint256 } from 'viem'
import { getUniqueViolation } from '../../../../postgres/get-unique-violation.ts'
import { scaleAmount } from '../../../../tokens/scale-amount.ts'
import { readRouteIntent } from '../../../route/route-intents-repository.ts'
import { getLocalTokenOrThrow, getLocalUsdcOrThrow, type LocalToken } from '../local-devnet-chain.ts'
import { encodePayRouterCall } from '../payrouter/encode-pay-router-call.ts'
import { findPayRouterFilledLogs } from '../payrouter/find-pay-router-fill.ts'
import { buildLocalSwapPath } from '../uniswap/build-local-swap-path.ts'
import { quoteUniswapAmountOut } from '../uniswap/quote-uniswap-amount-out.ts'
import { checkDepositCanonical } from './check-deposit-canonical.ts'
import { awaitFill, recordFillFromChain } from './follow-fill.ts'
import { matchRelayerDeposit } from './match-relayer-deposit.ts'
import {
  broadcastRelayerTransaction,
  type RelayerChain,
  resetRelayerNonce,
  signRelayerTransaction,
} from './relayer-chain.ts'
import { depositLeaseMs, findOtherFilledDeposit } from './relayer-deposits-repository.ts'
import type { RelayerOrder } from './relayer-order.ts'
import {
  describeError,
  extendLease,
  fillSafetySeconds,
  getChainTime,
  isFilledOnChain,
  moveTo,
  receiptTimeoutMs,
  type StateStep,
  save,
  waitFor,
} from './relayer-step.ts'

/** `pending`: a deposit not yet acted on. Match it, wait for its confirmations, then fill it once. */
export const takePendingDeposit: StateStep = async (step, start) => {
  const { options, source, order } = step
  let deposit = start
  const match = matchRelayerDeposit({
    deposit,
    intent: await readRouteIntent(options.db, deposit.intentId),
    sourcePayRouter: source.payRouter,
    destinationPayRouter: step.destination?.payRouter,
  })
  if (!match.isMatch) {
    options.logger.info(
      { intentId: deposit.intentId, orderKey: deposit.orderKey, mismatches: match.mismatches },
      'Relayer ignores a deposit that does not match its route intent',
    )
    return moveTo(step, deposit, 'ignored', { lastError: match.reason })
  }
  const destination = step.destination
  if (!destination) {
    return moveTo(step, deposit, 'refund_pending', {
      lastError: `Destination chain ${deposit.destinationChainId} is not served`,
    })
  }
  if (deposit.destinationFromBlock === null) {
    deposit = await save(step, deposit, { destinationFromBlock: match.destinationFromBlock })
  }

  // One fill per intent id, whatever other deposits copy it (the partial unique index backs this up).
  const otherOrderKey = await findOtherFilledDeposit(options.db, deposit)
  if (otherOrderKey !== undefined) {
    return moveTo(step, deposit, 'refund_pending', {
      lastError: `The intent is filled through another deposit (${otherOrderKey})`,
    })
  }

  const sourceHead = await source.client.getBlockNumber({ cacheTime: 0 })
  if (sourceHead - BigInt(deposit.depositBlock) < BigInt(source.confirmations)) {
    return waitFor(step, deposit, options.retryDelayMs)
  }

  // A fill that happened already (a crash before 'filled' was written) is recorded, not repeated.
  if (await isFilledOnChain(destination, deposit.orderKey))
    return recordFillFromChain(step, deposit, destination)
  const otherFill = (
    await findPayRouterFilledLogs({
      client: destination.client,
      payRouter: destination.payRouter,
      args: { intentId: order.intentId },
      fromBlock: deposit.destinationFromBlock === null ? null : BigInt(deposit.destinationFromBlock),
    })
  ).find((log) => log.args.orderKey.toLowerCase() !== deposit.orderKey)
  if (otherFill) {
    return moveTo(step, deposit, 'refund_pending', {
      lastError: `The intent is filled through another deposit (${otherFill.args.orderKey.toLowerCase()})`,
    })
  }

  const chainTime = await getChainTime(destination.client)
  if (deposit.fillDeadline - chainTime <= fillSafetySeconds) {
    return moveTo(step, deposit, 'refund_pending', {
      lastError: `Not filled: ${fillSafetySeconds} s or less were left before the fill deadline`,
    })
  }

  const plan = buildFillPlan(order, source, destination)
  if (!plan) {
    return moveTo(step, deposit, 'refund_pending', {
      lastError: 'The destination token is not on the destination chain',
    })
  }
  const expected =
    plan.path.length === 0
      ? plan.amountIn
      : await quoteUniswapAmountOut({
          client: destination.client,
          router: destination.deployment.contracts.uniswapV2Router,
          amountIn: plan.amountIn,
          path: plan.path,
        })
  if (expected < order.minAmountOut) {
    throw new Error(`Quote ${expected} is below the minimum ${order.minAmountOut}; waiting for liquidity`)
  }
  deposit = await extendLease(step, deposit)
  await ensureAllowance(destination, plan.tokenIn, plan.amountIn)

  // Right before the fill: the deposit must still be where it was seen.
  deposit = await extendLease(step, deposit)
  const check = await checkDepositCanonical(step, deposit)
  if (!check.isCanonical) return check.deposit

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
    deposit = await save(step, deposit, {
      state: 'filling',
      fillTxHash: signed.hash,
      lastError: null,
      nextAttemptAt: new Date(options.now() + depositLeaseMs),
    })
  } catch (error) {
    // The signed fill is dropped unsent: its nonce goes back to the node's count.
    resetRelayerNonce(destination)
    if (!getUniqueViolation(error)) throw error
    return moveTo(step, deposit, 'refund_pending', {
      lastError: 'The intent is filled through another deposit',
    })
  }
  try {
    await broadcastRelayerTransaction(destination, signed)
  } catch (error) {
    // Maybe the node has it after all: the next round follows the hash either way.
    options.logger.warn(
      { err: error, intentId: deposit.intentId, fillTxHash: signed.hash },
      'Fill broadcast failed',
    )
    return waitFor(step, deposit, options.retryDelayMs, { lastError: describeError(error) })
  }
  return awaitFill(step, deposit, destination, signed.hash)
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
