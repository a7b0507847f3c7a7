import { AppError } from '@quicklinks/core/app-error'
import type { SignerContactChannel } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import {
  readVerificationToken,
  spendVerificationToken,
  verificationRefusedReason,
} from '../verification/verification-token.ts'
import { findAccountByUserId, type SignerAccount } from './find-account.ts'
import { removeSignInMethod } from './remove-sign-in-method.ts'
import { revokeSessionKeys } from './revoke-session-keys.ts'
import { sendSecurityNotice } from './send-security-notice.ts'

const channelWords = {
  email: { noun: 'e-mail address', none: 'Your account has no e-mail address to remove.' },
  sms: { noun: 'phone number', none: 'Your account has no phone number to remove.' },
} as const

/**
 * `remove-email-auth` / `remove-phone-auth`: takes the user's e-mail or phone off the account (its
 * sign-in method and the contact on the user row) through `removeSignInMethod`, which refuses to
 * remove the last way in.
 *
 * Why a proof of the contact itself (a `verify-otp` token for it): adding a first contact on a
 * channel needs only the new contact's code (docs/signer.md#contact-change), so a removal on the
 * session alone would let whoever holds a session remove the owner's e-mail and then add their
 * own. With the proof, only the person who reads that contact can take it off. The token is spent
 * in the same transaction as the removal, and every other session key of the user is revoked.
 * The removed contact and the account's remaining contact are told, as the transaction's last
 * step (docs/signer.md#security-notices).
 *
 * Fails by rejecting with AppError NOT_FOUND (no contact on that channel), UNAUTHORIZED (the token
 * is invalid, spent, or names another contact; `details.reason` VERIFICATION_REFUSED) or CONFLICT
 * ('This is your only way to sign in. Add another one before you remove it.'), or the delivery's
 * error when a notice cannot be handed over; nothing changes then.
 */
export async function removeAccountContact(
  context: SignerContext,
  input: {
    userId: string
    /** The session key that stamped the removal: the only one left working. */
    publicKey: string
    channel: SignerContactChannel
    verificationToken: string
  },
): Promise<SignerAccount> {
  const words = channelWords[input.channel]
  const proof = await readVerificationToken(
    context.keyring.verificationTokenSecret,
    input.verificationToken,
    context.now(),
  )
  await context.db.transaction(async (tx) => {
    const account = await findAccountByUserId(tx, input.userId)
    if (account === undefined) throw new Error(`User ${input.userId} vanished during a contact removal`)
    const current = input.channel === 'email' ? account.email : account.phone
    if (current === null) throw new AppError('NOT_FOUND', { userMessage: words.none })
    if (proof.contact.channel !== input.channel || proof.contact.address !== current) {
      throw new AppError('UNAUTHORIZED', {
        message: 'Removal proof names another contact',
        userMessage: `That confirmation was for another address. Confirm your current ${words.noun}.`,
        details: { reason: verificationRefusedReason },
      })
    }
    await spendVerificationToken(tx, proof.otpId, context.now())
    // Inside this transaction (a savepoint): a refused last method rolls the spend back too.
    await removeSignInMethod(tx, { userId: input.userId, type: input.channel, identifier: current })
    await revokeSessionKeys(tx, { userId: input.userId, exceptPublicKey: input.publicKey }, context.now())
    const removed = { channel: input.channel, address: current }
    await sendSecurityNotice(context, tx, {
      userId: input.userId,
      event: { kind: 'contact-removed', removed },
      alsoTo: [removed],
    })
  })
  const account = await findAccountByUserId(context.db, input.userId)
  if (account === undefined) throw new Error(`User ${input.userId} vanished during a contact removal`)
  return account
}
