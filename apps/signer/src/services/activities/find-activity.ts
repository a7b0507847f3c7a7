import { and, eq } from 'drizzle-orm'
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
