import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { FastifyBaseLogger } from 'fastify'
import type { Hash, PublicClient } from 'viem'
import type { RelayerDeposit } from '../../../../../db/schema.ts'
import { readPayRouterFilled } from '../payrouter/read-pay-router-state.ts'
import type { RelayerChain } from './relayer-chain.ts'
import {
  depositLeaseMs,
  type RelayerDepositPatch,
  updateRelayerDeposit,
} from './relayer-deposits-repository.ts'
import type { RelayerOrder } from './relayer-order.ts'

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

/** One claimed deposit's world: the options, its on-chain order and the chains it touches. */
export type Step = {
  options: ProcessRelayerDepositOptions
  order: RelayerOrder
  source: RelayerChain
  destination: RelayerChain | undefined
  /** The deposit's row as last written (what a failed step's retry counts from). */
  last: RelayerDeposit
}

/** A state's step: takes the deposit's row, acts, and answers its next row. */
export type StateStep = (step: Step, deposit: RelayerDeposit) => Promise<RelayerDeposit>

/** Writes a patch; answers the next row. */
export async function save(
  step: Step,
  deposit: RelayerDeposit,
  patch: RelayerDepositPatch,
): Promise<RelayerDeposit> {
  step.last = await updateRelayerDeposit(step.options.db, deposit, patch, step.options.now())
  return step.last
}

/** Moves to another state, due again at once unless the patch says otherwise; the failure count starts again. */
export function moveTo(
  step: Step,
  deposit: RelayerDeposit,
  state: RelayerDeposit['state'],
  patch: RelayerDepositPatch = {},
): Promise<RelayerDeposit> {
  return save(step, deposit, { attempts: 0, nextAttemptAt: new Date(step.options.now()), ...patch, state })
}

/** Looks again after `delayMs` (capped by maxRetryDelayMs). */
export function waitFor(
  step: Step,
  deposit: RelayerDeposit,
  delayMs: number,
  patch: RelayerDepositPatch = {},
): Promise<RelayerDeposit> {
  const { now, maxRetryDelayMs } = step.options
  return save(step, deposit, {
    ...patch,
    nextAttemptAt: new Date(now() + Math.min(delayMs, maxRetryDelayMs)),
  })
}

/** Renews the claim before something that may take long. */
export function extendLease(step: Step, deposit: RelayerDeposit): Promise<RelayerDeposit> {
  return save(step, deposit, { nextAttemptAt: new Date(step.options.now() + depositLeaseMs) })
}

/** A deposit whose destination chain this relayer does not serve cannot move on: it failed. */
export function failUnservedDestination(step: Step, deposit: RelayerDeposit): Promise<RelayerDeposit> {
  return moveTo(step, deposit, 'failed', {
    lastError: `Destination chain ${deposit.destinationChainId} is not served`,
  })
}

/** Whether the destination PayRouter has filled the order. */
export function isFilledOnChain(chain: RelayerChain, orderKey: string): Promise<boolean> {
  return readPayRouterFilled(chain.client, chain.payRouter, orderKey as Hash)
}

/** The chain's clock: its latest block's timestamp (contracts compare deadlines with it, not with ours). */
export async function getChainTime(client: PublicClient): Promise<number> {
  const block = await client.getBlock({ blockTag: 'latest' })
  return Number(block.timestamp)
}

/** viem's "no such receipt/transaction/block" errors become undefined; anything else is rethrown. */
export function ignoreNotFound(error: unknown): undefined {
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

/** An error as the row's last_error: viem's short message when it has one, at most 500 characters. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const short = (error as { shortMessage?: unknown }).shortMessage
    return (typeof short === 'string' ? short : error.message).slice(0, 500)
  }
  return String(error).slice(0, 500)
}
