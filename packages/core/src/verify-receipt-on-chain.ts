import {
  erc20Abi,
  isAddressEqual,
  type Log,
  type PublicClient,
  parseEventLogs,
  type TransactionReceipt,
} from 'viem'
import type { ReceiptMessage } from './api/receipts.ts'
import { isNativeTokenAddress } from './native-token-address.ts'

/** What a receipt check reads of a chain: any viem public client (or the browser's relay). */
export type ReceiptChainReader = Pick<
  PublicClient,
  'getChainId' | 'getTransaction' | 'getTransactionReceipt' | 'getBalance'
>

/** The outcome: the chain says what the receipt says, or the first thing that differs. */
export type ReceiptChainCheck = { isMatch: true } | { isMatch: false; reason: string }

/**
 * Checks a receipt's claims against the chains themselves, trusting nothing the server says:
 * the destination transaction exists, succeeded and credited `amountReceived` of
 * `destinationToken` to `receiver` (the sum of the token's ERC-20 Transfer logs to the receiver;
 * for the native token, which leaves no log, the transaction's own value when it pays the receiver
 * directly, else the receiver's balance change over the transaction's block); the source
 * transaction exists on `sourceChainId`, succeeded and was sent by `payer`.
 *
 * Limits (docs/api.md#receipts): a native credit read from the balance change is exact only when
 * nothing else moved the receiver's balance in that block, and needs a node that keeps the state of
 * the block before (an archive node for old payments).
 *
 * `getClient` answers the reader of a chain id, or undefined when the caller has none. Resolves
 * `{isMatch: false, reason}` for a claim the chain contradicts or a chain it cannot reach; rejects
 * only when an RPC call fails.
 */
export async function verifyReceiptOnChain(
  message: ReceiptMessage,
  getClient: (chainId: number) => ReceiptChainReader | undefined,
): Promise<ReceiptChainCheck> {
  const destinationChainId = Number(message.destinationChainId)
  const sourceChainId = Number(message.sourceChainId)
  const destination = await getCheckedClient(getClient, destinationChainId)
  if (typeof destination === 'string') return { isMatch: false, reason: destination }
  const receipt = await findReceipt(destination, message.destinationTxHash)
  if (receipt === undefined) {
    return {
      isMatch: false,
      reason: `the destination transaction ${message.destinationTxHash} is not on chain ${destinationChainId}`,
    }
  }
  if (receipt.status !== 'success') {
    return { isMatch: false, reason: `the destination transaction ${message.destinationTxHash} reverted` }
  }
  const credit = await readCredit(destination, receipt, message)
  if (credit !== message.amountReceived) {
    return {
      isMatch: false,
      reason: `the destination transaction credited ${message.receiver} ${credit} of ${message.destinationToken}, not ${message.amountReceived}`,
    }
  }

  const source = await getCheckedClient(getClient, sourceChainId)
  if (typeof source === 'string') return { isMatch: false, reason: source }
  const sourceReceipt = await findReceipt(source, message.sourceTxHash)
  if (sourceReceipt === undefined) {
    return {
      isMatch: false,
      reason: `the source transaction ${message.sourceTxHash} is not on chain ${sourceChainId}`,
    }
  }
  if (sourceReceipt.status !== 'success') {
    return { isMatch: false, reason: `the source transaction ${message.sourceTxHash} reverted` }
  }
  if (!isAddressEqual(sourceReceipt.from, message.payer)) {
    return {
      isMatch: false,
      reason: `the source transaction was sent by ${sourceReceipt.from}, not the payer ${message.payer}`,
    }
  }
  return { isMatch: true }
}

async function getCheckedClient(
  getClient: (chainId: number) => ReceiptChainReader | undefined,
  chainId: number,
): Promise<ReceiptChainReader | string> {
  const client = getClient(chainId)
  if (client === undefined) return `no RPC was given for chain ${chainId}`
  const served = await client.getChainId()
  if (served !== chainId) return `the RPC given for chain ${chainId} serves chain ${served}`
  return client
}

async function findReceipt(
  client: ReceiptChainReader,
  hash: `0x${string}`,
): Promise<TransactionReceipt | undefined> {
  try {
    return await client.getTransactionReceipt({ hash })
  } catch (error) {
    // viem's TransactionReceiptNotFoundError: the node does not know the hash.
    if (error instanceof Error && error.name === 'TransactionReceiptNotFoundError') return undefined
    throw error
  }
}

async function readCredit(
  client: ReceiptChainReader,
  receipt: TransactionReceipt,
  message: ReceiptMessage,
): Promise<bigint> {
  if (!isNativeTokenAddress(message.destinationToken)) {
    const transfers = parseEventLogs({
      abi: erc20Abi,
      eventName: 'Transfer',
      logs: receipt.logs as Log[],
      strict: true,
    })
    let credit = 0n
    for (const transfer of transfers) {
      if (!isAddressEqual(transfer.address, message.destinationToken)) continue
      if (!isAddressEqual(transfer.args.to, message.receiver)) continue
      credit += transfer.args.value
    }
    return credit
  }
  const transaction = await client.getTransaction({ hash: message.destinationTxHash })
  if (
    transaction.to !== null &&
    isAddressEqual(transaction.to, message.receiver) &&
    transaction.value === message.amountReceived
  ) {
    return transaction.value
  }
  // A native payout made inside a contract call leaves no log: the receiver's balance change over the block.
  const [before, after] = await Promise.all([
    client.getBalance({ address: message.receiver, blockNumber: receipt.blockNumber - 1n }),
    client.getBalance({ address: message.receiver, blockNumber: receipt.blockNumber }),
  ])
  return after > before ? after - before : 0n
}
