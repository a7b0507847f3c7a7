import type { Activity } from './signer-types.ts'
import { createWalletError } from './wallet-error.ts'

/** Activities are polled every 500 ms (docs/product.md#constants). */
export const activityPollIntervalMs = 500

const failedStatuses = new Set([
  'ACTIVITY_STATUS_FAILED',
  'ACTIVITY_STATUS_REJECTED',
  'ACTIVITY_STATUS_CONSENSUS_NEEDED',
])

/**
 * Waits for an activity to finish (docs/signer.md#activities): COMPLETED returns it (with its
 * result); FAILED, REJECTED or CONSENSUS_NEEDED throw; any other status is fetched again after
 * `intervalMs` (500 ms).
 *
 * Fails by throwing 'Failed to get activity with with id {id} (status: {status})' (the documented
 * text, doubled word included) for a failed activity, 'Timed out waiting for activity {id}' after
 * `timeoutMs` (default 2 minutes), or whatever `getActivity` rejects with.
 */
export async function pollActivity<TResult>(input: {
  activity: Activity<TResult>
  getActivity: (activityId: string) => Promise<Activity<TResult>>
  intervalMs?: number
  timeoutMs?: number
  sleep?: (ms: number) => Promise<void>
  now?: () => number
}): Promise<Activity<TResult>> {
  const intervalMs = input.intervalMs ?? activityPollIntervalMs
  const sleep = input.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const now = input.now ?? Date.now
  const deadline = now() + (input.timeoutMs ?? 120_000)
  let activity = input.activity
  for (;;) {
    if (activity.status === 'ACTIVITY_STATUS_COMPLETED') return activity
    if (failedStatuses.has(activity.status)) {
      throw createWalletError(
        `Failed to get activity with with id ${activity.id} (status: ${activity.status})`,
        { details: { activityId: activity.id, status: activity.status } },
      )
    }
    if (now() >= deadline) throw createWalletError(`Timed out waiting for activity ${activity.id}`)
    await sleep(intervalMs)
    activity = await input.getActivity(activity.id)
  }
}
