import { userResponseSchema } from '@quicklinks/core/api/auth'
import { AppError, parseErrorBody } from '@quicklinks/core/app-error'
import * as z from 'zod/mini'
import { apiBaseUrl } from './env'
import {
  createOfflineAnswer,
  enqueueOfflineRequest,
  getOfflineQueueOwner,
  isBrowserOffline,
  listOfflineRequests,
  type OfflineLogger,
  type QueuedRequest,
  type ReplayResult,
  replayOfflineRequests,
} from './offline-queue'

/**
 * The one way the web app talks to its server (docs/api.md#web-api-client). Every call sends cookies and asks
 * for JSON; a write (any method but GET, HEAD, OPTIONS) echoes the `csrf_token` cookie in
 * `X-CSRF-Token`, fetching GET /health first when the cookie is missing and once more, with one
 * retry, when the server answers 403. A write that opts in (`queueWhenOffline`) and is made offline is
 * queued and answered with a 202 `{offline: true}` (see offline-queue.ts) for the signed-in user; its
 * replay reads the CSRF cookie then, never a stored one, and first asks the server who is signed in,
 * so one user's writes are never replayed into another's session. Every failure reaches the caller
 * as an `AppError`.
 */

export const csrfCookieName = 'csrf_token'
export const csrfHeaderName = 'X-CSRF-Token'
export const csrfRefreshPath = '/health'

export type ApiRequestOptions = {
  method?: string
  /** A plain value is sent as JSON; FormData, Blob, URLSearchParams and strings are sent as they are. */
  body?: unknown
  headers?: Record<string, string>
  signal?: AbortSignal
  /**
   * The user-safe message when a failing answer carries none, or when an answer does not match its
   * schema (docs/product.md#errors-links); a function gets the answer's status.
   */
  fallbackMessage?: string | ((status: number) => string)
  /**
   * Queue the write when offline (default false: only writes that are safe to send later opt in, the
   * link writes; payments and sign-in never do). Reads are never queued.
   */
  queueWhenOffline?: boolean
}

export type ApiClient = {
  /**
   * Sends a request and resolves with the server's answer whatever its status (or the synthetic
   * 202 of a queued write). Rejects with an `AppError` coded NETWORK when the network fails and the
   * request cannot be queued; an abort rejects with the AbortError.
   */
  send(path: string, options?: ApiRequestOptions): Promise<Response>
  /**
   * Sends a request and resolves with its JSON body parsed by `schema` (the answer's schema from
   * @quicklinks/core/api). A non-OK answer rejects with `parseErrorBody(body, status,
   * fallbackMessage)`; an OK answer that `schema` refuses rejects with an AppError coded INTERNAL
   * whose user message is the fallback.
   */
  request<Schema extends z.core.$ZodType>(
    path: string,
    schema: Schema,
    options?: ApiRequestOptions,
  ): Promise<z.output<Schema>>
  /**
   * Sends the signed-in user's queued offline writes again, oldest first (see
   * `replayOfflineRequests`), after asking GET /api/auth/me who that is now: another user's writes
   * are dropped unsent, and nothing is sent while nobody is signed in (the entries stay). Rejects
   * when the server cannot be asked.
   */
  replayOfflineQueue(): Promise<ReplayResult>
}

