import { AppError } from '@quicklinks/core/app-error'
import { and, eq } from 'drizzle-orm'
import { z } from 'zod'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { type SignerActivity, signerActivities } from '../../db/signer-schema.ts'

/** One activity of an organization, or undefined (another organization's counts as absent). */
export async function findActivity(
  db: SignerDatabase,
  input: { activityId: string; organizationId: string },
): Promise<SignerActivity | undefined> {
  const [row] = await db
    .select()
    .from(signerActivities)
    .where(
      and(
        eq(signerActivities.id, input.activityId),
        eq(signerActivities.organizationId, input.organizationId),
      ),
    )
  return row
}

/**
 * One activity of an organization by an id as a caller sent it. Shared by `/signer/v1/get-activity`
 * and Turnkey's `query/get_activity`.
 *
 * Fails with NOT_FOUND (404) when the id is not a UUID or names no activity of this organization.
 */
export async function getActivityOrThrow(
  db: SignerDatabase,
  input: { activityId: string; organizationId: string },
): Promise<SignerActivity> {
  const activity = z.uuid().safeParse(input.activityId).success ? await findActivity(db, input) : undefined
  if (activity === undefined) {
    throw new AppError('NOT_FOUND', { userMessage: 'No activity with that id in this organization.' })
  }
  return activity
}
