import { parseErrorBody } from '@quicklinks/core/app-error'

/**
 * The offline write queue (docs/product.md#offline-queue). A write made while the browser is offline is kept
 * in localStorage under 'offline-' + a timestamp, answered with a synthetic 202 `{offline: true}`, and
 * replayed in order when the browser is back online. A replayed entry is removed; a failed replay is
 * logged, keeps its reason on the entry (`lastError`, shown to the user) and stays queued for the
 * next 'online' event, page load or retry. Only calls that opt in are queued (the link writes).
 *
 * Each entry belongs to the user who made it (`owner`, the session's user id): the session's own
 * cookie is what a replay sends, so an entry sent while another user is signed in would act in that
 * user's account. Entries of anyone but the signed-in user are dropped when a user signs in or a
 * replay finds another user signed in, and every entry at logout; none is ever sent for another.
 */

export const offlineKeyPrefix = 'offline-'

/** What is needed to send a queued write again. The CSRF token is not stored: it is read at replay. */
export type QueuedRequest = {
  /** The id of the signed-in user who made the write; only that user's session ever sends it. */
  owner: string
  method: string
  path: string
  headers: Record<string, string>
  body: string | null
  queuedAt: string
  /** Why the last replay failed (the server's message, else 'Failed ({status})'); absent until one fails. */
  lastError?: string
}

export type QueuedEntry = { key: string; request: QueuedRequest }

export type ReplayResult = { replayed: string[]; failed: string[] }

export type OfflineLogger = Pick<Console, 'warn' | 'error'>

/** The body of the synthetic answer a queued write gets. */
export type OfflineAnswer = { offline: true }

const keyPattern = /^offline-(\d+)$/

let lastTimestamp = 0

/** The user whose writes are queued now, or null while nobody is known to be signed in. */
let queueOwner: string | null = null

const listeners = new Set<() => void>()

/** Tells every subscriber that the queue changed in this tab. */
function notifyOfflineQueue(): void {
  for (const listener of listeners) listener()
}

/**
 * Calls `listener` whenever the queue changes: in this tab (enqueue, replay, discard) and in another
 * tab (the 'storage' event of an 'offline-' key). Returns the unsubscribe.
 */
export function subscribeOfflineQueue(
  listener: () => void,
  target: Window | undefined = globalThis.window,
): () => void {
  listeners.add(listener)
  const onStorage = (event: StorageEvent): void => {
    if (event.key === null || event.key.startsWith(offlineKeyPrefix)) listener()
  }
  target?.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(listener)
    target?.removeEventListener('storage', onStorage)
  }
}

/** The signed-in user whose writes are queued and replayed now (their id), or null while none is known. */
export function getOfflineQueueOwner(): string | null {
  return queueOwner
}

/**
 * Says who is signed in now: a user id when their session answered or they just signed in, null
 * when the server says nobody is (an expired session). A user drops every queued write of another
 * user, unsent: the signed-in user changed. Null keeps the entries (their owner may sign in again)
 * but nothing is queued or replayed until a user is known.
 */
export function setOfflineQueueOwner(owner: string | null, storage: Storage = localStorage): void {
  const isChanged = queueOwner !== owner
  queueOwner = owner
  const foreign =
    owner === null ? [] : listOfflineRequests(storage).filter((entry) => entry.request.owner !== owner)
  for (const { key } of foreign) storage.removeItem(key)
  // Subscribers re-read: what the signed-in user sees of the queue depends on who that is.
  if (isChanged || foreign.length > 0) notifyOfflineQueue()
}

/** Logout: every queued write is dropped unsent, and nobody owns the queue. */
export function clearOfflineQueue(storage: Storage = localStorage): void {
  queueOwner = null
  for (const { key } of listOfflineRequests(storage)) storage.removeItem(key)
  notifyOfflineQueue()
}

/** True when the browser says it has no network. Unknown (no navigator) counts as online. */
export function isBrowserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false
}

/**
 * Stores a write and returns its key. Keys stay 'offline-' + a millisecond timestamp; two writes in
 * the same millisecond (or a key already taken by another tab) move to the next free millisecond, so
 * the key order is the order the writes were made.
 */
export function enqueueOfflineRequest(request: QueuedRequest, storage: Storage = localStorage): string {
  let timestamp = Math.max(Date.now(), lastTimestamp + 1)
  while (storage.getItem(`${offlineKeyPrefix}${timestamp}`) !== null) timestamp += 1
  lastTimestamp = timestamp
  const key = `${offlineKeyPrefix}${timestamp}`
  storage.setItem(key, JSON.stringify(request))
  notifyOfflineQueue()
  return key
}

/** Drops one queued write without sending it (the user discards a change that cannot be applied). */
export function removeOfflineRequest(key: string, storage: Storage = localStorage): void {
  if (storage.getItem(key) === null) return
  storage.removeItem(key)
  notifyOfflineQueue()
}