export type ApiClientConfig = {
  baseUrl?: string
  fetch?: typeof fetch
  /** Reads the cookie header the page can see (document.cookie in a browser). */
  readCookies?: () => string
  storage?: Storage
  isOffline?: () => boolean
  logger?: OfflineLogger
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

/** True when a request with this method must carry the CSRF token. */
export function isWriteMethod(method: string): boolean {
  return !safeMethods.has(method.toUpperCase())
}

/** The value of one cookie in a `document.cookie`-style string, or undefined. */
export function readCookie(name: string, cookies: string): string | undefined {
  for (const part of cookies.split(';')) {
    const separator = part.indexOf('=')
    if (separator === -1) continue
    if (part.slice(0, separator).trim() !== name) continue
    const value = part.slice(separator + 1).trim()
    try {
      return decodeURIComponent(value)
    } catch {
      return value
    }
  }
  return undefined
}

/** Builds a client; the app uses the shared `api` below, tests build their own. */
export function createApiClient(config: ApiClientConfig = {}): ApiClient {
  const baseUrl = config.baseUrl ?? apiBaseUrl
  const doFetch = config.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init))
  const readCookies = config.readCookies ?? (() => (typeof document === 'undefined' ? '' : document.cookie))
  const getStorage = (): Storage => config.storage ?? localStorage
  const isOffline = config.isOffline ?? isBrowserOffline
  const logger = config.logger ?? console

  const getCsrfToken = (): string | undefined => readCookie(csrfCookieName, readCookies())

  const refreshCsrfToken = async (signal: AbortSignal | undefined): Promise<string | undefined> => {
    await doFetch(`${baseUrl}${csrfRefreshPath}`, {
      method: 'GET',
      credentials: 'include',
      headers: { Accept: 'application/json' },
      ...(signal === undefined ? {} : { signal }),
    })
    return getCsrfToken()
  }

  /** Sends with the CSRF dance; network failures propagate as the fetch's own error. */
  const sendOnline = async (
    path: string,
    method: string,
    headers: Record<string, string>,
    body: BodyInit | null,
    signal: AbortSignal | undefined,
  ): Promise<Response> => {
    const write = isWriteMethod(method)
    const attempt = (token: string | undefined): Promise<Response> =>
      doFetch(`${baseUrl}${path}`, {
        method,
        credentials: 'include',
        headers: write && token !== undefined ? { ...headers, [csrfHeaderName]: token } : headers,
        body,
        ...(signal === undefined ? {} : { signal }),
      })

    if (!write) return attempt(undefined)
    const token = getCsrfToken() ?? (await refreshCsrfToken(signal))
    const response = await attempt(token)
    if (response.status !== 403) return response
    // The token may have expired or rotated: fetch a fresh one and try exactly once more.
    return attempt(await refreshCsrfToken(signal))
  }

  const send = async (path: string, options: ApiRequestOptions = {}): Promise<Response> => {
    const method = (options.method ?? 'GET').toUpperCase()
    const { headers, body, queueableBody } = buildRequestParts(options)
    // A write is queued for the signed-in user only: with nobody known to be signed in it fails as it is.
    const owner = getOfflineQueueOwner()
    const queue =
      isWriteMethod(method) && options.queueWhenOffline === true && queueableBody && owner !== null
        ? (): Response => {
            const request: QueuedRequest = {
              owner,
              method,
              path,
              headers,
              body: typeof body === 'string' ? body : null,
              queuedAt: new Date().toISOString(),
            }
            enqueueOfflineRequest(request, getStorage())
            return createOfflineAnswer()
          }
        : undefined

    if (queue !== undefined && isOffline()) return queue()
    try {
      return await sendOnline(path, method, headers, body, options.signal)
    } catch (error) {
      if (isAbortError(error)) throw error
      if (isNetworkFailure(error) && queue !== undefined) return queue()
      throw new AppError('NETWORK', { message: `${method} ${path} failed: ${String(error)}`, cause: error })
    }
  }

  const request = async <Schema extends z.core.$ZodType>(
    path: string,
    schema: Schema,
    options: ApiRequestOptions = {},
  ): Promise<z.output<Schema>> => {
    const response = await send(path, options)
    return readAnswer(response, schema, {
      description: `${(options.method ?? 'GET').toUpperCase()} ${path}`,
      ...(options.fallbackMessage === undefined ? {} : { fallbackMessage: options.fallbackMessage }),
    })
  }

  /** Who the session cookie signs in now (GET /api/auth/me), or null when nobody is (401). */
  const readSignedInUserId = async (): Promise<string | null> => {
    const response = await sendOnline('/api/auth/me', 'GET', { Accept: 'application/json' }, null, undefined)
    if (response.status === 401) return null
    const body = await readAnswer(response, userResponseSchema, { description: 'GET /api/auth/me' })
    return body.data.id
  }

  const replayOfflineQueue = async (): Promise<ReplayResult> => {
    const storage = getStorage()
    if (listOfflineRequests(storage, logger).length === 0) return { replayed: [], failed: [] }
    // Asked of the server, not remembered: another tab may have signed another user in since.
    const owner = await readSignedInUserId()
    if (owner === null) return { replayed: [], failed: [] }
    return replayOfflineRequests(
      (queued) => sendOnline(queued.path, queued.method, queued.headers, queued.body, undefined),
      owner,
      storage,
      logger,
    )
  }

  return { send, request, replayOfflineQueue }
}

/** The app's client: same-origin, browser cookies, localStorage queue. */
export const api: ApiClient = createApiClient()

function buildRequestParts(options: ApiRequestOptions): {
  headers: Record<string, string>
  body: BodyInit | null
  queueableBody: boolean
} {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers }
  const value = options.body
  if (value === undefined || value === null) return { headers, body: null, queueableBody: true }
  if (value instanceof FormData || value instanceof Blob) {
    // The browser writes the multipart boundary itself; such bodies cannot be stored for later.
    return { headers, body: value, queueableBody: false }
  }
  if (value instanceof URLSearchParams) {
    const formHeaders = { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }
    return { headers: formHeaders, body: value.toString(), queueableBody: true }
  }
  // Content-Type only with a body: a JSON content type on an empty DELETE is a 400 on Fastify.
  const contentType = headers['Content-Type'] ?? 'application/json'
  const body = typeof value === 'string' ? value : JSON.stringify(value)
  return { headers: { ...headers, 'Content-Type': contentType }, body, queueableBody: true }
}

/**
 * Reads an answer (of `send`, or of a replayed write) with its schema: the parsed body when the
 * status is OK and `schema` accepts it. Rejects with `parseErrorBody` for a failing status, and with
 * an AppError coded INTERNAL (the user message is the fallback, the zod error the cause) for an OK
 * answer that is not what the API documents.
 */
export async function readAnswer<Schema extends z.core.$ZodType>(
  response: Response,
  schema: Schema,
  options: { description?: string; fallbackMessage?: string | ((status: number) => string) } = {},
): Promise<z.output<Schema>> {
  const body = await readBody(response)
  const { fallbackMessage } = options
  const fallback =
    typeof fallbackMessage === 'function'
      ? fallbackMessage(response.status)
      : (fallbackMessage ?? `Request failed (${response.status})`)
  if (!response.ok) throw parseErrorBody(body, response.status, fallback)
  const parsed = z.safeParse(schema, body)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const where = issue === undefined || issue.path.length === 0 ? 'body' : issue.path.join('.')
  throw new AppError('INTERNAL', {
    message: `${options.description ?? 'The API'} answered an unexpected ${where}: ${issue?.message ?? 'not valid'}`,
    userMessage: fallback,
    cause: parsed.error,
  })
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text()
  if (text.length === 0) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/**
 * Browsers reject fetch with a TypeError when the network is down (DNS, refused, offline); some
 * implementations (happy-dom) use a DOMException named NetworkError instead.
 */
function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && error.name === 'NetworkError')
}

function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError'
}
