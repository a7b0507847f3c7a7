import { buildSlug } from '@quicklinks/core/slug'
import type { QueuedEntry } from '../../lib/offline-queue'
import type { Link } from './link'

/** Where a link stands with the offline queue (docs/product.md#offline-queue). */
export type LinkSync = {
  /** What its queued writes will do once replayed. */
  pending: 'create' | 'update' | 'delete'
  /** Why the last replay of one of them failed; null while none has failed. */
  error: string | null
  /** Its queued entries, oldest first (to discard them). */
  keys: string[]
}

/** A link as the dashboard shows it: the server's link with its queued writes applied. */
export type ShownLink = { link: Link; sync: LinkSync | null }

export type QueuedLinkWrites = {
  shown: ShownLink[]
  /** Failed link writes whose link is not on the list (deleted elsewhere, say): shown apart. */
  unmatchedFailures: QueuedEntry[]
}

const linksPath = '/api/links'
const linkPathPattern = /^\/api\/links\/([^/?#]+)$/
const updatableFields = [
  'alias',
  'alias_slug',
  'message',
  'account_type',
  'enabled',
  'favorite',
  'notify_payments',
  'settings',
] as const

const booleanFields: ReadonlySet<string> = new Set(['enabled', 'favorite', 'notify_payments'])

/**
 * Lays the queued link writes over the server's list, oldest first, so a change made offline shows
 * at once and survives a reload until it is replayed: a queued PUT's fields replace the link's (a
 * favorite toggled offline shows toggled), a queued DELETE marks the card as pending deletion, and a
 * queued POST shows a card for the link to be created (first, as the list is newest first) unless
 * the list already holds the link of its idempotency key (it reached the server). Pure: no storage.
 */
export function applyQueuedLinkWrites(
  links: readonly Link[],
  entries: readonly QueuedEntry[],
): QueuedLinkWrites {
  const syncs = new Map<string, LinkSync>()
  const changes = new Map<string, Partial<Link>>()
  const created: ShownLink[] = []
  const unmatched: QueuedEntry[] = []
  const listedIds = new Set(links.map((link) => link.id))

  for (const entry of entries) {
    const { method, path, body, lastError } = entry.request
    const error = lastError ?? null
    if (method === 'POST' && path === linksPath) {
      const link = buildQueuedLink(entry)
      if (link === undefined) continue
      const isListed =
        link.idempotency_key !== null && links.some((item) => item.idempotency_key === link.idempotency_key)
      if (!isListed) created.unshift({ link, sync: { pending: 'create', error, keys: [entry.key] } })
      continue
    }
    const match = linkPathPattern.exec(path)
    if (match === null || match[1] === undefined) continue
    const id = safeDecode(match[1])
    if (!listedIds.has(id)) {
      if (error !== null) unmatched.push(entry)
      continue
    }
    const sync = syncs.get(id) ?? { pending: 'update', error: null, keys: [] }
    sync.keys.push(entry.key)
    if (error !== null) sync.error = error
    if (method === 'DELETE') sync.pending = 'delete'
    else if (method === 'PUT') changes.set(id, { ...changes.get(id), ...readQueuedLinkFields(body) })
    syncs.set(id, sync)
  }

  return {
    shown: [
      ...created,
      ...links.map((link) => ({
        link: { ...link, ...changes.get(link.id) },
        sync: syncs.get(link.id) ?? null,
      })),
    ],
    unmatchedFailures: unmatched,
  }
}

function parseObject(text: string | null): Record<string, unknown> | undefined {
  if (text === null) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** The link fields a queued PUT's body sets (only those PUT /api/links/{id} can change, well typed). */
export function readQueuedLinkFields(text: string | null): Partial<Link> {
  const body = parseObject(text) ?? {}
  const picked: Record<string, unknown> = {}
  for (const field of updatableFields) {
    const value = body[field]
    if (typeof value === (booleanFields.has(field) ? 'boolean' : 'string')) picked[field] = value
  }
  return picked as Partial<Link>
}

/** The card of a link that exists only in the queue; its id is the queue key. */
function buildQueuedLink(entry: QueuedEntry): Link | undefined {
  const body = parseObject(entry.request.body)
  if (body === undefined) return undefined
  const text = (field: string, fallback = ''): string => {
    const value = body[field]
    return typeof value === 'string' ? value : fallback
  }
  const flag = (field: string, fallback: boolean): boolean => {
    const value = body[field]
    return typeof value === 'boolean' ? value : fallback
  }
  const alias = text('alias').trim()
  const idempotencyKey = body.idempotency_key
  return {
    id: entry.key,
    link_type: text('link_type', 'Payment Link'),
    alias,
    alias_slug: text('alias_slug', buildSlug(alias)),
    receiver_address: text('receiver_address'),
    chain: text('chain'),
    chain_id: typeof body.chain_id === 'number' ? body.chain_id : Number(body.chain_id ?? 0),
    token_name: text('token_name'),
    token_address: text('token_address'),
    message: text('message'),
    amount: typeof body.amount === 'string' ? body.amount : null,
    account_type: text('account_type', 'personal'),
    enabled: flag('enabled', true),
    favorite: flag('favorite', false),
    notify_payments: flag('notify_payments', true),
    settings: text('settings', '{}'),
    idempotency_key: typeof idempotencyKey === 'string' ? idempotencyKey : null,
    created_at: entry.request.queuedAt,
    updated_at: entry.request.queuedAt,
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
