import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef } from 'react'
import { api } from '../../lib/api-client'
import { type QueuedEntry, removeOfflineRequest } from '../../lib/offline-queue'
import { useOfflineQueue } from '../../lib/use-offline-queue'
import {
  applyQueuedLinkWrites,
  type QueuedLinkWrites,
  readQueuedLinkFields,
} from './apply-queued-link-writes'
import type { Link } from './link'
import { linkKeys } from './link-queries'
import { useLinkStore } from './link-store'

const linkPathPattern = /^\/api\/links\/([^/?#]+)$/

export type UseQueuedLinkWrites = QueuedLinkWrites & {
  /** Replays the whole queue now (a card's 'Sync now'). */
  retry: () => void
  /** Drops the given queued writes unsent (a card's 'Discard'); the list is fetched again. */
  discard: (keys: readonly string[]) => void
}

/**
 * The dashboard's view of the offline queue (docs/product.md#offline-queue): the links with their
 * queued writes laid over them (`applyQueuedLinkWrites`). When an entry leaves the queue because it
 * was replayed, what it did is applied to the cached list at once (a replayed delete drops the card,
 * so it never flashes back before the refetch, a replayed update keeps its fields) and the list is
 * fetched again.
 */
export function useQueuedLinkWrites(links: readonly Link[]): UseQueuedLinkWrites {
  const entries = useOfflineQueue()
  const queryClient = useQueryClient()
  const removeLink = useLinkStore((state) => state.removeLink)
  const previous = useRef<readonly QueuedEntry[]>(entries)
  const discarded = useRef(new Set<string>())

  useEffect(() => {
    const keys = new Set(entries.map((entry) => entry.key))
    const gone = previous.current.filter((entry) => !keys.has(entry.key))
    previous.current = entries
    if (gone.length === 0) return
    for (const entry of gone) {
      if (discarded.current.delete(entry.key)) continue
      const match = linkPathPattern.exec(entry.request.path)
      if (match?.[1] === undefined) continue
      const id = decodeURIComponent(match[1])
      if (entry.request.method === 'DELETE') {
        removeLink(id)
        queryClient.setQueryData<Link[]>(linkKeys.list(), (list) => list?.filter((link) => link.id !== id))
      } else if (entry.request.method === 'PUT') {
        const fields = readQueuedLinkFields(entry.request.body)
        queryClient.setQueryData<Link[]>(linkKeys.list(), (list) =>
          list?.map((link) => (link.id === id ? { ...link, ...fields } : link)),
        )
      }
    }
    void queryClient.invalidateQueries({ queryKey: linkKeys.all })
  }, [entries, queryClient, removeLink])

  const retry = useCallback(() => {
    void api.replayOfflineQueue()
  }, [])
  const discard = useCallback((keys: readonly string[]) => {
    for (const key of keys) {
      discarded.current.add(key)
      removeOfflineRequest(key)
    }
  }, [])

  const applied = useMemo(() => applyQueuedLinkWrites(links, entries), [links, entries])
  return { ...applied, retry, discard }
}
