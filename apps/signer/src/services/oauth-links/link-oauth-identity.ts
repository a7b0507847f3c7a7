import { AppError } from '@quicklinks/core/app-error'
import { and, eq } from 'drizzle-orm'
import { signerAuthMethods } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { lockUserSignInMethods } from '../accounts/remove-sign-in-method.ts'
import { sendSecurityNotice } from '../accounts/send-security-notice.ts'

/** A provider identity linked to a user (what add-oauth-provider answers). */
export type LinkedOAuthProvider = {
  providerId: string
  issuer: string
  subject: string
  email: string | null
}

/**
 * Links a verified provider identity (`{issuer}|{subject}`) to a user under the user's method lock
 * (add-oauth-provider, and the account-linking code, see oauth-link-for-code.ts). An identity linked
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
