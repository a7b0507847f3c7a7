import { isNativeTokenAddress } from '@quicklinks/core/native-token-address'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { FastifyBaseLogger } from 'fastify'
import { erc20Abi, getAddress, type Hash, type Hex } from 'viem'
import type { Deposit, DepositTransfer } from '../../../db/schema.ts'
import {
  broadcastRelayerTransaction,
  type RelayerChain,
  signRelayerTransaction,
} from '../providers/local/relayer/relayer-chain.ts'
import { ignoreNotFound } from '../providers/local/relayer/relayer-step.ts'
import { recordRouteReceipt } from '../route/record-route-receipt.ts'
import type { RoutingProvider } from '../route/routing-provider.ts'
import { type DepositTransferPatch, updateDepositTransfer } from './deposits-repository.ts'
import type { DepositSetup } from './get-deposit-setup.ts'

// The steps processDepositTransfer is made of that touch the chain: balances, the operator's
// signed-then-sent transaction, and following it to its receipt.

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

/** Writes a patch to the transfer's row; answers the next row. */
export function saveTransfer(
  context: ProcessDepositTransferContext,
  row: DepositTransfer,
  patch: DepositTransferPatch,
): Promise<DepositTransfer> {
  return updateDepositTransfer(context.db, row, patch, context.now())
}

/** The deposit address's balance of a token (native for the all-e placeholder). */
export async function readHeld(
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

/** Signs the operator's transaction, writes its hash and bytes down, then broadcasts it. */
export async function sendAction(
  context: ProcessDepositTransferContext,
  row: DepositTransfer,
  state: 'routing' | 'refunding',
  request: { to: `0x${string}`; data: Hex; gas?: bigint },
  intentId: string | null = null,
): Promise<DepositTransfer> {
  const signed = await signRelayerTransaction(context.chain, request)
  const next = await saveTransfer(context, row, {
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

/**
 * Follows the written-down transaction to its receipt, broadcasting it again when the node lost it.
 * A transfer forwarded inside another's transaction (the transfers of a fixed-amount deposit that
 * add up, docs/decisions/0032) has no bytes of its own: it follows, and its gas is the other's.
 */
export async function followAction(
  context: ProcessDepositTransferContext,
  row: DepositTransfer,
): Promise<DepositTransfer> {
  const hash = row.actionTxHash as Hash
  const client = context.chain.client
  const isCarrier = row.actionRawTx !== null
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
  if (!receipt)
    return saveTransfer(context, row, { nextAttemptAt: new Date(context.now() + context.retryDelayMs) })
  const gasCostWei = isCarrier ? (receipt.gasUsed * receipt.effectiveGasPrice).toString() : null
  if (receipt.status !== 'success') {
    // Nothing moved: decide again (the deposit may have expired meanwhile, so it is refunded instead).
    return saveTransfer(context, row, {
      state: 'detected',
      gasCostWei,
      lastError: `The operator's transaction ${hash} reverted.`,
      attempts: row.attempts + 1,
      nextAttemptAt: new Date(context.now() + context.retryDelayMs),
    })
  }
  if (row.state === 'routing' && row.intentId) {
    if (isCarrier) await recordRouteReceipt(context.db, row.intentId, hash, { nowMs: context.now() })
    return saveTransfer(context, row, { state: 'routed', gasCostWei, lastError: null })
  }
  return saveTransfer(context, row, { state: 'refunded', gasCostWei })
}

function isWaitTimeout(error: unknown): boolean {
  return (error as { name?: unknown }).name === 'WaitForTransactionReceiptTimeoutError'
}
