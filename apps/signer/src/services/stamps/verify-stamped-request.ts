import { utf8ToBytes } from '@noble/hashes/utils.js'
import { AppError } from '@quicklinks/core/app-error'
import { parseInputOrThrow } from '@quicklinks/core/parse-input-or-throw'
import type { SignerCallStepUp } from '@quicklinks/protocol/signer-activities'
import { type StepUpProof, stepUpParameterName } from '@quicklinks/protocol/step-up'
import type { z } from 'zod'
import { StampError } from '../../crypto/stamps/stamp-error.ts'
import { verifyStamp } from '../../crypto/stamps/verify-stamp.ts'
import type { SignerContext } from '../../signer-context.ts'
import { stepUpProofSchema } from '../refusals/step-up-refusal.ts'
import { createDatabaseReplayStore } from './create-database-replay-store.ts'
import { findSessionKey } from './find-session-key.ts'
import { isWebAuthnStampHeader, verifyWebAuthnStamp } from './verify-webauthn-stamp.ts'

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
  /** Whether a passkey stamped it with user verification (never for a session key's stamp). */
  userVerified: boolean
  /** `parameters.stepUp` of a `reauth` call (taken out of `parameters`); undefined otherwise. */
  stepUp: StepUpProof | undefined
}

/**
 * Authenticates a stamped call: `verifyStamp` over the exact inner body string (signature, 60 s
 * freshness, 5 s ahead, live and unrevoked session key, replay store in the database), then the
 * body's `type` must be the route's activity type, its `organizationId` the key's organization,
 * and its `parameters` must match the route's schema. For a `reauth` call (`expected.stepUp`) the
 * step-up proof is read from `parameters.stepUp` first and handed on beside them (its check is
 * require-step-up.ts's).
 *
 * Fails by throwing: a StampError (401 for a bad signature, stale or future timestamp, unknown,
 * expired (KEY_EXPIRED) or revoked (KEY_REVOKED) key; 400 for a malformed body; 409 REPLAYED),
 * with `details.reason`; VALIDATION_FAILED (422) for a wrong `type` or bad parameters; FORBIDDEN
 * (403) when the body names another organization.
 */
export async function verifyStampedRequest<Schema extends z.core.$ZodType>(
  context: SignerContext,
  stampedRequest: StampedRequest,
  expected: { type: string; parametersSchema: Schema; stepUp?: SignerCallStepUp },
): Promise<VerifiedStampedRequest<z.output<Schema>>> {
  // A passkey may stamp instead of a session key (docs/signer.md#passkey-stamps).
  const { body, key, publicKey, bodyHash, userVerified } = isWebAuthnStampHeader(
    stampedRequest.stamp.stampHeaderName,
  )
    ? await verifyPasskeyStampOrThrow(context, stampedRequest)
    : await verifyStampOrThrow(context, stampedRequest.stamp.stampHeaderValue, stampedRequest.body, {
        requireTimestamp: true,
      })
  if (body.type !== expected.type) {
    throw new AppError('VALIDATION_FAILED', {
      userMessage: `type: must be ${expected.type} for this endpoint`,
      field: 'type',
    })
  }
  assertSameOrganization(body, key.organizationId)
  let rawParameters: unknown = body.parameters ?? {}
  let stepUp: StepUpProof | undefined
  if (expected.stepUp === 'reauth' && isRecord(rawParameters) && stepUpParameterName in rawParameters) {
    const { [stepUpParameterName]: rawStepUp, ...rest } = rawParameters
    stepUp = stripUndefined(parseInputOrThrow(stepUpProofSchema, rawStepUp, stepUpParameterName))
    rawParameters = rest
  }
  const parameters = parseInputOrThrow(expected.parametersSchema, rawParameters, 'parameters')
  return {
    organizationId: key.organizationId,
    userId: key.userId,
    publicKey,
    bodyHash,
    parameters,
    userVerified,
    stepUp,
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The proof without absent fields (exactOptionalPropertyTypes). */
function stripUndefined(proof: z.output<typeof stepUpProofSchema>): StepUpProof {
  return Object.fromEntries(Object.entries(proof).filter(([, value]) => value !== undefined)) as StepUpProof
}

/**
 * Authenticates a stamped read in Turnkey's query shape: the body is `{organizationId, ...fields}`
 * with no `type` (docs/signer.md#query-stamps). The stamp must verify over the exact body bytes and
 * come from a known, unexpired, unrevoked session key of that organization. A body that carries a
 * `timestampMs` is checked like an activity's (60 s old at most, 5 s ahead, the replay store).
 * Stock `@turnkey/http` clients send none, so a body without one is accepted, bound only to the
 * live key (no freshness window: a copied stamp replays that one read until the key ends), unless
 * the deployment sets SIGNER_QUERY_TIMESTAMP_REQUIRED (`config.signerQueryTimestampRequired`),
 * which refuses it (400 TIMESTAMP_MISSING). The fields other than `organizationId` and
 * `timestampMs` are the parameters, parsed with `parametersSchema`.
 *
 * Fails like `verifyStampedRequest`, minus the `type` check.
 */
export async function verifyStampedQuery<Schema extends z.core.$ZodType>(
  context: SignerContext,
  request: { stampHeader: string | undefined; body: string },
  parametersSchema: Schema,
): Promise<VerifiedStampedRequest<z.output<Schema>>> {
  const { body, key, publicKey, bodyHash } = await verifyStampOrThrow(
    context,
    request.stampHeader,
    request.body,
    { requireTimestamp: context.config.signerQueryTimestampRequired === true },
  )
  assertSameOrganization(body, key.organizationId)
  const { organizationId: _organizationId, timestampMs: _timestampMs, ...fields } = body
  const parameters = parseInputOrThrow(parametersSchema, fields, 'body')
  return {
    organizationId: key.organizationId,
    userId: key.userId,
    publicKey,
    bodyHash,
    parameters,
    userVerified: false,
    stepUp: undefined,
  }
}

/**
 * A passkey's stamp (X-Stamp-WebAuthn, verify-webauthn-stamp.ts), in the shape of a session key's:
 * `publicKey` is `passkey:{credentialId}`, which names no session key.
 */
async function verifyPasskeyStampOrThrow(context: SignerContext, stampedRequest: StampedRequest) {
  const { passkey, body, bodyHash, userVerified } = await verifyWebAuthnStamp(context, {
    stampHeaderValue: stampedRequest.stamp.stampHeaderValue,
    body: stampedRequest.body,
  })
  return {
    body,
    key: { organizationId: passkey.organizationId, userId: passkey.userId },
    publicKey: `passkey:${passkey.credentialId}`,
    bodyHash,
    userVerified,
  }
}

async function verifyStampOrThrow(
  context: SignerContext,
  stampHeader: string | undefined,
  body: string,
  options: { requireTimestamp: boolean },
) {
  const result = await verifyStamp(
    { stampHeader, body: utf8ToBytes(body) },
    {
      now: context.now,
      replayStore: createDatabaseReplayStore(context.db, context.now),
      findKey: (publicKey) => findSessionKey(context.db, publicKey),
    },
    options,
  )
  if (!result.ok) {
    const { error } = result
    throw new StampError(error.reason, error.message, { ...error.details, reason: error.reason })
  }
  return { ...result.value, userVerified: false }
}

function assertSameOrganization(body: Record<string, unknown>, organizationId: string): void {
  if (body.organizationId !== organizationId) {
    throw new AppError('FORBIDDEN', {
      message: 'Stamped body names an organization other than the session key’s',
      userMessage: 'This session belongs to another organization.',
    })
  }
}