/** The queued writes, oldest first. Entries that are not valid JSON requests are dropped with a warning. */
export function listOfflineRequests(
  storage: Storage = localStorage,
  logger: OfflineLogger = console,
): QueuedEntry[] {
  const entries: Array<QueuedEntry & { timestamp: number }> = []
  for (let index = 0; index < storage.length; index += 1) {
    const key = storage.key(index)
    const match = key === null ? null : keyPattern.exec(key)
    if (key === null || match === null) continue
    const request = parseQueuedRequest(storage.getItem(key))
    if (request === undefined) {
      logger.warn(`Dropping unreadable offline request ${key}`)
      storage.removeItem(key)
      index -= 1
      continue
    }
    entries.push({ key, request, timestamp: Number(match[1]) })
  }
  return entries
    .sort((left, right) => left.timestamp - right.timestamp)
    .map(({ key, request }) => ({ key, request }))
}

/** The synthetic answer a write gets when it was queued instead of sent. */
export function createOfflineAnswer(): Response {
  return new Response(JSON.stringify({ offline: true } satisfies OfflineAnswer), {
    status: 202,
    headers: { 'Content-Type': 'application/json' },
  })
}

/** True for the body of the synthetic 202, so a caller can say "saved, will sync when online". */
export function isOfflineAnswer(body: unknown): body is OfflineAnswer {
  return typeof body === 'object' && body !== null && (body as { offline?: unknown }).offline === true
}

/**
 * Sends every queued write of `owner` (the user the server says is signed in now), oldest first,
 * one at a time, through `send`; entries of any other user are dropped unsent first (see
 * `setOfflineQueueOwner`). An entry is removed when
 * `send` resolves with an OK answer, or with a 404 to a DELETE (the thing is already gone: a replay
 * of a delete that had reached the server before the network failed). A thrown error or any other
 * answer is logged, its reason is kept on the entry as `lastError`, and the entry stays; later
 * entries are still tried, so one rejected write does not hold back the others. An entry another
 * tab replayed (or the user discarded) meanwhile is skipped.
 */
export async function replayOfflineRequests(
  send: (request: QueuedRequest) => Promise<Response>,
  owner: string,
  storage: Storage = localStorage,
  logger: OfflineLogger = console,
): Promise<ReplayResult> {
  const result: ReplayResult = { replayed: [], failed: [] }
  setOfflineQueueOwner(owner, storage)
  for (const { key, request } of listOfflineRequests(storage, logger)) {
    // Read again: another tab may have replayed or dropped it, or queued it for someone else.
    if (parseQueuedRequest(storage.getItem(key))?.owner !== owner) continue
    let reason: string
    try {
      const response = await send(request)
      if (response.ok || isAlreadyApplied(request, response)) {
        storage.removeItem(key)
        result.replayed.push(key)
        notifyOfflineQueue()
        continue
      }
      reason = await describeFailedAnswer(response)
      logger.error(
        `Offline request ${key} (${request.method} ${request.path}) answered ${response.status}; it stays queued.`,
      )
    } catch (error) {
      reason = 'No connection to the server.'
      logger.error(`Offline request ${key} could not be replayed; it stays queued.`, error)
    }
    if (storage.getItem(key) !== null) {
      storage.setItem(key, JSON.stringify({ ...request, lastError: reason } satisfies QueuedRequest))
    }
    result.failed.push(key)
    notifyOfflineQueue()
  }
  return result
}

/** A DELETE answered 404 has done what it was for: the resource is not there. */
function isAlreadyApplied(request: QueuedRequest, response: Response): boolean {
  return request.method === 'DELETE' && response.status === 404
}

/** The server's message for a failed replay, else 'Failed ({status})'. */
async function describeFailedAnswer(response: Response): Promise<string> {
  let body: unknown
  try {
    const text = await response.text()
    body = text.length === 0 ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  return parseErrorBody(body, response.status, `Failed (${response.status})`).userMessage
}

/**
 * Replays the queue now (if online and anything is queued) and on every 'online' event. Replays
 * never overlap: an 'online' event during a replay is picked up when it ends. Returns a cleanup.
 */
export function startOfflineReplay(
  replay: () => Promise<ReplayResult>,
  options: { target?: Window; storage?: Storage } = {},
): () => void {
  const target = options.target ?? window
  const storage = options.storage ?? localStorage
  let running: Promise<void> | undefined
  let again = false

  const run = (): void => {
    if (running !== undefined) {
      again = true
      return
    }
    running = replay()
      .then(
        () => undefined,
        (error: unknown) => console.error('Offline replay failed', error),
      )
      .finally(() => {
        running = undefined
        if (again) {
          again = false
          run()
        }
      })
  }
  const onOnline = (): void => run()

  target.addEventListener('online', onOnline)
  if (!isBrowserOffline() && listOfflineRequests(storage).length > 0) run()
  return () => target.removeEventListener('online', onOnline)
}

function parseQueuedRequest(text: string | null): QueuedRequest | undefined {
  if (text === null) return undefined
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value !== 'object' || value === null) return undefined
    const { owner, method, path, headers, body, queuedAt, lastError } = value as Record<string, unknown>
    // An entry without its owner (queued before entries had one) cannot be sent safely: dropped.
    if (typeof owner !== 'string' || owner === '') return undefined
    if (typeof method !== 'string' || typeof path !== 'string') return undefined
    return {
      owner,
      method,
      path,
      headers: isStringRecord(headers) ? headers : {},
      body: typeof body === 'string' ? body : null,
      queuedAt: typeof queuedAt === 'string' ? queuedAt : '',
      ...(typeof lastError === 'string' ? { lastError } : {}),
    }
  } catch {
    return undefined
  }
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every((entry) => typeof entry === 'string')
  )
}
