import { useSyncExternalStore } from 'react'
import {
  getOfflineQueueOwner,
  listOfflineRequests,
  type QueuedEntry,
  subscribeOfflineQueue,
} from './offline-queue'

let cachedText = '[]'
let cachedEntries: QueuedEntry[] = []

/** The queue as one stable array while its content is the same (useSyncExternalStore needs that). */
function getQueueSnapshot(): QueuedEntry[] {
  const owner = getOfflineQueueOwner()
  // Only the signed-in user's own writes: another user's are never shown, nor sent.
  const entries = listOfflineRequests().filter((entry) => entry.request.owner === owner)
  const text = JSON.stringify(entries)
  if (text !== cachedText) {
    cachedText = text
    cachedEntries = entries
  }
  return cachedEntries
}

const emptyQueue: QueuedEntry[] = []

/**
 * The signed-in user's queued offline writes, oldest first, re-read whenever the queue changes in
 * this tab or another (docs/product.md#offline-queue).
 */
export function useOfflineQueue(): QueuedEntry[] {
  return useSyncExternalStore(subscribeOfflineQueue, getQueueSnapshot, () => emptyQueue)
}
