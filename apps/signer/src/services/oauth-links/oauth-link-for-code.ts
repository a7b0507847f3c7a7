import { AppError } from '@quicklinks/core/app-error'
import { and, eq, gt, inArray, isNotNull, isNull, ne } from 'drizzle-orm'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { type SignerOAuthLink, signerOAuthLinks, signerOtps } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { type LinkedOAuthProvider, linkOAuthIdentity } from './link-oauth-identity.ts'

/**
 * The account-linking path of a social login (docs/signer.md#oauth-callback): the callback keeps
 * the verified provider identity under the e-mail code it sent, and that code's sign-in links it.
 * The id token never reaches the page, so a page (or a crafted link) cannot hand another one in.
 */

/** Keeps the identity a linking callback verified under its e-mail code, for the frame key of that flow. */
export async function keepOAuthLinkForCode(
  db: SignerDatabase,
  input: { otpId: string; userId: string; identity: LinkedOAuthProvider; targetPublicKey: string },
): Promise<void> {
  const row = {
    userId: input.userId,
    providerId: input.identity.providerId,
    issuer: input.identity.issuer,
    subject: input.identity.subject,
    email: input.identity.email,
    targetPublicKey: input.targetPublicKey.toLowerCase(),
  }
  // The code's start may have moved an older attempt's identity to it (moveOAuthLinkToCode): this one wins.
  await db
    .insert(signerOAuthLinks)
    .values({ otpId: input.otpId, ...row })
    .onConflictDoUpdate({ target: signerOAuthLinks.otpId, set: row })
}

/**
 * A new sign-in code for the contact of a live linking code, asked for with the same frame key (the
 * code step's 'Resend code' in the browser of the provider flow): the waiting identity moves to the
 * new code, which replaces the old one, so the resent code links it. Another frame key's code, or a
 * used or expired linking code, moves nothing.
 */
export async function moveOAuthLinkToCode(
  db: SignerDatabase,
  input: {
    otpId: string
    contact: { channel: 'email' | 'sms'; address: string }
    targetPublicKey: string
    nowMs: number
  },
): Promise<void> {
  const liveCodes = db
    .select({ id: signerOtps.id })
    .from(signerOtps)
    .where(
      and(
        eq(signerOtps.purpose, 'auth'),
        eq(signerOtps.channel, input.contact.channel),
        eq(signerOtps.contact, input.contact.address),
        ne(signerOtps.id, input.otpId),
        isNull(signerOtps.usedAt),
        gt(signerOtps.expiresAt, new Date(input.nowMs)),
      ),
    )
  await db
    .update(signerOAuthLinks)
    .set({ otpId: input.otpId })
    .where(
      and(
        eq(signerOAuthLinks.targetPublicKey, input.targetPublicKey.toLowerCase()),
        inArray(signerOAuthLinks.otpId, liveCodes),
      ),
    )
}

/**
 * The identity waiting for this code, if it is a linking code. Refuses (before the code is tried)
 * a code entered with another frame key than the provider flow's: the browser that did not sign in
 * with the provider cannot complete its link.
 *
 * Fails by rejecting with AppError UNAUTHORIZED (`details.reason` OAUTH_LINK_REFUSED), or on a database error.
 */
export async function findOAuthLinkForCode(
  db: SignerDatabase,
  input: { otpId: string; targetPublicKey: string },
): Promise<SignerOAuthLink | undefined> {
  const [link] = await db.select().from(signerOAuthLinks).where(eq(signerOAuthLinks.otpId, input.otpId))
  if (link !== undefined && link.targetPublicKey !== input.targetPublicKey.toLowerCase()) {
    throw new AppError('UNAUTHORIZED', {
      message: 'Account-linking code entered with another frame key than its provider flow',
      userMessage:
        'This code links an account signed in with in another browser. Sign in with your e-mail here instead.',
      details: { reason: 'OAUTH_LINK_REFUSED' },
    })
  }
  return link
}

/**
 * Links the identity kept for a linking code once its code was spent (the e-mail is proven), to the
 * account the code's contact belongs to, which must still be the one the callback found. Takes
 * the row first, so a link happens once. Fails like {@link linkOAuthIdentity}.
 */
export async function completeOAuthLinkForCode(
  context: SignerContext,
  input: { otpId: string; userId: string | undefined },
): Promise<void> {
  const [taken] = await context.db
    .delete(signerOAuthLinks)
    .where(eq(signerOAuthLinks.otpId, input.otpId))
    .returning()
  if (taken === undefined || taken.userId !== input.userId) return
  await linkOAuthIdentity(context, { userId: taken.userId, identity: toIdentity(taken) })
}

/**
 * After a second factor (auth-validate-multi-factors): links what a spent linking code of this user,
 * entered with this frame key, kept waiting for it (an account with an authenticator app links
 * only once its code is given too). Fails like {@link linkOAuthIdentity}.
 */
export async function completeOAuthLinksAfterSecondFactor(
  context: SignerContext,
  input: { userId: string; targetPublicKey: string },
): Promise<void> {
  const waiting = await context.db
    .select({ otpId: signerOAuthLinks.otpId })
    .from(signerOAuthLinks)
    .innerJoin(signerOtps, eq(signerOtps.id, signerOAuthLinks.otpId))
    .where(
      and(
        eq(signerOAuthLinks.userId, input.userId),
        eq(signerOAuthLinks.targetPublicKey, input.targetPublicKey.toLowerCase()),
        isNotNull(signerOtps.usedAt),
      ),
    )
  for (const { otpId } of waiting) await completeOAuthLinkForCode(context, { otpId, userId: input.userId })
}

function toIdentity(link: SignerOAuthLink): LinkedOAuthProvider {
  return { providerId: link.providerId, issuer: link.issuer, subject: link.subject, email: link.email }
}
