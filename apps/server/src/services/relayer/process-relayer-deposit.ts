import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import { uniswapV2Router02Abi } from '@quicklinks/contracts/generated/uniswap-v2-router02'
import type { DevnetChainDeployment } from '@quicklinks/devnet/devnet-deployment'
import { eq } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import {
  type Chain,
  encodeFunctionData,
  erc20Abi,
  type Hash,
  keccak256,
  type LocalAccount,
  maxUint256,
  type PublicClient,
  parseEventLogs,
  type Transport,
  type WalletClient,
} from 'viem'
import type { Database } from '../../db/create-database-client.ts'
import { type RelayerDeposit, relayerDeposits } from '../../db/schema.ts'
import { scaleAmount } from '../routing/providers/local/build-local-route.ts'
import {
  buildLocalSwapPath,
  getLocalTokenOrThrow,
  getLocalUsdcOrThrow,
  type LocalToken,
} from '../routing/providers/local/local-devnet-chain.ts'

/** A fill is not started when fewer seconds than this remain before the deposit's deadline. */
export const fillSafetySeconds = 30
/** How long a claimed deposit stays with its worker before another round may take it again. */
export const depositLeaseMs = 60_000
const receiptTimeoutMs = 60_000

/** PayRouter's escrow states (`deposits(intentId).state`). */
const escrowState = { none: 0, open: 1, settled: 2, refunded: 3 } as const

/** What the relayer uses on one chain. */
export type RelayerChain = {
  deployment: DevnetChainDeployment
  client: PublicClient
  wallet: WalletClient<Transport, Chain, LocalAccount>
  payRouter: `0x${string}`
}

export type ProcessRelayerDepositOptions = {
  db: Database
  chains: ReadonlyMap<number, RelayerChain>
  logger: FastifyBaseLogger
  /** Epoch ms. */
  now: () => number
  /** Wait before retrying a deposit that could not move on (no liquidity, RPC error). */
  retryDelayMs: number
}

type Patch = Partial<typeof relayerDeposits.$inferInsert>

/**
 * Moves one claimed deposit one or more steps along pending → filling → filled → settled, or
 * refund_pending → refunded when it cannot be filled safely before its deadline. Before any fill it
 * asks the destination PayRouter whether the intent is already filled, and it writes 'filling' with
 * the signed transaction's hash before broadcasting, so a restart finds and follows that
 * transaction instead of sending a second fill (PayRouter refuses one anyway). Errors are stored
 * on the row (last_error) and retried after `retryDelayMs`; it throws only on database errors.
 * The claim's lease (next_attempt_at) stays in force while it works, so no other round or
 * instance takes the row between the fill and the settlement.
 */
export async function processRelayerDeposit(
  options: ProcessRelayerDepositOptions,
  deposit: RelayerDeposit,
): Promise<void> {
  const update = async (patch: Patch): Promise<void> => {
    await options.db
      .update(relayerDeposits)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(relayerDeposits.id, deposit.id))
    Object.assign(deposit, patch)
  }
  const retryLater = (error: unknown, delayMs = options.retryDelayMs): Promise<void> =>
    update({
      lastError: describeError(error),
      nextAttemptAt: new Date(options.now() + delayMs),
    })

  const source = options.chains.get(deposit.sourceChainId)
  const destination = options.chains.get(deposit.destinationChainId)
  if (!source) {
    await update({
      state: 'failed',
      lastError: `Chain ${deposit.sourceChainId} is not served by this relayer`,
    })
    return
  }
  try {
    if (deposit.state === 'pending' || deposit.state === 'filling') {
      if (!destination) {
        await update({
          state: 'refund_pending',
          lastError: `Destination chain ${deposit.destinationChainId} is not served`,
        })
      } else {
        await advanceFill(options, deposit, destination, update)
      }
    }
    if (deposit.state === 'filled') await settle(options, deposit, source, update)
    if (deposit.state === 'refund_pending') await refund(options, deposit, source, destination, update)
  } catch (error) {
    options.logger.warn(
      { err: error, intentId: deposit.intentId, state: deposit.state },
      'Relayer step failed',
    )
    await retryLater(error)
  }
}

