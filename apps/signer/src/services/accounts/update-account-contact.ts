import { AppError } from '@quicklinks/core/app-error'
import { and, eq } from 'drizzle-orm'
import { lockForTransaction } from '../../db/lock-for-transaction.ts'
import { signerAuthMethods, signerUsers } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { readVerificationToken, spendVerificationToken } from '../verification/verification-token.ts'
import { findAccountByContact, findAccountByUserId, type SignerAccount } from './find-account.ts'

/**
 * `update-email-auth` / `update-phone-auth`: replaces the user's e-mail or phone (and its sign-in
 * method) with a contact proven by a verification token from `verify-otp`. The token works once.
 *
 * Fails by rejecting with AppError UNAUTHORIZED (token invalid, expired, spent, or issued for
 * another contact) or CONFLICT (409: the contact signs in to another account).
 */
export async function updateAccountContact(
  context: SignerContext,
  input: { userId: string; contact: Contact; verificationToken: string },
): Promise<SignerAccount> {
  const { contact } = input
  const verified = await readVerificationToken(
    context.keyring.verificationTokenSecret,
    input.verificationToken,
    context.now(),
  )
  if (verified.contact.channel !== contact.channel || verified.contact.address !== contact.address) {
    throw new AppError('UNAUTHORIZED', {
      message: 'Verification token names another contact',
      userMessage: 'The verification code was sent to another address. Verify this one first.',
    })
  }
  await context.db.transaction(async (tx) => {
    await lockForTransaction(tx, `signer-account:${contact.channel}:${contact.address}`)
    const holder = await findAccountByContact(tx, contact)
    if (holder !== undefined && holder.userId !== input.userId) {
      throw new AppError('CONFLICT', {
        userMessage:
          contact.channel === 'email'
            ? 'That e-mail address belongs to another account.'
            : 'That phone number belongs to another account.',
      })
    }
    await spendVerificationToken(tx, verified.otpId, context.now())
    await tx
      .update(signerUsers)
      .set({
        ...(contact.channel === 'email' ? { email: contact.address } : { phone: contact.address }),
        updatedAt: new Date(context.now()),
      })
      .where(eq(signerUsers.id, input.userId))
    await tx
      .delete(signerAuthMethods)
      .where(and(eq(signerAuthMethods.userId, input.userId), eq(signerAuthMethods.type, contact.channel)))
    await tx
      .insert(signerAuthMethods)
      .values({ userId: input.userId, type: contact.channel, identifier: contact.address })
  })
  const account = await findAccountByUserId(context.db, input.userId)
  if (account === undefined) throw new Error(`User ${input.userId} vanished during a contact update`)
  return account
}
