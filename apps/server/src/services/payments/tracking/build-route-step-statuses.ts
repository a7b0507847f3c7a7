import type { RouteAction, RouteStepStatus } from '../route/routing-provider.ts'

/** Where a payment stands, as far as its steps go. */
export type RoutePhase = 'submitted' | 'source_failed' | 'source_done' | 'success' | 'refunded' | 'failed'

/**
 * A record's route_status (docs/api.md#transaction-record): one entry per route action, in the
 * same order, with the chain and hash of the transaction that does it and a raw status the web
 * reads with `readStepStatus`. Steps on the source chain follow the source transaction; the bridge
 * and destination steps follow the fill. When the provider reported exactly one status per action
 * (Squid), those win.
 */
export function buildRouteStepStatuses(
  actions: readonly RouteAction[],
  input: {
    phase: RoutePhase
    fromChainId: number
    sourceTxHash: string | null
    destTxHash: string | null
    providerSteps?: readonly RouteStepStatus[]
  },
): RouteStepStatus[] {
  if (input.providerSteps && input.providerSteps.length === actions.length && actions.length > 0) {
    return [...input.providerSteps]
  }
  return actions.map((action): RouteStepStatus => {
    const isSourceStep =
      action.type !== 'bridge' &&
      action.fromChainId === input.fromChainId &&
      action.toChainId === input.fromChainId
    const isSameChain = actions.every(
      (each) => each.fromChainId === each.toChainId && each.fromChainId === input.fromChainId,
    )
    if (isSourceStep && (isSameChain || action.type === 'swap')) {
      return {
        type: action.type,
        chainId: input.fromChainId,
        txHash: input.sourceTxHash,
        status: sourceStatus(input.phase),
      }
    }
    return {
      type: action.type,
      chainId: action.type === 'bridge' ? action.fromChainId : action.toChainId,
      txHash: action.type === 'bridge' ? (input.destTxHash ?? input.sourceTxHash) : input.destTxHash,
      status: destinationStatus(input.phase),
    }
  })
}

function sourceStatus(phase: RoutePhase): string {
  if (phase === 'submitted') return 'pending'
  if (phase === 'source_failed') return 'failed'
  return 'success'
}

function destinationStatus(phase: RoutePhase): string {
  if (phase === 'success') return 'success'
  if (phase === 'source_failed' || phase === 'failed' || phase === 'refunded') return 'failed'
  return 'pending'
}
