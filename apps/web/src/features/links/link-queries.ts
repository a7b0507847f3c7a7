import { AppError } from '@quicklinks/core/app-error'
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { type ApiClient, api } from '../../lib/api-client'
import { toast } from '../../ui/use-toast'
import { type CreateLinkInput, type Link, toUpdateLinkInput, type UpdateLinkInput } from './link'
import { useLinkStore } from './link-store'
import { createLink, deleteLink, getLink, isQueuedLinkWrite, listLinks, updateLink } from './links-api'

/** Query keys for links, from one factory. */
export const linkKeys = {
  all: ['links'] as const,
  list: () => ['links', 'list'] as const,
  detail: (id: string) => ['links', 'detail', id] as const,
}

export function linksQueryOptions(client: ApiClient = api) {
  return queryOptions({
    queryKey: linkKeys.list(),
    queryFn: ({ signal }) => listLinks(client, signal),
  })
}

export function linkQueryOptions(id: string, client: ApiClient = api) {
  return queryOptions({ queryKey: linkKeys.detail(id), queryFn: () => getLink(id, client) })
}

function messageOf(error: unknown, fallback: string): string {
  return error instanceof AppError ? error.userMessage : fallback
}

/**
 * The owner's links. Each answer is written to the persisted link store ('link-storage',
 * docs/product.md#dashboard), and a failed fetch stores its message as the store error.
 */
export function useLinks(ownerId: string | null) {
  const query = useQuery(linksQueryOptions())
  const setLinks = useLinkStore((state) => state.setLinks)
  const setError = useLinkStore((state) => state.setError)
  useEffect(() => {
    if (query.data !== undefined) setLinks(query.data, ownerId)
  }, [query.data, ownerId, setLinks])
  const fetchError = useRef<string | null>(null)
  useEffect(() => {
    if (query.error !== null) {
      fetchError.current = messageOf(query.error, 'Failed to fetch links')
      setError(fetchError.current)
    } else if (query.data !== undefined && fetchError.current !== null) {
      // The list loads again: its old failure goes, a toggle's failure stays.
      if (useLinkStore.getState().error === fetchError.current) setError(null)
      fetchError.current = null
    }
  }, [query.error, query.data, setError])
  return query
}

/*
 * The link writes run whatever the browser's network state ('always'): offline, the API client
 * queues them and they resolve with `{offline: true}` (docs/product.md#offline-queue), where React
 * Query's default would hold them in memory until the browser is back online and lose them on a
 * reload. A queued write changes nothing here: the dashboard lays the queue over the list.
 */

/** POST /api/links, then the list is fetched again (unless the create was queued offline). */
export function useCreateLink() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: CreateLinkInput) => createLink(input),
    networkMode: 'always',
    onSuccess: (result) =>
      isQueuedLinkWrite(result) ? undefined : queryClient.invalidateQueries({ queryKey: linkKeys.all }),
  })
}

/** PUT /api/links/{id}, then the list is fetched again (unless the update was queued offline). */
export function useUpdateLink() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: UpdateLinkInput) => updateLink(input),
    networkMode: 'always',
    onSuccess: (result) =>
      isQueuedLinkWrite(result) ? undefined : queryClient.invalidateQueries({ queryKey: linkKeys.all }),
  })
}

/**
 * DELETE /api/links/{id}: the local list drops the link, then the list is fetched again. A delete
 * queued offline keeps the link, shown as pending deletion until it is replayed.
 */
export function useDeleteLink() {
  const queryClient = useQueryClient()
  const removeLink = useLinkStore((state) => state.removeLink)
  return useMutation({
    mutationFn: (id: string) => deleteLink(id),
    networkMode: 'always',
    onSuccess: (result) => {
      if (isQueuedLinkWrite(result)) return
      const { id } = result
      removeLink(id)
      queryClient.setQueryData<Link[]>(linkKeys.list(), (links) => links?.filter((link) => link.id !== id))
      return queryClient.invalidateQueries({ queryKey: linkKeys.all })
    },
  })
}

export type LinkToggle = 'enabled' | 'favorite'

/**
 * The card's switch and star (docs/product.md#link-card): the change shows at once; on an error it is
 * reverted and the store error says 'Failed to update link' or 'Failed to update favorite'; then the
 * list is fetched again and 'Link Updated' says what happened. Offline the change is queued: it
 * stays shown, the card says it is pending, and neither the toast nor a refetch happen until it is
 * replayed.
 */
export function useToggleLink() {
  const queryClient = useQueryClient()
  const replaceLink = useLinkStore((state) => state.replaceLink)
  const setError = useLinkStore((state) => state.setError)
  return useMutation({
    mutationFn: ({ link, field, value }: { link: Link; field: LinkToggle; value: boolean }) =>
      updateLink({ ...toUpdateLinkInput(link), [field]: value }),
    networkMode: 'always',
    onMutate: async ({ link, field, value }) => {
      await queryClient.cancelQueries({ queryKey: linkKeys.list() })
      const optimistic = { ...link, [field]: value }
      replaceLink(optimistic)
      queryClient.setQueryData<Link[]>(linkKeys.list(), (links) =>
        links?.map((item) => (item.id === link.id ? optimistic : item)),
      )
      setError(null)
    },
    onError: (_error, { link, field }) => {
      replaceLink(link)
      queryClient.setQueryData<Link[]>(linkKeys.list(), (links) =>
        links?.map((item) => (item.id === link.id ? link : item)),
      )
      setError(field === 'enabled' ? 'Failed to update link' : 'Failed to update favorite')
    },
    onSuccess: (result, { field, value }) => {
      if (isQueuedLinkWrite(result)) return
      toast({ title: 'Link Updated', description: describeToggle(field, value) })
    },
    onSettled: (result) =>
      isQueuedLinkWrite(result) ? undefined : queryClient.invalidateQueries({ queryKey: linkKeys.list() }),
  })
}

/** The 'Link Updated' description for a toggle. */
export function describeToggle(field: LinkToggle, value: boolean): string {
  if (field === 'enabled') return value ? 'The link has been enabled.' : 'The link has been disabled.'
  return value ? 'The link has been added to favorites.' : 'The link has been removed from favorites.'
}
