import { createHash } from 'node:crypto'
import { AppError } from '@quicklinks/core/app-error'
import { and, eq } from 'drizzle-orm'
import { signerAuthMethods, signerSessionKeys } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { lockUserSignInMethods } from '../accounts/remove-sign-in-method.ts'
import { sendSecurityNotice } from '../accounts/send-security-notice.ts'
import { createDatabaseReplayStore } from '../stamps/create-database-replay-store.ts'
import type { OAuthDirectory } from './oauth-directory.ts'
import { getOAuthNonce } from './oauth-request-key.ts'
import { verifyOAuthIdToken } from './verify-oauth-id-token.ts'

/** A provider identity linked to a user (what add-oauth-provider answers). */
export type LinkedOAuthProvider = {
  providerId: string
  issuer: string
  subject: string
  email: string | null
}

/**
 * `add-oauth-provider`: links the identity of a provider's id token to the stamping user (a
 * FETCHED_ID_TOKEN_ONLY flow from Settings). The token must verify against the provider's JWKS
 * (iss, aud, exp) and its nonce must be the hash of the key the stamping session was encrypted to
 * (docs/signer.md#oauth-nonce): a token fetched by another browser, or for another session, links
 * nothing. It is accepted once.
 *
 * Fails by rejecting with AppError NOT_FOUND (unknown provider), UNAUTHORIZED (the token, its
 * nonce, a token used before, or a stamp by no session key: a passkey, or a session minted before
 * its key was kept), or as {@link linkOAuthIdentity}.
 */
export async function linkOAuthProvider(
  context: SignerContext,
  directory: OAuthDirectory,
  input: { userId: string; sessionPublicKey: string; providerName: string; oidcToken: string },
): Promise<LinkedOAuthProvider> {
  const provider = await directory.get(input.providerName)
  const targetPublicKey = await findSessionTargetKey(context, input.sessionPublicKey)
  if (targetPublicKey === undefined) {
    throw new AppError('UNAUTHORIZED', {
      message: `add-oauth-provider stamped by ${input.sessionPublicKey}, which names no session's frame key`,
      userMessage: 'Sign in again on this device, then link the account.',
      details: { reason: 'OAUTH_NONCE_MISMATCH' },
    })
  }
  const nowMs = context.now()
  const verified = await verifyOAuthIdToken(provider, input.oidcToken, {
    nowMs,
    nonce: getOAuthNonce(targetPublicKey),
  })
  const tokenHash = createHash('sha256').update(input.oidcToken, 'utf8').digest('hex')
  const replays = createDatabaseReplayStore(context.db, context.now)
  if (
    !(await replays.markSeen(`oauth-id-token:${tokenHash}`, Math.max(verified.expiresAtMs, nowMs) + 60_000))
  ) {
    throw new AppError('UNAUTHORIZED', {
      userMessage: 'This sign-in token was already used. Sign in with the provider again.',
      details: { reason: 'OAUTH_ID_TOKEN_SPENT' },
    })
  }
  return linkOAuthIdentity(context, {
    userId: input.userId,
    identity: {
      providerId: provider.provider.id,
      issuer: verified.issuer,
      subject: verified.subject,
      email: verified.email ?? null,
    },
  })
}

/** The key a session was encrypted to (lower-case hex); undefined for a passkey stamp or an older session. */
async function findSessionTargetKey(
  context: SignerContext,
  sessionPublicKey: string,
): Promise<string | undefined> {
  const [row] = await context.db
    .select({ targetPublicKey: signerSessionKeys.targetPublicKey })
    .from(signerSessionKeys)
    .where(eq(signerSessionKeys.publicKey, sessionPublicKey))
  return row?.targetPublicKey ?? undefined
}

/**
 * Links a verified provider identity (`{issuer}|{subject}`) to a user under the user's method lock
 * (add-oauth-provider, and the account-linking code, see complete-oauth-link.ts). An identity linked
 * to this user already is answered as is; one linked to another user is refused. A new link is told
 * to the account's contact in the same transaction (docs/signer.md#security-notices).
 *
 * Fails by rejecting with AppError CONFLICT (linked to another account), the delivery's error when
 * the notice cannot be handed over (then nothing was linked), or on a database error.
 */
export async function linkOAuthIdentity(
  context: SignerContext,
  input: { userId: string; identity: LinkedOAuthProvider },
): Promise<LinkedOAuthProvider> {
  const { identity } = input
  const identifier = `${identity.issuer}|${identity.subject}`
  await context.db.transaction(async (tx) => {
    await lockUserSignInMethods(tx, input.userId)
    const [existing] = await tx
      .select({ userId: signerAuthMethods.userId })
      .from(signerAuthMethods)
      .where(and(eq(signerAuthMethods.type, 'oauth'), eq(signerAuthMethods.identifier, identifier)))
    if (existing !== undefined) {
      if (existing.userId === input.userId) return
      throw new AppError('CONFLICT', {
        userMessage: `This ${identity.providerId} account already signs in to another wallet.`,
      })
    }
    await tx.insert(signerAuthMethods).values({
      userId: input.userId,
      type: 'oauth',
      identifier,
      data: { providerId: identity.providerId, email: identity.email },
    })
    await sendSecurityNotice(context, tx, {
      userId: input.userId,
      event: { kind: 'provider-linked', providerId: identity.providerId, email: identity.email },
    })
  })
  return identity
}