async function advanceFill(
  options: ProcessRelayerDepositOptions,
  deposit: RelayerDeposit,
  destination: RelayerChain,
  update: (patch: Patch) => Promise<void>,
): Promise<void> {
  const intentId = deposit.intentId as Hash
  const recorded = await findFill(destination, intentId)
  if (recorded) {
    await update({
      ...recorded,
      state: 'filled',
      filledAt: new Date(),
      lastError: null,
    })
    return
  }

  if (deposit.state === 'filling' && deposit.fillTxHash) {
    // A fill was signed (and maybe broadcast) before a crash or time-out: follow that transaction.
    const outcome = await readTransactionOutcome(destination.client, deposit.fillTxHash as Hash)
    if (outcome === 'pending') {
      await update({ nextAttemptAt: new Date(options.now() + options.retryDelayMs) })
      return
    }
    // Reverted, or never reached the node: the intent is not filled, so a new fill is safe.
    await update({
      state: 'pending',
      lastError: `Fill ${deposit.fillTxHash} ${outcome === 'reverted' ? 'reverted' : 'was never mined'}`,
    })
  }

  // The relayer pays out exactly the escrow's worth of USDC, so it only fills USDC escrows (what
  // every local route deposits); anything else was sent around the routes and is the payer's to refund.
  const source = options.chains.get(deposit.sourceChainId)
  const sourceUsdc = source ? getLocalUsdcOrThrow(source.deployment) : undefined
  if (!sourceUsdc || sourceUsdc.address.toLowerCase() !== deposit.escrowToken.toLowerCase()) {
    await update({ state: 'failed', lastError: "The escrow is not the source chain's USDC; not filled" })
    return
  }
  if (!isKnownToken(destination.deployment, deposit.destinationToken)) {
    await update({
      state: 'refund_pending',
      lastError: 'The destination token is not on the destination chain',
    })
    return
  }

  if (options.now() / 1000 > deposit.fillDeadline - fillSafetySeconds) {
    await update({ state: 'refund_pending', lastError: 'Not filled before the deadline' })
    return
  }

  const plan = buildFillPlan(deposit, source, destination)
  const expected = plan.path.length === 0 ? plan.amountIn : await quote(destination, plan.amountIn, plan.path)
  if (expected < BigInt(deposit.minAmountOut)) {
    await update({
      lastError: `Quote ${expected} is below the minimum ${deposit.minAmountOut}; waiting for liquidity`,
      nextAttemptAt: new Date(options.now() + options.retryDelayMs),
    })
    return
  }
  await ensureAllowance(destination, plan.tokenIn, plan.amountIn)

  const data = encodeFunctionData({
    abi: payRouterAbi,
    functionName: 'fill',
    args: [
      intentId,
      plan.tokenIn.contractAddress,
      plan.amountIn,
      plan.path,
      plan.tokenOut.contractAddress,
      BigInt(deposit.minAmountOut),
      deposit.receiver as `0x${string}`,
      BigInt(deposit.sourceChainId),
    ],
  })
  // The estimate is also the dry run: a fill that would revert never reaches 'filling'. Half again
  // the estimate, since a pool's first swap in a new block second costs more than estimated.
  const estimate = await destination.client.estimateGas({
    account: destination.wallet.account,
    to: destination.payRouter,
    data,
  })
  const request = await destination.wallet.prepareTransactionRequest({
    to: destination.payRouter,
    data,
    value: 0n,
    gas: (estimate * 3n) / 2n,
  })
  const serialized = await destination.wallet.signTransaction(request)
  const hash = keccak256(serialized)
  await update({ state: 'filling', fillTxHash: hash, attempts: deposit.attempts + 1 })
  await destination.client.sendRawTransaction({ serializedTransaction: serialized })
  const receipt = await destination.client.waitForTransactionReceipt({ hash, timeout: receiptTimeoutMs })
  if (receipt.status !== 'success') {
    await update({
      state: 'pending',
      lastError: `Fill ${hash} reverted`,
      nextAttemptAt: new Date(options.now() + options.retryDelayMs),
    })
    return
  }
  const [filled] = parseEventLogs({ abi: payRouterAbi, eventName: 'Filled', logs: receipt.logs })
  options.logger.info(
    { intentId, fillTxHash: hash, chainId: deposit.destinationChainId },
    'Relayer filled an intent',
  )
  await update({
    state: 'filled',
    fillTxHash: hash,
    filledAmount: filled?.args.amount.toString() ?? null,
    filledAt: new Date(),
    lastError: null,
  })
}

async function settle(
  options: ProcessRelayerDepositOptions,
  deposit: RelayerDeposit,
  source: RelayerChain,
  update: (patch: Patch) => Promise<void>,
): Promise<void> {
  const intentId = deposit.intentId as Hash
  const state = await readEscrowState(source, intentId)
  if (state === escrowState.settled) {
    await update({ state: 'settled', settledAt: new Date(), lastError: null })
    return
  }
  if (state !== escrowState.open) {
    // Refunded after the fill (the deadline passed first): the relayer paid twice; people must look.
    await update({ state: 'failed', lastError: `Escrow is in state ${state}; cannot settle after the fill` })
    options.logger.error({ intentId }, 'Filled an intent whose escrow is not open; cannot settle')
    return
  }
  const hash = await releaseEscrow(source, 'settle', intentId)
  await update({ state: 'settled', settleTxHash: hash, settledAt: new Date(), lastError: null })
}

