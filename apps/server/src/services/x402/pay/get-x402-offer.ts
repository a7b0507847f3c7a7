import { AppError } from '@quicklinks/core/app-error'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { FastifyBaseLogger } from 'fastify'
import type { X402Offer } from '../../../db/schema.ts'
import { createDeposit } from '../../payments/deposits/create-deposit.ts'
import type { DepositSetup } from '../../payments/deposits/get-deposit-setup.ts'
import type { RoutingProvider } from '../../payments/route/routing-provider.ts'
import type { ReceiptSigner } from '../../receipts/load-receipt-signer.ts'
import { formatTokenAmount } from '../../tokens/parse-token-amount.ts'
import type { X402Setup } from '../read-x402-setup.ts'
import { buildX402Requirements, x402MaxTimeoutSeconds } from './build-x402-requirements.ts'
import type { X402Resource } from './read-x402-resource.ts'
import { buildX402Extensions, createX402OfferIssuer } from './x402-offer-receipts.ts'
import { findReusableX402Deposit, findReusableX402Offer, insertX402Offer } from './x402-offers-repository.ts'

/** How long a 402's offer (and its cross-chain quotes) is honoured. */
export const x402OfferLifetimeSeconds = 300

export type GetX402OfferContext = {
  db: Database
  provider: RoutingProvider
  x402: X402Setup
  /** Undefined where deposits cannot run: then only the link's own chain is offered. */
  deposits: DepositSetup | undefined
  receiptSigner: ReceiptSigner | null
  logger: FastifyBaseLogger
  nowMs: number
}

/**
 * The offer a 402 answers with (docs/decisions/0031): a stored one of this resource and amount
 * while it outlives an authorization's time-out, so polling agents make no rows; else new
 * requirements (cross-chain ones paying into this resource's live deposit address, or a new one),
 * signed and stored. Throws AppError 422 when no chain can pay the link over x402, and
 * createDeposit's errors.
 */
export async function getX402Offer(
  context: GetX402OfferContext,
  resource: X402Resource,
  resourceUrl: string,
): Promise<X402Offer> {
  const { db, nowMs } = context
  const key = { linkId: resource.link.id, invoiceId: resource.invoiceId, amountUnits: resource.amountUnits }
  const reusable = await findReusableX402Offer(db, key, new Date(nowMs + x402MaxTimeoutSeconds * 1000))
  if (reusable) return reusable

  const expiresAt = new Date(nowMs + x402OfferLifetimeSeconds * 1000)
  // A transfer signed at the offer's last moment may land a time-out later: the deposit must take it.
  const depositNeededUntil = new Date(expiresAt.getTime() + x402MaxTimeoutSeconds * 1000)
  let depositId: string | null = null
  let depositAddress: `0x${string}` | undefined
  const getDepositAddress = async (): Promise<`0x${string}`> => {
    if (depositAddress) return depositAddress
    const setup = context.deposits
    if (!setup) throw new Error('a deposit address asked for without a deposit setup')
    const live = await findReusableX402Deposit(db, key, depositNeededUntil)
    const deposit =
      live ??
      (await createDeposit({ db, provider: context.provider, setup, nowMs }, resource.link, {
        ...(resource.invoiceId === null ? {} : { invoiceId: resource.invoiceId }),
        amount: formatTokenAmount(resource.amountUnits, resource.linkToken.decimals),
      }))
    depositId = deposit.id
    depositAddress = deposit.address as `0x${string}`
    return depositAddress
  }
  const built = await buildX402Requirements({
    resource,
    chains: context.x402.chains,
    depositSetup: context.deposits,
    depositAddress: getDepositAddress,
    provider: context.provider,
    logger: context.logger,
  })
  if (built.length === 0) {
    throw new AppError('VALIDATION_FAILED', {
      field: 'slug',
      message: `No x402 requirement for link ${resource.link.id} on chain ${resource.link.chainId}`,
      userMessage: `This link cannot be paid over x402 here: no chain has a token with transferWithAuthorization that reaches ${resource.linkToken.symbol}. Pay it on its page instead.`,
    })
  }
  const requirements = built.map((entry) => entry.requirement)
  const extensions = await buildX402Extensions({
    issuer: context.receiptSigner === null ? null : createX402OfferIssuer(context.receiptSigner),
    resourceUrl,
    requirements,
    validForSeconds: x402OfferLifetimeSeconds,
  })
  return insertX402Offer(db, {
    linkId: resource.link.id,
    invoiceId: resource.invoiceId,
    amountUnits: resource.amountUnits.toString(),
    requirements,
    extensions,
    depositId,
    expiresAt,
    createdAt: new Date(nowMs),
  })
}
