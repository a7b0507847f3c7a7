import { utf8ToBytes } from '@noble/hashes/utils.js'
import { AppError } from '@quicklinks/core/app-error'
import { parseInputOrThrow } from '@quicklinks/core/parse-input-or-throw'
import type { z } from 'zod'
import { StampError } from '../../crypto/stamps/stamp-error.ts'
import { verifyStamp } from '../../crypto/stamps/verify-stamp.ts'
import type { SignerContext } from '../../signer-context.ts'
import { createDatabaseReplayStore } from './create-database-replay-store.ts'
import { findSessionKey } from './find-session-key.ts'

/** The outer body of a stamped call: the inner body travels as the exact string that was signed. */
export type StampedRequest = {
  url: string
  body: string
  stamp: { stampHeaderName: string; stampHeaderValue: string }
}

/** A stamped call that checked out: who sent it and its validated parameters. */
export type VerifiedStampedRequest<Parameters> = {
  organizationId: string
  userId: string
  /** The session key that stamped it (compressed hex). */
  publicKey: string
  /** SHA-256 of the inner body: the replay key, kept on activities. */
  bodyHash: string
  parameters: Parameters
}

/**
 * Authenticates a stamped call: `verifyStamp` over the exact inner body string (signature, 60 s
 * freshness, 5 s ahead, live and unrevoked session key, replay store in the database), then the
 * body's `type` must be the route's activity type, its `organizationId` the key's organization,
 * and its `parameters` must match the route's schema.
 *
 * Fails by throwing: a StampError (401 for a bad signature, stale or future timestamp, unknown,
 * expired (KEY_EXPIRED) or revoked (KEY_REVOKED) key; 400 for a malformed body; 409 REPLAYED),
 * with `details.reason`; VALIDATION_FAILED (422) for a wrong `type` or bad parameters; FORBIDDEN
 * (403) when the body names another organization.
 */
export async function verifyStampedRequest<Schema extends z.ZodType>(
  context: SignerContext,
  stampedRequest: StampedRequest,
  expected: { type: string; parametersSchema: Schema },
): Promise<VerifiedStampedRequest<z.output<Schema>>> {
  const result = await verifyStamp(
    { stampHeader: stampedRequest.stamp.stampHeaderValue, body: utf8ToBytes(stampedRequest.body) },
    {
      now: context.now,
      replayStore: createDatabaseReplayStore(context.db, context.now),
      findKey: (publicKey) => findSessionKey(context.db, publicKey),
    },
  )
  if (!result.ok) {
    const { error } = result
    throw new StampError(error.reason, error.message, { ...error.details, reason: error.reason })
  }
  const { body, key, publicKey, bodyHash } = result.value
  if (body.type !== expected.type) {
    throw new AppError('VALIDATION_FAILED', {
      userMessage: `type: must be ${expected.type} for this endpoint`,
      field: 'type',
    })
  }
  if (body.organizationId !== key.organizationId) {
    throw new AppError('FORBIDDEN', {
      message: 'Stamped body names an organization other than the session key’s',
      userMessage: 'This session belongs to another organization.',
    })
  }
  const parameters = parseInputOrThrow(expected.parametersSchema, body.parameters ?? {}, 'parameters')
  return { organizationId: key.organizationId, userId: key.userId, publicKey, bodyHash, parameters }
}
