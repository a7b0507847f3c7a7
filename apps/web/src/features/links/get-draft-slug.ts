import { buildSlug } from '@quicklinks/core/slug'
import type { LinkDraft } from './link-modal-state'

/**
 * The slug the draft will be published under: a taken suggestion, else the alias's slug
 * (docs/product.md#slugs).
 */
export function getDraftSlug(draft: LinkDraft): string {
  return draft.alias_slug ?? buildSlug(draft.alias.trim())
}
