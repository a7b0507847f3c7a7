import { createHash } from 'node:crypto'
import { AppError } from '@quicklinks/core/app-error'
import { eq } from 'drizzle-orm'
import { signerSessionKeys } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { type LinkedOAuthProvider, linkOAuthIdentity } from '../oauth-links/link-oauth-identity.ts'
import { createDatabaseReplayStore } from '../stamps/create-database-replay-store.ts'
import type { OAuthDirectory } from './oauth-directory.ts'
import { getOAuthNonce } from './oauth-request-key.ts'
import { verifyOAuthIdToken } from './verify-oauth-id-token.ts'

/**
 * `add-oauth-provider`: links the identity of a provider's id token to the stamping user (a
 * FETCHED_ID_TOKEN_ONLY flow from Settings). The token must verify against the provider's JWKS
 * (iss, aud, exp) and its nonce must be the hash of the key the stamping session was encrypted to
 * (docs/signer.md#oauth-nonce): a token fetched by another browser, or for another session, links
 * nothing. It is accepted once.
 *
 * Fails by rejecting with AppError NOT_FOUND (unknown provider), UNAUTHORIZED (the token, its
 * nonce, a token used before, or a stamp by no session key: a passkey, or a session minted before
 * its key was kept), or as linkOAuthIdentity (oauth-links/link-oauth-identity.ts).
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
