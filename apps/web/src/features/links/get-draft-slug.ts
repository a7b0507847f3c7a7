import { buildSlug } from '@quicklinks/core/slug'
import type { LinkDraft } from './link-modal-state'

/** The slug the draft will be published under: a taken suggestion, else SPEC's slug of the alias. */
export function getDraftSlug(draft: LinkDraft): string {
  return draft.alias_slug ?? buildSlug(draft.alias.trim())
}
