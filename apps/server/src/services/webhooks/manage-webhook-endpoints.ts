import { randomBytes } from 'node:crypto'
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import {
  type WebhookEndpoint,
  type WebhookEventType,
  webhookMaxEndpoints,
} from '@quicklinks/core/api/webhooks'
import { AppError } from '@quicklinks/core/app-error'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, count, desc, eq } from 'drizzle-orm'
import { type WebhookEndpointRow, webhookEndpoints } from '../../db/schema.ts'
import { isForbiddenAddress } from './webhook-address-guard.ts'

/** During a rotation the old secret keeps signing this long, beside the new one. */
export const webhookRotationGraceMs = 24 * 3_600_000

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks' form). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

/** An endpoint as its owner sees it (never a secret). */
export function toWebhookEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEventType[],
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

function refuseUrl(message: string): AppError {
  return new AppError('VALIDATION_FAILED', { field: 'url', message, userMessage: message })
}

/**
 * Refuses an endpoint URL webhooks may not use (docs/api.md#webhook-safety): outside dev mode it
 * must be https, and its host must not be, or resolve to, a loopback, private, link-local or
 * metadata address. A name that does not resolve now is accepted (every delivery checks again at
 * connect time, which also catches a name that turns to a private address later). Throws AppError
 * VALIDATION_FAILED naming the reason.
 */
export async function assertWebhookUrlAllowedOrThrow(text: string, isDevMode: boolean): Promise<void> {
  const url = new URL(text)
  if (isDevMode) return
  if (url.protocol !== 'https:') throw refuseUrl('url must be an https URL')
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  if (isIP(host) !== 0) {
    if (isForbiddenAddress(host)) throw refuseUrl(`url must not point at ${host}, a private or local address`)
    return
  }
  const addresses = await lookup(host, { all: true }).catch(() => [])
  const forbidden = addresses.find((entry) => isForbiddenAddress(entry.address))
  if (forbidden !== undefined) {
    throw refuseUrl(`url's host ${host} resolves to ${forbidden.address}, a private or local address`)
  }
}

/** One of the user's endpoints; 404 for an unknown id or another user's. */
export async function getOwnedEndpointOrThrow(
  db: Database,
  userId: string,
  id: string,
): Promise<WebhookEndpointRow> {
  const [row] = uuidPattern.test(id)
    ? await db
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    : []
  if (row === undefined) {
    throw new AppError('NOT_FOUND', {
      message: `No webhook endpoint ${id}`,
      userMessage: 'No such webhook endpoint.',
    })
  }
  return row
}

/** The user's endpoints, newest first. */
export async function listWebhookEndpoints(db: Database, userId: string): Promise<WebhookEndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId))
    .orderBy(desc(webhookEndpoints.createdAt))
}

/** Registers an endpoint with a new secret; refuses the user's 21st (409) and unsafe URLs (422). */
export async function createWebhookEndpoint(
  db: Database,
  input: {
    userId: string
    url: string
    events: readonly WebhookEventType[]
    description?: string | null | undefined
    isDevMode: boolean
  },
): Promise<WebhookEndpointRow> {
  await assertWebhookUrlAllowedOrThrow(input.url, input.isDevMode)
  const [held] = await db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, input.userId))
  if ((held?.n ?? 0) >= webhookMaxEndpoints) {
    throw new AppError('CONFLICT', {
      userMessage: `You already have ${webhookMaxEndpoints} webhook endpoints; delete one first.`,
    })
  }
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      userId: input.userId,
      url: input.url,
      description: input.description || null,
      events: [...new Set(input.events)].sort(),
      secret: newWebhookSecret(),
    })
    .returning()
  if (row === undefined) throw new Error('insert returned no row')
  return row
}

/** Changes an endpoint's URL, events, description or enabled flag (enabling clears the disable reason). */
export async function updateWebhookEndpoint(
  db: Database,
  input: {
    userId: string
    id: string
    url?: string | undefined
    events?: readonly WebhookEventType[] | undefined
    description?: string | null | undefined
    enabled?: boolean | undefined
    isDevMode: boolean
  },
): Promise<WebhookEndpointRow> {
  await getOwnedEndpointOrThrow(db, input.userId, input.id)
  if (input.url !== undefined) await assertWebhookUrlAllowedOrThrow(input.url, input.isDevMode)
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      ...(input.url === undefined ? {} : { url: input.url }),
      ...(input.events === undefined ? {} : { events: [...new Set(input.events)].sort() }),
      ...(input.description === undefined ? {} : { description: input.description || null }),
      ...(input.enabled === undefined
        ? {}
        : input.enabled
          ? { enabled: true, disabledReason: null, failingSince: null }
          : { enabled: false, disabledReason: null }),
      updatedAt: new Date(),
    })
    .where(and(eq(webhookEndpoints.id, input.id), eq(webhookEndpoints.userId, input.userId)))
    .returning()
  if (row === undefined) throw new Error('update returned no row')
  return row
}

/** Deletes an endpoint and its deliveries. */
export async function deleteWebhookEndpoint(
  db: Database,
  userId: string,
  id: string,
): Promise<WebhookEndpointRow> {
  const row = await getOwnedEndpointOrThrow(db, userId, id)
  await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
  return row
}

/**
 * Gives an endpoint a new secret; the current one keeps signing beside it for 24 h (receivers
 * holding either verify), then only the new one signs. Answers the row with the new secret.
 */
export async function rotateWebhookSecret(
  db: Database,
  userId: string,
  id: string,
  nowMs: number,
): Promise<WebhookEndpointRow> {
  const current = await getOwnedEndpointOrThrow(db, userId, id)
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      secret: newWebhookSecret(),
      previousSecret: current.secret,
      previousSecretExpiresAt: new Date(nowMs + webhookRotationGraceMs),
      updatedAt: new Date(nowMs),
    })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning()
  if (row === undefined) throw new Error('update returned no row')
  return row
}