async function refund(
  options: ProcessRelayerDepositOptions,
  deposit: RelayerDeposit,
  source: RelayerChain,
  destination: RelayerChain | undefined,
  update: (patch: Patch) => Promise<void>,
): Promise<void> {
  const intentId = deposit.intentId as Hash
  // A fill that landed after all (a slow transaction) is settled, not refunded.
  const recorded = destination ? await findFill(destination, intentId) : undefined
  if (recorded) {
    await update({ ...recorded, state: 'filled', filledAt: new Date() })
    await settle(options, deposit, source, update)
    return
  }
  const state = await readEscrowState(source, intentId)
  if (state === escrowState.refunded) {
    await update({ state: 'refunded', refundedAt: new Date() })
    return
  }
  if (state !== escrowState.open) {
    await update({ state: 'failed', lastError: `Escrow is in state ${state}; nothing to refund` })
    return
  }
  const waitMs = (deposit.fillDeadline + 1) * 1000 - options.now()
  if (waitMs > 0) {
    await update({ nextAttemptAt: new Date(options.now() + waitMs) })
    return
  }
  const hash = await releaseEscrow(source, 'refund', intentId)
  options.logger.info({ intentId, refundTxHash: hash }, 'Relayer refunded an unfilled deposit')
  await update({ state: 'refunded', refundTxHash: hash, refundedAt: new Date(), lastError: null })
}

/**
 * Sends the source PayRouter's `settle` (to the relayer) or `refund` (to the payer) for an intent
 * and waits for it to be mined. Throws when it reverts or is not mined in time; the caller retries.
 */
async function releaseEscrow(
  source: RelayerChain,
  action: 'settle' | 'refund',
  intentId: Hash,
): Promise<Hash> {
  const hash = await source.wallet.writeContract({
    address: source.payRouter,
    abi: payRouterAbi,
    functionName: action,
    args: [intentId],
  })
  const receipt = await source.client.waitForTransactionReceipt({ hash, timeout: receiptTimeoutMs })
  if (receipt.status !== 'success')
    throw new Error(`${action === 'settle' ? 'Settle' : 'Refund'} ${hash} reverted`)
  return hash
}

function isKnownToken(chain: DevnetChainDeployment, address: string): boolean {
  try {
    getLocalTokenOrThrow(chain, address, 'toToken')
    return true
  } catch {
    return false
  }
}

type FillPlan = { tokenIn: LocalToken; tokenOut: LocalToken; amountIn: bigint; path: `0x${string}`[] }

/** The relayer pays USDC from its inventory, swapping it on the destination when the link wants another token. */
function buildFillPlan(
  deposit: RelayerDeposit,
  source: RelayerChain | undefined,
  destination: RelayerChain,
): FillPlan {
  const tokenIn = getLocalUsdcOrThrow(destination.deployment)
  const tokenOut = getLocalTokenOrThrow(destination.deployment, deposit.destinationToken, 'toToken')
  const escrowToken = source?.deployment.tokens.find(
    (token) => token.address.toLowerCase() === deposit.escrowToken.toLowerCase(),
  )
  const sourceDecimals = escrowToken?.decimals ?? tokenIn.decimals
  const amountIn = scaleAmount(BigInt(deposit.escrowAmount), sourceDecimals, tokenIn.decimals)
  return { tokenIn, tokenOut, amountIn, path: buildLocalSwapPath(tokenIn, tokenOut, tokenIn) }
}

async function quote(chain: RelayerChain, amountIn: bigint, path: `0x${string}`[]): Promise<bigint> {
  const amounts = await chain.client.readContract({
    address: chain.deployment.contracts.uniswapV2Router,
    abi: uniswapV2Router02Abi,
    functionName: 'getAmountsOut',
    args: [amountIn, path],
  })
  return amounts[amounts.length - 1] ?? 0n
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
  const receipt = await chain.client.waitForTransactionReceipt({ hash, timeout: receiptTimeoutMs })
  if (receipt.status !== 'success') throw new Error(`Approve ${hash} reverted`)
}

/** The fill of an intent on the destination chain, read from PayRouter, or undefined when not filled. */
async function findFill(
  chain: RelayerChain,
  intentId: Hash,
): Promise<{ fillTxHash: string | null; filledAmount: string | null } | undefined> {
  const isFilled = await chain.client.readContract({
    address: chain.payRouter,
    abi: payRouterAbi,
    functionName: 'filled',
    args: [intentId],
  })
  if (!isFilled) return undefined
  const [log] = await chain.client.getContractEvents({
    address: chain.payRouter,
    abi: payRouterAbi,
    eventName: 'Filled',
    args: { intentId },
    fromBlock: 'earliest',
    toBlock: 'latest',
  })
  return { fillTxHash: log?.transactionHash ?? null, filledAmount: log?.args.amount?.toString() ?? null }
}

async function readEscrowState(chain: RelayerChain, intentId: Hash): Promise<number> {
  const [, , , , state] = await chain.client.readContract({
    address: chain.payRouter,
    abi: payRouterAbi,
    functionName: 'deposits',
    args: [intentId],
  })
  return state
}

/** Whether a transaction hash is mined (success or reverted), still pending, or unknown to the node. */
async function readTransactionOutcome(
  client: PublicClient,
  hash: Hash,
): Promise<'success' | 'reverted' | 'pending' | 'unknown'> {
  try {
    const receipt = await client.getTransactionReceipt({ hash })
    return receipt.status === 'success' ? 'success' : 'reverted'
  } catch {
    try {
      await client.getTransaction({ hash })
      return 'pending'
    } catch {
      return 'unknown'
    }
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const short = (error as { shortMessage?: unknown }).shortMessage
    return (typeof short === 'string' ? short : error.message).slice(0, 500)
  }
  return String(error).slice(0, 500)
}
