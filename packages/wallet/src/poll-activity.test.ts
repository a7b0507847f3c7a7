import { describe, expect, it } from 'vitest'
import { pollActivity } from './poll-activity.ts'
import type { Activity } from './signer-types.ts'

const pending: Activity = {
  id: 'act-1',
  type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
  status: 'ACTIVITY_STATUS_PENDING',
}

function setUp(statuses: string[]) {
  const sleeps: number[] = []
  const fetched: string[] = []
  const queue = [...statuses]
  return {
    sleeps,
    fetched,
    run: () =>
      pollActivity({
        activity: pending,
        sleep: async (ms) => void sleeps.push(ms),
        getActivity: async (id) => {
          fetched.push(id)
          const status = queue.shift() ?? 'ACTIVITY_STATUS_PENDING'
          return { ...pending, status, result: { signature: '0x01' } }
        },
      }),
  }
}

describe('pollActivity', () => {
  it('re-polls every 500 ms until the activity completes, then returns its result', async () => {
    const poll = setUp(['ACTIVITY_STATUS_PENDING', 'ACTIVITY_STATUS_PENDING', 'ACTIVITY_STATUS_COMPLETED'])
    const activity = await poll.run()
    expect(activity.result).toEqual({ signature: '0x01' })
    expect(poll.sleeps).toEqual([500, 500, 500])
    expect(poll.fetched).toEqual(['act-1', 'act-1', 'act-1'])
  })

  it('returns a completed activity without polling', async () => {
    const activity = await pollActivity({
      activity: { ...pending, status: 'ACTIVITY_STATUS_COMPLETED' },
      getActivity: () => Promise.reject(new Error('must not poll')),
    })
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  })

  it.each(['ACTIVITY_STATUS_FAILED', 'ACTIVITY_STATUS_REJECTED', 'ACTIVITY_STATUS_CONSENSUS_NEEDED'])(
    'throws the documented text for %s',
    async (status) => {
      const poll = setUp(['ACTIVITY_STATUS_PENDING', status])
      await expect(poll.run()).rejects.toThrow(
        `Failed to get activity with with id act-1 (status: ${status})`,
      )
      expect(poll.fetched).toHaveLength(2)
    },
  )

  it('gives up after the time limit', async () => {
    let now = 0
    await expect(
      pollActivity({
        activity: pending,
        timeoutMs: 1000,
        now: () => now,
        sleep: async (ms) => {
          now += ms
        },
        getActivity: async () => pending,
      }),
    ).rejects.toThrow('Timed out waiting for activity act-1')
  })
})
