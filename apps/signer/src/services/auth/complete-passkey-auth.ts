import { AppError } from '@quicklinks/core/app-error'
import { parseInputOrThrow } from '@quicklinks/core/parse-input-or-throw'
import { targetPublicKeySchema } from '@quicklinks/protocol/signer-field-schemas'
import { z } from 'zod'
import type { SignerContext } from '../../signer-context.ts'
import { refuse } from '../refusals/step-up-refusal.ts'
import { mintCredentialBundle } from '../sessions/mint-credential-bundle.ts'
import type { StampedRequest } from '../stamps/verify-stamped-request.ts'
import { isWebAuthnStampHeader, verifyWebAuthnStamp } from '../stamps/verify-webauthn-stamp.ts'
import type { SignInAnswer } from './finish-sign-in.ts'

/** The login body's type: Turnkey's stamp login. */
export const passkeyLoginActivityType = 'ACTIVITY_TYPE_STAMP_LOGIN'

/** Turnkey's stamp-login parameters: the key the session is encrypted to, and its lifetime. */
const loginParametersSchema = z.object({
  publicKey: targetPublicKeySchema,
  expirationSeconds: z
    .union([z.number(), z.string().regex(/^\d{1,9}$/)])
    .transform(Number)
    .pipe(z.number().int().min(60, 'must be at least 60').max(86_400, 'must be at most 86400'))
    .optional(),
})

/**
 * `auth-passkey`: signs in with a passkey. The body `{type: ACTIVITY_TYPE_STAMP_LOGIN, timestampMs,
 * organizationId, parameters: {publicKey, expirationSeconds?}}` is stamped by the passkey
 * (X-Stamp-WebAuthn: an assertion whose challenge is the body's hex SHA-256); the user is the one
 * whose passkey it is, whatever `organizationId` says (the client does not know it yet). A session
 * key is minted like every other sign-in, encrypted to `parameters.publicKey` (the auth frame's key).
 *
 * Fails with NOT_FOUND 'No user found' for a credential no account has, FORBIDDEN (reason
 * USER_VERIFICATION_REQUIRED) for an assertion without the user-verified flag, the StampErrors of
 * verifyWebAuthnStamp (a wrong signature, origin or rpId, a counter that went back, a stale or
 * replayed body), VALIDATION_FAILED for another type or bad parameters, or TARGET_KEY_INVALID.
 */
export async function completePasskeyAuth(
  context: SignerContext,
  stampedRequest: StampedRequest,
): Promise<SignInAnswer> {
  if (!isWebAuthnStampHeader(stampedRequest.stamp.stampHeaderName)) {
    throw new AppError('VALIDATION_FAILED', {
      userMessage: 'stamp: a passkey sign-in must be stamped with X-Stamp-WebAuthn',
      field: 'stampedRequest.stamp.stampHeaderName',
    })
  }
  const { passkey, body, userVerified } = await verifyWebAuthnStamp(
    context,
    { stampHeaderValue: stampedRequest.stamp.stampHeaderValue, body: stampedRequest.body },
    { onUnknownCredential: () => new AppError('NOT_FOUND', { userMessage: 'No user found' }) },
  )
  // A passkey sign-in never asks for the authenticator-app code, so the passkey must have verified
  // the user itself (docs/signer.md#passkeys): a device alone is not a sign-in.
  if (!userVerified) throw refuse('USER_VERIFICATION_REQUIRED')
  if (body.type !== passkeyLoginActivityType) {
    throw new AppError('VALIDATION_FAILED', {
      userMessage: `type: must be ${passkeyLoginActivityType} for this endpoint`,
      field: 'type',
    })
  }
  const parameters = parseInputOrThrow(loginParametersSchema, body.parameters ?? {}, 'parameters')
  const { credentialBundle } = await mintCredentialBundle(context.db, {
    userId: passkey.userId,
    targetPublicKey: parameters.publicKey,
    expirationSeconds: parameters.expirationSeconds ?? context.config.signerSessionSeconds,
    nowMs: context.now(),
  })
  return { credentialBundle, isNewUser: false, orgId: passkey.organizationId }
}
