import type { NormalizedTransactionStatus } from '@quicklinks/core/transaction-status'
import type { RouteStep } from './transaction-record'

/** Step duration estimates, in seconds (docs/product.md#payment-progress). */
export const stepDurationSeconds = { swap: 15, bridge: 180, transfer: 45, other: 30 } as const
/** The estimate when the route has no steps yet. */
export const noStepsDurationSeconds = 90
/** Progress bounds (docs/product.md#payment-progress). */
export const progressBounds = { min: 6, max: 100, initial: 6, submitted: 20, bridging: 60 } as const

function clamp(value: number): number {
  return Math.min(progressBounds.max, Math.max(progressBounds.min, value))
}

/**
 * Step-based progress: 10 with no steps; else (completed steps, plus 0.35 for one pending
 * step) over the count, clamped to 6–100. A failure counts only the completed steps.
 */
export function getStepProgress(steps: readonly Pick<RouteStep, 'status'>[], isFailure = false): number {
  if (steps.length === 0) return 10
  const completed = steps.filter((step) => step.status === 'ok').length
  const hasPending = steps.some((step) => step.status === 'pending')
  const share = isFailure ? completed : completed + (hasPending ? 0.35 : 0)
  return clamp((share / steps.length) * 100)
}

/**
 * The progress percent (docs/product.md#payment-progress): 6 before any record; at least 20 submitted and 60
 * bridging; 100 on success; on failure the step-based value. Rounded to a whole percent.
 */
export function getProgressPercent(
  status: NormalizedTransactionStatus | null,
  steps: readonly Pick<RouteStep, 'status'>[],
): number {
  switch (status) {
    case null:
      return progressBounds.initial
    case 'success':
      return progressBounds.max
    case 'failed':
      return Math.round(getStepProgress(steps, true))
    case 'submitted':
      return Math.round(Math.max(progressBounds.submitted, getStepProgress(steps)))
    case 'bridging':
      return Math.round(Math.max(progressBounds.bridging, getStepProgress(steps)))
    default: {
      const unknownStatus: never = status
      return unknownStatus
    }
  }
}

/** The estimated seconds of a route: the sum of its steps, or 90 without steps. */
export function getEstimatedSeconds(steps: readonly Pick<RouteStep, 'kind'>[]): number {
  if (steps.length === 0) return noStepsDurationSeconds
  return steps.reduce((sum, step) => sum + stepDurationSeconds[step.kind], 0)
}

/** Remaining time is the estimate minus the time since creation, floored at 0. */
export function getRemainingSeconds(
  steps: readonly Pick<RouteStep, 'kind'>[],
  createdAtMs: number,
  nowMs: number,
): number {
  const elapsed = Math.max(0, Math.floor((nowMs - createdAtMs) / 1000))
  return Math.max(0, getEstimatedSeconds(steps) - elapsed)
}

/** '1:00', '0:09' style minutes and seconds for the confirm countdown; mm:ss with `padMinutes`. */
export function formatCountdown(totalSeconds: number, padMinutes = false): string {
  const seconds = Math.max(0, Math.floor(totalSeconds))
  const minutes = Math.floor(seconds / 60)
  const rest = String(seconds % 60).padStart(2, '0')
  return `${padMinutes ? String(minutes).padStart(2, '0') : minutes}:${rest}`
}
