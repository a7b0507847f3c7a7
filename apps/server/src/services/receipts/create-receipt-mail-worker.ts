import type { RoutingChain, RoutingToken } from '@quicklinks/core/api/routing'
import { AppError } from '@quicklinks/core/app-error'
import { isSameTokenAddress } from '@quicklinks/core/native-token-address'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { Delivery } from '@quicklinks/runtime/delivery/create-delivery'
import { findAccountEmail } from '@quicklinks/signer/api/find-account-email'
import { eq } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { type ReceiptEmail, routeIntents } from '../../db/schema.ts'
import type { Worker } from '../workers/start-workers.ts'
import { buildReceiptMessageOrThrow } from './build-signed-receipt.ts'
import {
  claimDueReceiptEmails,
  insertPayeeReceiptEmail,
  listUnqueuedPayments,
  settleReceiptEmail,
} from './receipt-emails-repository.ts'
import { type ReceiptEmailNames, renderReceiptEmail } from './render-receipt-email.ts'

/** Payments final longer ago than this get no payee mail: an upgrade does not mail the whole past. */
export const receiptSweepWindowMs = 24 * 60 * 60_000
/** Sends tried per mail before it is given up (the SMTP server refused it each time). */
const maxAttempts = 5

export type CreateReceiptMailWorkerOptions = {
  db: Database
  delivery: Pick<Delivery, 'sendEmail'>
  logger: FastifyBaseLogger
  publicOrigin: string
  /** The catalogue, for the token's symbol and decimals and the chains' names in the mail. */
  catalogue: {
    chains(): Promise<RoutingChain[]>
    tokens(options?: { withoutPrices?: boolean }): Promise<RoutingToken[]>
  }
  /** The payee's e-mail by wallet address (default: the signer's record, `findAccountEmail`). */
  findEmail?: (db: Database, address: `0x${string}`) => Promise<string | null>
  /** Epoch ms; tests move it. */
  now?: () => number
}

/** The worker's name (its lane is ''). */
export const receiptMailWorkerName = 'receipt-mail'

/**
 * The receipt mailer (docs/api.md#receipt-emails): each round, the sweep writes a payee row for
 * every payment that became a final success in the last 24 hours and has none (the link owner's
 * e-mail, or a skipped row when the owner has none or the link's `notify_payments` is off, so
 * the payee mail is decided once per payment), then the due rows are claimed (leased, `FOR
 * UPDATE SKIP LOCKED`) and sent. Rows and their unique keys live in the database, so a restart
 * loses no mail and two instances send none twice; a crash between the SMTP server's acceptance
 * and the row's update is the one case that sends a mail again (at least once, never lost).
 */
export function createReceiptMailWorker(options: CreateReceiptMailWorkerOptions): Worker {
  const now = options.now ?? Date.now
  const findEmail = options.findEmail ?? findAccountEmail

  /** Queues the payee rows of payments that have none; resolves how many payments it looked at. */
  const sweep = async (): Promise<number> => {
    const payments = await listUnqueuedPayments(options.db, new Date(now() - receiptSweepWindowMs))
    for (const payment of payments) {
      if (!payment.notifyPayments) {
        // The payee switched this link's notices off (docs/api.md#notices); the payer's copy is apart.
        await insertPayeeReceiptEmail(options.db, {
          intentId: payment.intentId,
          email: null,
          skipReason: 'payment notices off for the link',
        })
        continue
      }
      const email =
        payment.ownerAddress === null
          ? null
          : ((await findEmail(options.db, payment.ownerAddress as `0x${string}`)) ?? payment.ownerEmail)
      await insertPayeeReceiptEmail(options.db, {
        intentId: payment.intentId,
        email: email === null ? null : email.toLowerCase(),
      })
    }
    return payments.length
  }

  const readNames = async (
    chainId: number,
    token: string,
    sourceChainId: number,
  ): Promise<ReceiptEmailNames> => {
    const [chains, tokens] = await Promise.all([
      options.catalogue.chains().catch(() => []),
      options.catalogue.tokens({ withoutPrices: true }).catch(() => []),
    ])
    const found = tokens.find((each) => each.chainId === chainId && isSameTokenAddress(each.address, token))
    return {
      token: found ? { symbol: found.symbol, decimals: found.decimals } : undefined,
      destinationChainName: chains.find((chain) => chain.chainId === chainId)?.networkName,
      sourceChainName: chains.find((chain) => chain.chainId === sourceChainId)?.networkName,
    }
  }

  const send = async (row: ReceiptEmail): Promise<void> => {
    const [intent] = await options.db.select().from(routeIntents).where(eq(routeIntents.id, row.intentId))
    if (!intent || row.email === null) {
      await settleReceiptEmail(options.db, row.id, { state: 'skipped', error: 'nothing to send' })
      return
    }
    const message = buildReceiptMessageOrThrow(intent)
    const mail = renderReceiptEmail({
      to: row.email,
      role: row.role === 'payer' ? 'payer' : 'payee',
      intentId: intent.id,
      message,
      names: await readNames(intent.toChainId, intent.toToken, intent.fromChainId),
      publicOrigin: options.publicOrigin,
    })
    try {
      await options.delivery.sendEmail(mail)
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      if (error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE') {
        // No SMTP server configured: nothing to retry until an operator sets one.
        await settleReceiptEmail(options.db, row.id, { state: 'skipped', error: reason })
        return
      }
      options.logger.warn({ err: error, intentId: row.intentId, role: row.role }, 'Receipt mail not sent')
      await settleReceiptEmail(
        options.db,
        row.id,
        row.attempts >= maxAttempts
          ? { state: 'failed', error: reason }
          : { state: 'pending', error: reason, nextAttemptMs: now() + 30_000 * 2 ** row.attempts },
      )
      return
    }
    await settleReceiptEmail(options.db, row.id, { state: 'sent', nowMs: now() })
    options.logger.info({ intentId: row.intentId, role: row.role }, 'Receipt mail sent')
  }

  return {
    name: receiptMailWorkerName,
    async runOnce() {
      const swept = await sweep()
      const due = await claimDueReceiptEmails(options.db, now())
      for (const row of due) await send(row)
      return swept === 0 && due.length === 0 ? 'idle' : 'worked'
    },
  }
}
