/**
 * The statuses of a recorded activity (docs/signer.md#activities): the signer writes them, the SDK
 * polls until one is final.
 */
export const activityStatuses = [
  'ACTIVITY_STATUS_PENDING',
  'ACTIVITY_STATUS_COMPLETED',
  'ACTIVITY_STATUS_FAILED',
  'ACTIVITY_STATUS_REJECTED',
  'ACTIVITY_STATUS_CONSENSUS_NEEDED',
] as const

export type ActivityStatus = (typeof activityStatuses)[number]
