import type { Hash } from 'viem'
import type { RelayerDeposit } from '../../../../../db/schema.ts'
import { parsePayRouterLogs } from '../payrouter/parse-pay-router-logs.ts'
import { ignoreNotFound, moveTo, type Step, waitFor } from './relayer-step.ts'
import { stepRelayerCursorBack } from './scan-relayer-deposits.ts'

/**
 * Whether the deposit's transaction is still mined in the block it was seen in, with its
 * `Deposited` log. When it moved to another block (re-mined after a reorg) the row follows it and
 * waits for its confirmations again; when it is gone, the row becomes 'orphaned' and the source
 * cursor steps back so a re-mined deposit is found by the scan. Answers the next row with the verdict.
 */
export async function checkDepositCanonical(
  step: Step,
  deposit: RelayerDeposit,
): Promise<{ isCanonical: boolean; deposit: RelayerDeposit }> {
  const { options, source } = step
  const receipt = await source.client
    .getTransactionReceipt({ hash: deposit.depositTxHash as Hash })
    .catch(ignoreNotFound)
  const hasLog =
    receipt?.status === 'success' &&
    parsePayRouterLogs(receipt.logs, source.payRouter, 'Deposited').some(
      (log) => log.args.orderKey.toLowerCase() === deposit.orderKey,
    )
  if (receipt && hasLog && receipt.blockHash === deposit.depositBlockHash)
    return { isCanonical: true, deposit }
  if (receipt && hasLog) {
    const next = await waitFor(step, deposit, options.retryDelayMs, {
      depositBlock: Number(receipt.blockNumber),
      depositBlockHash: receipt.blockHash,
    })
    return { isCanonical: false, deposit: next }
  }
  options.logger.warn(
    { intentId: deposit.intentId, orderKey: deposit.orderKey, depositTxHash: deposit.depositTxHash },
    'Relayer deposit was reorged away',
  )
  const next = await moveTo(step, deposit, 'orphaned', {
    lastError: `Deposit ${deposit.depositTxHash} is no longer in block ${deposit.depositBlock}`,
  })
  await stepRelayerCursorBack(options.db, deposit.sourceChainId, deposit.depositBlock)
  return { isCanonical: false, deposit: next }
}
