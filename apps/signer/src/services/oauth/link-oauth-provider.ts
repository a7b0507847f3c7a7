import { createHash } from 'node:crypto'
import { AppError } from '@quicklinks/core/app-error'
import { and, eq } from 'drizzle-orm'
import { signerAuthMethods } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { lockUserSignInMethods } from '../accounts/remove-sign-in-method.ts'
import { sendSecurityNotice } from '../accounts/send-security-notice.ts'
import { createDatabaseReplayStore } from '../stamps/create-database-replay-store.ts'
import type { OAuthDirectory } from './oauth-directory.ts'
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
 * FETCHED_ID_TOKEN_ONLY flow from Settings, or the linking flow after its e-mail code). The token
 * must verify against the provider's JWKS (iss, aud, exp, a nonce) and is accepted once. An identity
 * linked to this user already is answered as is; one linked to another user is refused. A new link
 * is told to the account's contact in the same transaction (docs/signer.md#security-notices).
 *
 * Fails by rejecting with AppError NOT_FOUND (unknown provider), UNAUTHORIZED (the token, or a token
 * used before), CONFLICT (linked to another account), the delivery's error when the notice cannot
 * be handed over (then nothing was linked, and the token stays spent), or on a database error.
 */
export async function linkOAuthProvider(
  context: SignerContext,
  directory: OAuthDirectory,
  input: { userId: string; providerName: string; oidcToken: string },
): Promise<LinkedOAuthProvider> {
  const provider = await directory.get(input.providerName)
  const nowMs = context.now()
  const verified = await verifyOAuthIdToken(provider, input.oidcToken, { nowMs })
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
  const identifier = `${verified.issuer}|${verified.subject}`
  const linked: LinkedOAuthProvider = {
    providerId: provider.provider.id,
    issuer: verified.issuer,
    subject: verified.subject,
    email: verified.email ?? null,
  }
  await context.db.transaction(async (tx) => {
    await lockUserSignInMethods(tx, input.userId)
    const [existing] = await tx
      .select({ userId: signerAuthMethods.userId })
      .from(signerAuthMethods)
      .where(and(eq(signerAuthMethods.type, 'oauth'), eq(signerAuthMethods.identifier, identifier)))
    if (existing !== undefined) {
      if (existing.userId === input.userId) return
      throw new AppError('CONFLICT', {
        userMessage: `This ${provider.provider.id} account already signs in to another wallet.`,
      })
    }
    await tx.insert(signerAuthMethods).values({
      userId: input.userId,
      type: 'oauth',
      identifier,
      data: { providerId: linked.providerId, email: linked.email },
    })
    await sendSecurityNotice(context, tx, {
      userId: input.userId,
      event: { kind: 'provider-linked', providerId: linked.providerId, email: linked.email },
    })
  })
  return linked
}
