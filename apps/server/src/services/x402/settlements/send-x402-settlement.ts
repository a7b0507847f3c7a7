import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { BaseError, type Hash, type Hex, NonceTooLowError } from 'viem'
import type { X402Settlement } from '../../../db/schema.ts'
import {
  broadcastRelayerTransaction,
  type RelayerChain,
  signRelayerTransaction,
} from '../../payments/providers/local/relayer/relayer-chain.ts'
import { describeError, ignoreNotFound } from '../../payments/providers/local/relayer/relayer-step.ts'
import {
  claimX402Settlement,
  noteX402SettlementError,
  recordX402Signed,
  setX402SettlementState,
} from './x402-settlements-repository.ts'

/** What sending needs: the database, the relayer's chain of the row (its nonce manager) and a clock. */
export type X402SendContext = { db: Database; chain: RelayerChain; now: () => number }

/**
 * The writer's half of a settlement: claims a queued row (one taker wins), signs its call with the
 * relayer account through the chain's shared nonce manager, writes hash and bytes down, and only
 * then broadcasts. Answers the hash once the node holds the transaction, or undefined when another
 * round or request claimed the row first. Throws when signing or the broadcast failed; the row is
 * `failed` with the reason then, which frees the authorization (nothing of it reached the node).
 */
export async function sendQueuedX402Settlement(
  context: X402SendContext,
  row: Pick<X402Settlement, 'id' | 'asset' | 'data'>,
): Promise<Hash | undefined> {
  const { db, chain, now } = context
  const claimed = await claimX402Settlement(db, row.id, now())
  if (!claimed) return undefined
  let signed: { hash: Hash; serialized: Hex }
  try {
    signed = await signRelayerTransaction(chain, { to: row.asset as `0x${string}`, data: row.data as Hex })
  } catch (error) {
    await setX402SettlementState(db, row.id, 'failed', now(), describeError(error))
    throw error
  }
  await recordX402Signed(db, row.id, signed, now())
  try {
    await broadcastRelayerTransaction(chain, signed)
  } catch (error) {
    // A request that failed on our side may still have reached the node: then it is sent.
    if (await isKnownToNode(chain, signed.hash)) {
      await setX402SettlementState(db, row.id, 'sent', now())
      return signed.hash
    }
    await setX402SettlementState(db, row.id, 'failed', now(), describeError(error))
    throw error
  }
  await setX402SettlementState(db, row.id, 'sent', now())
  return signed.hash
}

/**
 * The writer's look at a row signed but not known to be sent (its sender may have died between
 * writing it down and the broadcast): `sent` when the chain knows the hash, else the same bytes
 * again, so it can only ever be this one transaction. A nonce the chain has used for another
 * transaction makes these bytes unmineable: `failed`. Other send errors stay on the row for the
 * next round. Throws on database and read errors.
 */
export async function followSignedX402Settlement(
  context: X402SendContext,
  row: Pick<X402Settlement, 'id' | 'txHash' | 'rawTx'>,
): Promise<void> {
  const { db, chain, now } = context
  const hash = row.txHash as Hash | null
  if (!hash || !row.rawTx) {
    await setX402SettlementState(db, row.id, 'failed', now(), 'Signed without its hash or bytes')
    return
  }
  if (await isKnownToNode(chain, hash)) {
    await setX402SettlementState(db, row.id, 'sent', now())
    return
  }
  try {
    await chain.client.sendRawTransaction({ serializedTransaction: row.rawTx as Hex })
    await setX402SettlementState(db, row.id, 'sent', now())
  } catch (error) {
    const isNonceUsed =
      error instanceof BaseError && error.walk((cause) => cause instanceof NonceTooLowError) !== null
    if (isNonceUsed) await setX402SettlementState(db, row.id, 'failed', now(), describeError(error))
    else await noteX402SettlementError(db, row.id, describeError(error), now())
  }
}

/** Whether the node has the transaction, mined or pending. */
async function isKnownToNode(chain: RelayerChain, hash: Hash): Promise<boolean> {
  const receipt = await chain.client.getTransactionReceipt({ hash }).catch(ignoreNotFound)
  if (receipt) return true
  return (await chain.client.getTransaction({ hash }).catch(ignoreNotFound)) !== undefined
}
