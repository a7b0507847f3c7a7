import type { ContactRemoval } from '@quicklinks/protocol/frame-only-activities'
import type { SignerState } from './signer-state.ts'
import type { SignerStoreContext } from './signer-store-context.ts'
import type { SignerUser, WhoamiResult } from './signer-types.ts'
import { createWalletError } from './wallet-error.ts'

/** The store's sign-in contact actions (see their JSDoc on SignerState). */
export type ContactActions = Pick<
  SignerState,
  | 'updateContact'
  | 'sendVerificationCode'
  | 'verifyCode'
  | 'setEmail'
  | 'setPhone'
  | 'removeEmail'
  | 'removePhone'
>

/**
 * The sign-in e-mail and phone (docs/signer.md#contact-change, #contact-removal): a verification
 * code and its token, then the change or removal, whose body is built and stamped where the session
 * key is (the auth frame refuses e-mail and phone bodies from this page). The user the signer
 * answers is kept in the state and the persisted session.
 */
export function createContactActions(ctx: SignerStoreContext): ContactActions {
  const { client, stamper, requireUser, withSession } = ctx

  /** The user with the contacts the signer answered, kept in the store. */
  const keepContacts = (user: SignerUser, whoami: WhoamiResult): SignerUser => {
    const updated: SignerUser = { ...user, email: whoami.email ?? null, phone: whoami.phone ?? null }
    ctx.updateUser(updated)
    return updated
  }

  /** `remove-email-auth` / `remove-phone-auth`, then the user as the signer answers it. */
  const removeContact = async (removal: ContactRemoval): Promise<SignerUser> => {
    const user = requireUser()
    return withSession(async () => {
      const call = await stamper.stampContactRemoval({ removal, timestampMs: client.serverNow() })
      return keepContacts(user, await client.postStampedCall<WhoamiResult>(call))
    })
  }

  return {
    async updateContact(change) {
      const user = requireUser()
      if (change.channel === 'email' && change.contact.trim().length === 0) {
        throw createWalletError('Email must not be empty. Use removeEmail() to remove email auth.')
      }
      if (change.channel === 'sms' && !change.verificationToken) {
        throw createWalletError('Verification token is required to change phone number.')
      }
      return withSession(async () => {
        const call = await stamper.stampContactChange({ change, timestampMs: client.serverNow() })
        return keepContacts(user, await client.postStampedCall<WhoamiResult>(call))
      })
    },

    async sendVerificationCode({ channel, contact }) {
      return client.initOtp({ otpType: channel === 'email' ? 'OTP_TYPE_EMAIL' : 'OTP_TYPE_SMS', contact })
    },

    async verifyCode({ otpId, code }) {
      if (!otpId) throw createWalletError('Missing OTP ID')
      return client.verifyOtp({ otpId, otpCode: code.trim() })
    },

    async setEmail({ email, ...proof }) {
      return ctx.get().updateContact({ channel: 'email', contact: email, ...proof })
    },

    async setPhone({ phone, ...proof }) {
      return ctx.get().updateContact({ channel: 'sms', contact: phone, ...proof })
    },

    async removeEmail(proof) {
      return removeContact({ channel: 'email', ...proof })
    },

    async removePhone(proof) {
      return removeContact({ channel: 'sms', ...proof })
    },
  }
}
