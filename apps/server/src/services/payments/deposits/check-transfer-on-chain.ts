import { isNativeTokenAddress } from '@quicklinks/core/native-token-address'
import { type Hash, type PublicClient, parseAbiItem, parseEventLogs } from 'viem'
import type { Deposit, DepositTransfer } from '../../../db/schema.ts'
import { ignoreNotFound } from '../providers/local/relayer/relayer-step.ts'

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

/** Where a stored transfer stands on the chain as it is now. */
export type TransferOnChain =
  | { kind: 'canonical'; blockNumber: number; blockHash: string }
  /** Mined, but with fewer blocks on top than the chain's confirmation depth (mined again after a reorg). */
  | { kind: 'unconfirmed'; blockNumber: number; blockHash: string }
  /** Not in the chain (a reorg replaced its block), or no longer the transfer it was. */
  | { kind: 'gone' }

/**
 * Whether a deposit transfer is still on the chain (docs/decisions/0032): its transaction has a
 * successful receipt with the same movement into the deposit address (the token's `Transfer` log
 * of that amount, or a plain native transfer to it) and enough blocks on top. Its block may differ
 * from the one it was seen in (mined again elsewhere after a reorg). Throws on RPC errors.
 */
export async function checkTransferOnChain(
  client: PublicClient,
  confirmations: number,
  deposit: Deposit,
  transfer: DepositTransfer,
): Promise<TransferOnChain> {
  if (!transfer.txHash) return { kind: 'gone' }
  const hash = transfer.txHash as Hash
  const receipt = await client.getTransactionReceipt({ hash }).catch(ignoreNotFound)
  if (receipt?.status !== 'success') return { kind: 'gone' }
  const address = deposit.address.toLowerCase()
  let isSameMovement: boolean
  if (isNativeTokenAddress(transfer.token)) {
    const transaction = await client.getTransaction({ hash }).catch(ignoreNotFound)
    isSameMovement =
      transaction?.to?.toLowerCase() === address && transaction.value.toString() === transfer.amount
  } else {
    const logs = parseEventLogs({ abi: [transferEvent], logs: receipt.logs, strict: false })
    isSameMovement = logs.some(
      (log) =>
        log.address.toLowerCase() === transfer.token &&
        log.args.to?.toLowerCase() === address &&
        log.args.value?.toString() === transfer.amount,
    )
  }
  if (!isSameMovement) return { kind: 'gone' }
  const head = await client.getBlockNumber({ cacheTime: 0 })
  const place = { blockNumber: Number(receipt.blockNumber), blockHash: receipt.blockHash }
  // As the scan: a block is taken once `confirmations` blocks sit on it.
  return head - receipt.blockNumber >= BigInt(confirmations)
    ? { kind: 'canonical', ...place }
    : { kind: 'unconfirmed', ...place }
}
