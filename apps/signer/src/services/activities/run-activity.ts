import { randomUUID } from 'node:crypto'
import { AppError } from '@quicklinks/core/app-error'
import { eq } from 'drizzle-orm'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { type SignerActivity, signerActivities } from '../../db/signer-schema.ts'

export type RunActivityInput = {
  organizationId: string
  userId: string
  type: string
  /** The stamped body's parameters, kept as asked. */
  request: Record<string, unknown>
  bodyHash: string
  /** The service clock, epoch ms. */
  now: () => number
}

/**
 * Records an activity as PENDING, runs it, and records the outcome: COMPLETED with the result, or
 * FAILED with a safe error message (a client-facing AppError's message; otherwise a generic one)
 * before the error is rethrown. Returns the completed row.
 *
 * Fails by rejecting with whatever `perform` threw (after recording FAILED), or on a database error.
 */
export async function runActivity(
  db: SignerDatabase,
  input: RunActivityInput,
  perform: () => Promise<Record<string, unknown>>,
): Promise<SignerActivity> {
  const id = randomUUID()
  const createdAt = new Date(input.now())
  await db.insert(signerActivities).values({
    id,
    organizationId: input.organizationId,
    userId: input.userId,
    type: input.type,
    status: 'ACTIVITY_STATUS_PENDING',
    request: input.request,
    bodyHash: input.bodyHash,
    createdAt,
    updatedAt: createdAt,
  })
  let result: Record<string, unknown>
  try {
    result = await perform()
  } catch (error) {
    const message =
      error instanceof AppError && error.status < 500 ? error.userMessage : 'The activity failed.'
    await db
      .update(signerActivities)
      .set({ status: 'ACTIVITY_STATUS_FAILED', result: { error: message }, updatedAt: new Date(input.now()) })
      .where(eq(signerActivities.id, id))
    throw error
  }
  const [completed] = await db
    .update(signerActivities)
    .set({ status: 'ACTIVITY_STATUS_COMPLETED', result, updatedAt: new Date(input.now()) })
    .where(eq(signerActivities.id, id))
    .returning()
  if (completed === undefined) throw new Error(`Activity ${id} vanished while it ran`)
  return completed
}
