import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { FastifyBaseLogger } from 'fastify'
import type { RelayerChain } from '../../payments/providers/local/relayer/relayer-chain.ts'
import { followSignedX402Settlement, sendQueuedX402Settlement } from './send-x402-settlement.ts'
import { listDueX402Settlements, setX402SettlementState } from './x402-settlements-repository.ts'

/** Rows one round of a lane handles at most. */
const settlementsPerRound = 50

/**
 * The relayer writer's part of x402 (docs/decisions/0031), run at the start of each round of a
 * chain's lane: signs and sends the settlements other instances queued, queues again the claims
 * of a writer that died while signing, and sends again the bytes signed but not known to be sent.
 * One row's failure is logged and does not stop the others. Throws when the database cannot be read.
 */
export async function sendDueX402Settlements(options: {
  db: Database
  chain: RelayerChain
  logger: FastifyBaseLogger
  now: () => number
}): Promise<void> {
  const { db, chain, logger, now } = options
  const chainId = chain.deployment.chainId
  const rows = await listDueX402Settlements(db, chainId, now(), settlementsPerRound)
  for (const row of rows) {
    try {
      if (row.state === 'queued') {
        const hash = await sendQueuedX402Settlement({ db, chain, now }, row)
        if (hash)
          logger.info(
            { chainId, settlementId: row.id, txHash: hash },
            'Relayer sent a queued x402 settlement',
          )
      } else if (row.state === 'signing') {
        // Its claimer died before writing anything down: nothing was sent, so it can be signed anew.
        await setX402SettlementState(db, row.id, 'queued', now(), row.lastError)
      } else {
        await followSignedX402Settlement({ db, chain, now }, row)
      }
    } catch (error) {
      logger.warn({ err: error, chainId, settlementId: row.id }, 'Relayer could not send an x402 settlement')
    }
  }
}
