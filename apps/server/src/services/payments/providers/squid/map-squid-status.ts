import type { RouteStatus, RouteStatusQuery, RouteStepStatus } from '../../route/routing-provider.ts'
import type { SquidStatusResponse } from './squid-schemas.ts'

const hashPattern = /^0x[0-9a-fA-F]{64}$/

/**
 * A same-chain route is delivered by its own transaction: there is nothing to ask Squid, and the
 * verifier reads the receiver's credit from the source transaction.
 */
export function deliveredBySource(query: Pick<RouteStatusQuery, 'sourceTxHash'>): RouteStatus {
  return {
    statusRaw: 'success',
    destTxHash: query.sourceTxHash,
    toAmountWei: null,
    steps: [],
    gasStatus: null,
    isGmpTransaction: false,
    axelarTransactionUrl: null,
    errorMessage: null,
  }
}

/** Squid does not know the transaction (yet). */
export function notFoundStatus(fromChainId: number, sourceTxHash: string): RouteStatus {
  return {
    statusRaw: 'not_found',
    destTxHash: null,
    toAmountWei: null,
    steps: [{ type: 'bridge', chainId: fromChainId, txHash: sourceTxHash, status: 'pending' }],
    gasStatus: null,
    isGmpTransaction: false,
    axelarTransactionUrl: null,
    errorMessage: null,
  }
}

/** Squid's words for one chain's routeStatus entries, reduced to success / failed / pending. */
function reduceStepStatus(statuses: string[]): string {
  if (statuses.some((status) => /fail|error/i.test(status))) return 'failed'
  if (statuses.length > 0 && statuses.every((status) => /success/i.test(status))) return 'success'
  return 'pending'
}

/** Squid's status answer as ours; a success names its destination transaction. */
export function toRouteStatus(
  body: SquidStatusResponse,
  fromChainId: number,
  toChainId: number,
  sourceTxHash: string,
): RouteStatus {
  const raw = (body.squidTransactionStatus ?? body.status ?? 'not_found').toLowerCase()
  const statusRaw = raw === 'refund' ? 'refunded' : raw
  if (statusRaw === 'not_found') return notFoundStatus(fromChainId, sourceTxHash)

  const destinationHash = body.toChain?.transactionId ?? null
  const destTxHash =
    destinationHash && hashPattern.test(destinationHash) ? (destinationHash as `0x${string}`) : null
  const isCrossChain = fromChainId !== toChainId
  const entries = body.routeStatus ?? []
  const wordsOn = (chainId: number) =>
    entries.filter((entry) => Number(entry.chainId) === chainId).map((entry) => entry.status ?? '')

  // Without routeStatus entries, the overall word says how far each side got.
  const overall: Record<string, [string, string]> = {
    success: ['success', 'success'],
    partial_success: ['success', 'failed'],
    failed_on_destination: ['success', 'failed'],
    refunded: ['success', 'failed'],
    needs_gas: ['success', 'pending'],
    ongoing: ['success', 'pending'],
  }
  const [sourceFallback, destinationFallback] = overall[statusRaw] ?? ['pending', 'pending']
  const sourceWords = wordsOn(fromChainId)
  const destinationWords = isCrossChain ? wordsOn(toChainId) : []
  const sourceStep: RouteStepStatus = {
    type: isCrossChain ? 'bridge' : 'swap',
    chainId: fromChainId,
    txHash: body.fromChain?.transactionId ?? sourceTxHash,
    status: sourceWords.length > 0 ? reduceStepStatus(sourceWords) : sourceFallback,
  }
  const steps: RouteStepStatus[] = [sourceStep]
  steps.push({
    type: 'transfer',
    chainId: toChainId,
    txHash: isCrossChain ? destTxHash : sourceStep.txHash,
    status: isCrossChain
      ? destinationWords.length > 0
        ? reduceStepStatus(destinationWords)
        : destinationFallback
      : sourceStep.status,
  })

  const isFailure = /fail|refund|partial/.test(statusRaw)
  return {
    statusRaw,
    destTxHash,
    toAmountWei: body.toAmount && /^\d+$/.test(body.toAmount) ? BigInt(body.toAmount) : null,
    steps,
    gasStatus: body.gasStatus ?? null,
    isGmpTransaction: body.isGMPTransaction ?? false,
    axelarTransactionUrl: body.axelarTransactionUrl ?? null,
    errorMessage: isFailure ? (readErrorMessage(body.error) ?? statusRaw.replace(/_/g, ' ')) : null,
  }
}

function readErrorMessage(error: unknown): string | null {
  if (typeof error === 'string' && error) return error
  if (Array.isArray(error)) return readErrorMessage(error[0])
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
    return error.message
  }
  return null
}
