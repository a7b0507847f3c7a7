import { setTimeout as sleep } from 'node:timers/promises'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { Hash } from 'viem'
import type { RelayerHub } from '../../payments/providers/local/relayer/relayer-hub.ts'
import { sendQueuedX402Settlement } from './send-x402-settlement.ts'
import {
  type QueuedX402Settlement,
  queueX402Settlement,
  readX402Settlement,
  withdrawQueuedX402Settlement,
} from './x402-settlements-repository.ts'

/** Sends one settlement's call through the relayer; answers its transaction hash. */
export type X402Settler = { submit(settlement: QueuedX402Settlement): Promise<Hash> }

export type CreateX402SettlerOptions = {
  db: Database
  hub: RelayerHub
  /** Epoch ms; tests move it. */
  now?: () => number
  /** How long a request waits for the writer instance to send what it queued (default 20 s). */
  queueWaitMs?: number
  /** Between two looks at a queued row (default 100 ms). */
  pollMs?: number
}

/**
 * `@x402/evm` maps a write error whose message says so to `invalid_exact_evm_nonce_already_used`
 * (parseEip3009TransferError), the answer for a second settlement of one authorization.
 */
export const x402DuplicateMessage = 'authorization already used: a settlement of it is in flight or sent'

/**
 * The facilitator's way onto the chain (docs/decisions/0031). `submit` writes the settlement down,
 * unique on its authorization (a concurrent duplicate is refused with an error `@x402/evm` reports
 * as `invalid_exact_evm_nonce_already_used`); on the instance holding the relayer key's writer
 * lock it signs (the hub's nonce manager, the one the relayer's lanes use), writes hash and bytes
 * down and broadcasts at once; elsewhere the row waits for the writer's relayer lane, and submit
 * waits on the row (bounded: a row still unclaimed then is withdrawn and submit throws). Throws the
 * signing or broadcast error as well.
 */
export function createX402Settler(options: CreateX402SettlerOptions): X402Settler {
  const { db, hub } = options
  const now = options.now ?? Date.now
  const queueWaitMs = options.queueWaitMs ?? 20_000
  const pollMs = options.pollMs ?? 100

  /** Looks at the row until it has a hash or failed, until `deadline`; undefined when time ran out. */
  const awaitHash = async (id: string, deadline: number): Promise<Hash | undefined> => {
    while (Date.now() < deadline) {
      const row = await readX402Settlement(db, id)
      if (!row) throw new Error('The queued x402 settlement was withdrawn')
      if (row.state === 'failed')
        throw new Error(row.lastError ?? 'The relayer could not send the settlement')
      if (row.txHash && (row.state === 'signed' || row.state === 'sent')) return row.txHash as Hash
      await sleep(pollMs)
    }
    return undefined
  }

  return {
    async submit(settlement) {
      const row = await queueX402Settlement(db, settlement)
      if (!row) throw new Error(x402DuplicateMessage)
      if (await hub.isWriter()) {
        const chain = (await hub.chains())?.get(settlement.chainId)
        if (!chain) throw new Error(`The relayer does not serve chain ${settlement.chainId}`)
        const hash = await sendQueuedX402Settlement({ db, chain, now }, row)
        if (hash) return hash
        // The lane claimed it first: it is being signed now.
      }
      const hash = await awaitHash(row.id, Date.now() + queueWaitMs)
      if (hash) return hash
      if (await withdrawQueuedX402Settlement(db, row.id)) {
        throw new Error('No relayer writer sent the x402 settlement in time; nothing was sent')
      }
      // Claimed just now: signing and sending take moments, not a whole wait.
      const late = await awaitHash(row.id, Date.now() + queueWaitMs)
      if (late) return late
      throw new Error('The relayer writer claimed the x402 settlement but has not sent it')
    },
  }
}
