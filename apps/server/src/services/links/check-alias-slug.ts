import { AppError } from '@quicklinks/core/app-error'
import { createValidationError } from '@quicklinks/core/parse-input-or-throw'
import { buildSlug, getSlugProblem } from '@quicklinks/core/slug'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, inArray, ne, sql } from 'drizzle-orm'
import { links } from '../../db/schema.ts'

const maxSlugLength = 64

/**
 * The slug for a link: `requested` (or else the alias) normalised as docs/product.md#slugs says (lower-case,
 * whitespace runs to one hyphen). Throws VALIDATION_FAILED naming `field` when it is too short,
 * too long, holds / ? # or is an app route name.
 */
export function buildAliasSlugOrThrow(requested: string, field: 'alias' | 'alias_slug'): string {
  const slug = buildSlug(requested)
  const problem = getSlugProblem(slug)
  if (problem !== undefined) throw createValidationError(field, problem)
  return slug
}

async function findTakenSlugs(
  db: Database,
  candidates: string[],
  exceptLinkId?: string,
): Promise<Set<string>> {
  const lowered = sql`lower(${links.aliasSlug})`
  const rows = await db
    .select({ slug: lowered.mapWith(String) })
    .from(links)
    .where(
      exceptLinkId === undefined
        ? inArray(lowered, candidates)
        : and(inArray(lowered, candidates), ne(links.id, exceptLinkId)),
    )
  return new Set(rows.map((row) => row.slug))
}

/** Whether another link (not `exceptLinkId`) holds the slug, ignoring case. */
export async function isAliasSlugTaken(db: Database, slug: string, exceptLinkId?: string): Promise<boolean> {
  return (await findTakenSlugs(db, [slug.toLowerCase()], exceptLinkId)).size > 0
}

/** The first free slug of `slug-2`, `slug-3`, … (shortening the base to stay within 64 characters). */
export async function suggestFreeSlug(db: Database, slug: string): Promise<string> {
  for (let start = 2; ; start += 50) {
    const candidates = Array.from({ length: 50 }, (_, index) => {
      const suffix = `-${start + index}`
      return `${slug.slice(0, maxSlugLength - suffix.length)}${suffix}`.toLowerCase()
    })
    const taken = await findTakenSlugs(db, candidates)
    const free = candidates.find(
      (candidate) => !taken.has(candidate) && getSlugProblem(candidate) === undefined,
    )
    if (free !== undefined) return free
  }
}

/** The 409 of a slug clash, with a free suggestion in the message and in details.suggestion. */
export async function buildSlugTakenError(db: Database, slug: string, cause?: unknown): Promise<AppError> {
  const suggestion = await suggestFreeSlug(db, slug)
  return new AppError('CONFLICT', {
    message: `Slug ${slug} is taken`,
    userMessage: `The link name "${slug}" is taken. Try "${suggestion}".`,
    field: 'alias_slug',
    details: { suggestion },
    ...(cause === undefined ? {} : { cause }),
  })
}
