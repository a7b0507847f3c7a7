import type { RoutingChain, RoutingToken } from '@quicklinks/core/api/routing'
import { AppError } from '@quicklinks/core/app-error'
import { isSameTokenAddress } from '@quicklinks/core/native-token-address'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { Delivery } from '@quicklinks/runtime/delivery/create-delivery'
import { findAccountEmail } from '@quicklinks/signer/api/find-account-email'
import type { FastifyBaseLogger } from 'fastify'
import type { Worker } from '../workers/start-workers.ts'
import {
  claimDigest,
  claimDueDigests,
  findDigestUser,
  listDayPayments,
  listDigestCandidates,
  settleDigest,
  toUtcDay,
} from './payment-digests-repository.ts'
import { type DigestNames, renderPaymentDigest } from './render-payment-digest.ts'

/**
 * A day's digest waits this long after the day ends, so a payment the tracker made final in the
 * day's last instant has committed before the day is read.
 */
export const digestDelayMs = 5 * 60_000
/** Sends tried per digest before it is given up (the SMTP server refused it each time). */
const maxAttempts = 5
const dayMs = 24 * 60 * 60_000

export type CreatePaymentDigestWorkerOptions = {
  db: Database
  delivery: Pick<Delivery, 'sendEmail'>
  logger: FastifyBaseLogger
  publicOrigin: string
  /** The catalogue, for the tokens' symbols and decimals and the chains' names in the mail. */
  catalogue: {
    chains(): Promise<RoutingChain[]>
    tokens(options?: { withoutPrices?: boolean }): Promise<RoutingToken[]>
  }
  /** The user's e-mail by wallet address (default: the signer's record, `findAccountEmail`). */
  findEmail?: (db: Database, address: `0x${string}`) => Promise<string | null>
  /** Epoch ms; tests move it. */
  now?: () => number
}

/**
 * The daily payment digest (docs/api.md#notices). Each round, once the previous UTC day has ended
 * (plus `digestDelayMs`), every user with `payment_digest = 'daily'` and no digest row for that day
 * gets one: the row is claimed by an insert that one instance wins (primary key user and day), then
 * the day's verified payments are read; a day without any is a `skipped` row and no mail. Failed
 * sends are retried with backoff (claimed with `FOR UPDATE SKIP LOCKED`); a crash after the SMTP
 * server's acceptance and before the row's update is the one case that sends a digest again.
 * A day when no instance ran is not caught up later.
 */
export function createPaymentDigestWorker(options: CreatePaymentDigestWorkerOptions): Worker {
  const now = options.now ?? Date.now
  const findEmail = options.findEmail ?? findAccountEmail

  const readNames = async (): Promise<DigestNames> => {
    const [chains, tokens] = await Promise.all([
      options.catalogue.chains().catch(() => []),
      options.catalogue.tokens({ withoutPrices: true }).catch(() => []),
    ])
    return {
      token: (chainId, address) => {
        const found = tokens.find(
          (each) => each.chainId === chainId && isSameTokenAddress(each.address, address),
        )
        return found ? { symbol: found.symbol, decimals: found.decimals } : undefined
      },
      chain: (chainId) => chains.find((chain) => chain.chainId === chainId)?.networkName,
    }
  }

  /** Composes and sends one claimed digest, and records what became of it. */
  const send = async (key: { userId: string; day: string }, attempts: number): Promise<void> => {
    const user = await findDigestUser(options.db, key.userId)
    if (user === undefined || !user.isOptedIn) {
      await settleDigest(options.db, key, { state: 'skipped', error: 'digest turned off' })
      return
    }
    const day = await listDayPayments(options.db, key)
    if (day.count === 0) {
      await settleDigest(options.db, key, { state: 'skipped', error: 'no payments that day' })
      return
    }
    const email = (await findEmail(options.db, user.address as `0x${string}`)) ?? user.email
    if (email === null) {
      await settleDigest(options.db, key, {
        state: 'skipped',
        error: 'no e-mail address',
        payments: day.count,
      })
      return
    }
    const mail = renderPaymentDigest({
      to: email.toLowerCase(),
      day: key.day,
      count: day.count,
      totals: day.totals,
      lines: day.lines,
      names: await readNames(),
      publicOrigin: options.publicOrigin,
    })
    try {
      await options.delivery.sendEmail(mail)
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      if (error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE') {
        // No SMTP server configured: nothing to retry until an operator sets one.
        await settleDigest(options.db, key, { state: 'skipped', error: reason, payments: day.count })
        return
      }
      options.logger.warn({ err: error, userId: key.userId, day: key.day }, 'Payment digest not sent')
      await settleDigest(
        options.db,
        key,
        attempts >= maxAttempts
          ? { state: 'failed', error: reason, payments: day.count }
          : { state: 'pending', error: reason, nextAttemptMs: now() + 60_000 * 2 ** attempts },
      )
      return
    }
    await settleDigest(options.db, key, { state: 'sent', nowMs: now(), payments: day.count })
    options.logger.info({ userId: key.userId, day: key.day, payments: day.count }, 'Payment digest sent')
  }

  return {
    name: 'payment-digest',
    async runOnce() {
      const nowMs = now()
      // The last whole UTC day that ended at least digestDelayMs ago.
      const day = toUtcDay(nowMs - digestDelayMs - dayMs)
      const candidates = await listDigestCandidates(options.db, day)
      for (const userId of candidates) {
        if (await claimDigest(options.db, { userId, day, nowMs })) await send({ userId, day }, 1)
      }
      const due = await claimDueDigests(options.db, now())
      for (const digest of due) await send({ userId: digest.userId, day: digest.day }, digest.attempts)
      return candidates.length === 0 && due.length === 0 ? 'idle' : 'worked'
    },
  }
}
