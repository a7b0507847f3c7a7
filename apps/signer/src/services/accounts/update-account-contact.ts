import { AppError } from '@quicklinks/core/app-error'
import { and, eq } from 'drizzle-orm'
import { lockForTransaction } from '../../db/lock-for-transaction.ts'
import { signerAuthMethods, signerUsers } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { renderContactChangeNotice } from '../mail/render-contact-change-notice.ts'
import {
  readVerificationToken,
  spendVerificationToken,
  type VerifiedContact,
  verificationRefusedReason,
} from '../verification/verification-token.ts'
import { findAccountByContact, findAccountByUserId, type SignerAccount } from './find-account.ts'
import { revokeSessionKeys } from './revoke-session-keys.ts'

const channelWords = {
  email: { current: 'e-mail address', taken: 'That e-mail address belongs to another account.' },
  sms: { current: 'phone number', taken: 'That phone number belongs to another account.' },
} as const

/**
 * `update-email-auth` / `update-phone-auth`: replaces the user's e-mail or phone (and its sign-in
 * method) with a contact proven by a verification token from `verify-otp`. Tokens work once.
 *
 * Why more than the new contact's token (docs/decisions/0014): whoever holds a session could
 * otherwise move the account's sign-in to an address of their own. So, when the account already
 * has a contact on that channel, a second token must prove that one too (a code sent to the old
 * address); the old contact and the account's other contact are told, inside
 * the same transaction, so no change goes unannounced; and every session key of the user except
 * `publicKey` (the one that stamped the change) is revoked. Setting the contact it already has
 * changes nothing and tells no one.
 *
 * A first contact on a channel is a new way in, so it needs the step-up too
 * (docs/signer.md#step-up): `previousContactVerificationToken` then proves the account's other
 * contact, or, for an account without one, `stepUp` (a linked provider's fresh id token) or a
 * passkey stamp with user verification does. With a confirmed TOTP factor, every change needs its
 * current code in `stepUp.totpCode`.
 *
 * Fails by rejecting with AppError UNAUTHORIZED (a token invalid, expired, spent, or issued for
 * another contact), FORBIDDEN (the current contact's token is missing), CONFLICT (409: the contact
 * signs in to another account), or the delivery's error when the notice cannot be handed over
 * (then nothing changed).
 */
export async function updateAccountContact(
  context: SignerContext,
  input: {
    userId: string
    /** The session key that stamped the change: the only one left working. */
    publicKey: string
    contact: Contact
    verificationToken: string
    previousContactVerificationToken?: string | undefined
    /**
     * The route's step-up check (require-step-up.ts), given whether the change's own tokens already
     * re-authenticated (a code to the current contact, or for a first contact to the other one).
     */
    requireStepUp: (reauthDone: boolean) => Promise<void>
  },
): Promise<SignerAccount> {
  const { contact } = input
  const words = channelWords[contact.channel]
  const verified = await readVerificationToken(
    context.keyring.verificationTokenSecret,
    input.verificationToken,
    context.now(),
  )
  if (!namesContact(verified, contact)) {
    throw new AppError('UNAUTHORIZED', {
      message: 'Verification token names another contact',
      userMessage: 'The verification code was sent to another address. Verify this one first.',
      details: { reason: verificationRefusedReason },
    })
  }
  const previousProof =
    input.previousContactVerificationToken === undefined
      ? undefined
      : await readVerificationToken(
          context.keyring.verificationTokenSecret,
          input.previousContactVerificationToken,
          context.now(),
        )
  const before = await findAccountByUserId(context.db, input.userId)
  const previousBefore = contact.channel === 'email' ? before?.email : before?.phone
  if (before !== undefined && previousBefore !== contact.address) {
    // A current contact on the channel is proven inside the transaction (the code to it); a
    // first one by a code to the account's other contact, or by the generic step-up.
    await input.requireStepUp(
      previousBefore !== null || (previousProof !== undefined && provesContactOf(previousProof, before)),
    )
  }

  await context.db.transaction(async (tx) => {
    await lockForTransaction(tx, `signer-account:${contact.channel}:${contact.address}`)
    const current = await findAccountByUserId(tx, input.userId)
    if (current === undefined) throw new Error(`User ${input.userId} vanished during a contact update`)
    const previous = contact.channel === 'email' ? current.email : current.phone
    const holder = await findAccountByContact(tx, contact)
    if (holder !== undefined && holder.userId !== input.userId) {
      throw new AppError('CONFLICT', { userMessage: words.taken })
    }
    if (previous !== null && previous !== contact.address) {
      if (previousProof === undefined) {
        throw new AppError('FORBIDDEN', {
          message: 'Contact change without proof of the current contact',
          userMessage: `Confirm your current ${words.current} first: enter the code sent to it.`,
          field: 'previousContactVerificationToken',
        })
      }
      if (!namesContact(previousProof, { channel: contact.channel, address: previous })) {
        throw new AppError('UNAUTHORIZED', {
          message: 'Previous-contact token names another contact',
          userMessage: `That confirmation was for another address. Confirm your current ${words.current}.`,
          details: { reason: verificationRefusedReason },
        })
      }
      await spendVerificationToken(tx, previousProof.otpId, context.now())
    } else if (previous === null && previousProof !== undefined) {
      if (!provesContactOf(previousProof, current)) {
        throw new AppError('UNAUTHORIZED', {
          message: 'Step-up token names no contact of the account',
          userMessage:
            'That confirmation was for another address. Confirm it’s you with a code to your account.',
          details: { reason: verificationRefusedReason },
        })
      }
      await spendVerificationToken(tx, previousProof.otpId, context.now())
    }
    await spendVerificationToken(tx, verified.otpId, context.now())
    if (previous === contact.address) return

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
    await revokeSessionKeys(tx, { userId: input.userId, exceptPublicKey: input.publicKey }, context.now())

    // Every contact the account had: the one replaced and the other channel's (a new way in is
    // told wherever the owner reads).
    const otherChannel: Contact | undefined =
      contact.channel === 'email'
        ? current.phone === null
          ? undefined
          : { channel: 'sms', address: current.phone }
        : current.email === null
          ? undefined
          : { channel: 'email', address: current.email }
    const recipients: Contact[] = [
      ...(previous === null ? [] : [{ channel: contact.channel, address: previous }]),
      ...(otherChannel === undefined ? [] : [otherChannel]),
    ]
    for (const recipient of recipients) {
      const notice = renderContactChangeNotice({
        recipient,
        changed: { channel: contact.channel, previous, next: contact.address },
        changedAtMs: context.now(),
      })
      // Last step of the transaction: if a notice cannot be handed over, the change rolls back.
      if (notice.channel === 'email') await context.delivery.sendEmail(notice.email)
      else await context.delivery.sendSms(notice.sms)
    }
  })
  const account = await findAccountByUserId(context.db, input.userId)
  if (account === undefined) throw new Error(`User ${input.userId} vanished during a contact update`)
  return account
}

/** Whether the token proves the account's e-mail or phone. */
function provesContactOf(
  verified: VerifiedContact,
  account: Pick<SignerAccount, 'email' | 'phone'>,
): boolean {
  return verified.contact.channel === 'email'
    ? verified.contact.address === account.email
    : verified.contact.address === account.phone
}

function namesContact(verified: VerifiedContact, contact: Contact): boolean {
  return verified.contact.channel === contact.channel && verified.contact.address === contact.address
}
