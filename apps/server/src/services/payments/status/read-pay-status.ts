import type { PayStatus, PayStatusState, PayStatusToken } from '@quicklinks/core/api/pay-status'
import type { RouteAction } from '@quicklinks/core/api/routing'
import { AppError } from '@quicklinks/core/app-error'
import { readTransactionStatus } from '@quicklinks/core/transaction-status'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { eq } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Hash } from 'viem'
import { links, type RouteIntent, routeIntents } from '../../../db/schema.ts'
import type { EscrowReading, RoutingProvider } from '../route/routing-provider.ts'
import {
  getTransactionUrl,
  type ListTransactionRecordsOptions,
} from '../tracking/list-transaction-records.ts'

export type PayStatusContext = Pick<
  ListTransactionRecordsOptions,
  'explorerBaseUrls' | 'devExplorerOrigin'
> & {
  db: Database
  /** The app's provider: asked about the escrow of its own payments (`readEscrow`). */
  provider: Pick<RoutingProvider, 'name' | 'providerDataSchema' | 'readEscrow'>
  logger: FastifyBaseLogger
}

/**
 * GET /api/pay/status/{intentId} (docs/api.md#pay-status): one payment as its payer's status page
 * shows it. The state comes from the tracker's verified record; for a cross-chain deposit of our
 * own PayRouter that the record does not show delivered, the chains are read at once (the escrow
 * may have been refunded a moment ago, or be refundable now). A chain that cannot be read leaves
 * the record's word and no refund offer: the answer never carries an internal error. Throws
 * AppError NOT_FOUND for an unknown id, or one no receipt was posted for.
 */
export async function readPayStatusOrThrow(context: PayStatusContext, intentId: string): Promise<PayStatus> {
  const [found] = await context.db
    .select({ intent: routeIntents, linkName: links.alias })
    .from(routeIntents)
    .leftJoin(links, eq(links.id, routeIntents.linkId))
    .where(eq(routeIntents.id, intentId.toLowerCase()))
    .limit(1)
  if (found === undefined || found.intent.status === null) {
    throw new AppError('NOT_FOUND', {
      message: `Status of payment ${intentId}, unknown or without a receipt`,
      userMessage: 'No payment is known under this id.',
    })
  }
  const row = found.intent
  const deposit = await readDeposit(context, row)
  const refundTxHash = deposit?.kind === 'refunded' ? deposit.refundTxHash : null
  const actions = row.actions as RouteAction[]
  const url = (chainId: number, hash: string | null) => getTransactionUrl(context, chainId, hash)
  return {
    intentId: row.id as Hash,
    state: getState(row, deposit),
    linkName: found.linkName,
    fromChainId: row.fromChainId,
    toChainId: row.toChainId,
    fromToken: toToken(actions[0]?.fromToken, row.fromChainId, row.fromToken),
    toToken: toToken(actions.at(-1)?.toToken, row.toChainId, row.toToken),
    fromAmount: row.fromAmount,
    toAmountMin: row.toAmountMin,
    // Only a verified delivery names what the receiver got.
    toAmountReceived: readTransactionStatus(row.statusRaw).status === 'success' ? row.toAmountWei : null,
    payer: row.fromAddress,
    sourceTxHash: row.sourceTxHash,
    destTxHash: row.destTxHash,
    refundTxHash,
    sourceTxUrl: url(row.fromChainId, row.sourceTxHash),
    destTxUrl: url(row.toChainId, row.destTxHash),
    refundTxUrl: url(row.fromChainId, refundTxHash),
    estimatedDurationMs: row.estimatedDurationMs,
    createdAt: row.createdAt.toISOString(),
    submittedAt: row.submittedAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
    refund: deposit?.kind === 'open' ? deposit.refund : null,
  }
}

/**
 * The provider's reading of a payment's escrow, for a payment of the app's provider that the record
 * does not show delivered or refunded; null otherwise, or when a chain cannot be read (logged).
 */
async function readDeposit(context: PayStatusContext, row: RouteIntent): Promise<EscrowReading | null> {
  const { provider } = context
  if (provider.readEscrow === undefined || row.provider !== provider.name) return null
  if (row.sourceTxHash === null || row.sourceBlockHash === null) return null
  const reading = readTransactionStatus(row.statusRaw)
  if (reading.status === 'success' || reading.isRefunded || row.isRefunded) return null
  const data = provider.providerDataSchema.safeParse(row.providerData)
  if (!data.success) return null
  try {
    return await provider.readEscrow({
      fromChainId: row.fromChainId,
      sourceTxHash: row.sourceTxHash as Hash,
      providerData: data.data,
    })
  } catch (error) {
    context.logger.warn({ err: error, intentId: row.id }, 'Reading a deposit for its status page failed')
    return null
  }
}

/** The record's state, corrected by what the chains say of its deposit right now. */
function getState(row: RouteIntent, deposit: EscrowReading | null): PayStatusState {
  const reading = readTransactionStatus(row.statusRaw)
  if (reading.isRefunded || row.isRefunded || deposit?.kind === 'refunded') return 'refunded'
  if (reading.status === 'success') return 'delivered'
  if (deposit?.kind === 'open') return deposit.isPastFillDeadline ? 'refundable' : 'bridging'
  // Filled but not verified yet: the tracker's next look delivers it.
  if (deposit?.kind === 'filled') return 'bridging'
  if (reading.status === 'failed') return 'failed'
  return reading.status === 'bridging' ? 'bridging' : 'in_flight'
}

/** A payment's token from its route's action, or its bare address when the route names none. */
function toToken(
  token: RouteAction['fromToken'] | undefined,
  chainId: number,
  address: string,
): PayStatusToken {
  if (token === undefined) return { chainId, address: address.toLowerCase(), symbol: '', decimals: 18 }
  return { chainId, address: token.address.toLowerCase(), symbol: token.symbol, decimals: token.decimals }
}
