/**
 * A payment link as the owner's API returns it (SPEC §3 "Link", snake_case as on the wire).
 */
export type Link = {
  id: string
  link_type: string
  alias: string
  alias_slug: string
  receiver_address: string
  chain: string
  chain_id: number
  token_name: string
  token_address: string
  message: string | null
  account_type: string
  enabled: boolean
  favorite: boolean
  settings: string
  idempotency_key: string | null
  created_at: string
  updated_at: string
}

/** The body of POST /api/links. */
export type CreateLinkInput = {
  link_type: string
  alias: string
  receiver_address: string
  chain: string
  chain_id: number
  token_name: string
  token_address: string
  message: string
  account_type: string
  enabled: boolean
  favorite: boolean
  settings: string
  idempotency_key: string
  alias_slug?: string
}

/** The body of PUT /api/links/{id}: only what may change. */
export type UpdateLinkInput = {
  id: string
  alias: string
  alias_slug: string
  message: string
  account_type: string
  enabled: boolean
  favorite: boolean
  settings: string
}

/** The fields of PUT /api/links/{id} taken from a stored link, to change one of them. */
export function toUpdateLinkInput(link: Link): UpdateLinkInput {
  return {
    id: link.id,
    alias: link.alias,
    alias_slug: link.alias_slug,
    message: link.message ?? '',
    account_type: link.account_type,
    enabled: link.enabled,
    favorite: link.favorite,
    settings: link.settings,
  }
}

/** The public address of a link: site origin plus /pay/{alias_slug} (SPEC §2). */
export function buildPublicLinkUrl(slug: string, origin: string = window.location.origin): string {
  return `${origin}/pay/${slug}`
}

/** True when the value has the shape of a link (the fields the UI reads). */
export function isLink(value: unknown): value is Link {
  if (typeof value !== 'object' || value === null) return false
  const record = value as Record<string, unknown>
  return (
    typeof record.id === 'string' &&
    typeof record.alias === 'string' &&
    typeof record.alias_slug === 'string' &&
    typeof record.receiver_address === 'string' &&
    typeof record.chain === 'string' &&
    typeof record.chain_id === 'number' &&
    typeof record.enabled === 'boolean' &&
    typeof record.favorite === 'boolean'
  )
}
