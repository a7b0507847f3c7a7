import { AppError } from '@quicklinks/core/app-error'
import { withTimeout } from '@quicklinks/core/with-timeout'
import {
  mfaFactorIdMismatchMessage,
  noCredentialBundleFromValidateMessage,
  noPendingMfaContextMessage,
} from './multi-factor-types.ts'
import { getOAuthNonce } from './oauth-login.ts'
import type { SignerState } from './signer-state.ts'
import type { SignerStoreContext } from './signer-store-context.ts'
import { createWalletError } from './wallet-error.ts'

/** How long logout waits for the signer to revoke the session key before it signs out locally. */
const logoutRevokeTimeoutMs = 2000

/** The store's sign-in and sign-out actions (see their JSDoc on SignerState). */
export type SignInActions = Pick<
  SignerState,
  | 'authenticateWithEmail'
  | 'authenticateWithSms'
  | 'submitOtpCode'
  | 'completeMagicLink'
  | 'authenticateWithJwt'
  | 'validateMultiFactors'
  | 'logout'
>

/**
 * Sign-in by e-mail or SMS code, magic link and custom JWT, the second-factor step that finishes
 * any of them (docs/signer.md#mfa-required), and logout. A failed sign-in stores its error and
 * leaves the store DISCONNECTED (`fail`); the transitions are docs/signer.md#signer-status.
 */
export function createSignInActions(ctx: SignerStoreContext): SignInActions {
  const { client, stamper, expirationSeconds, set, fail, finishLogin, awaitMfa } = ctx

  return {
    async authenticateWithEmail({ email, mode = 'otp', redirectParams }) {
      ctx.setPendingSignIn(null)
      set({
        status: 'AUTHENTICATING_EMAIL',
        error: null,
        otpId: null,
        isNewUser: undefined,
        mfaStatus: { mfaRequired: false, mfaFactorId: null },
      })
      try {
        const targetPublicKey = await stamper.getPublicKey()
        // The account-creation call for every contact: the signer looks the contact up itself and,
        // for one with an account, only sends the code, with an answer of the same shape, so
        // nothing here tells who has an account (docs/decisions/0019).
        const { orgId, otpId } = await client.signup({
          email,
          emailMode: mode,
          targetPublicKey,
          expirationSeconds,
          ...(redirectParams === undefined ? {} : { redirectParams }),
        })
        ctx.setPendingSignIn({ orgId, otpId, channel: 'email', isNewUser: undefined })
        set({ status: 'AWAITING_EMAIL_AUTH', otpId })
      } catch (error) {
        fail(error)
      }
    },

    async authenticateWithSms({ phone }) {
      ctx.setPendingSignIn(null)
      set({ status: 'AWAITING_SMS_AUTH', error: null, otpId: null, isNewUser: undefined })
      try {
        const targetPublicKey = await stamper.getPublicKey()
        const { orgId, otpId } = await client.signup({ phone, targetPublicKey, expirationSeconds })
        ctx.setPendingSignIn({ orgId, otpId, channel: 'sms', isNewUser: undefined })
        set({ status: 'AWAITING_SMS_AUTH', otpId })
      } catch (error) {
        fail(error)
      }
    },

    async submitOtpCode(code) {
      try {
        const pending = ctx.getPendingSignIn()
        if (!pending?.orgId) throw createWalletError('orgId not found in session')
        if (!pending.otpId) throw createWalletError('otpId not found in session')
        const { orgId, otpId } = pending
        set({ status: 'AWAITING_OTP_AUTH', error: null })
        const targetPublicKey = await stamper.getPublicKey()
        const answer = await client.otp({
          orgId,
          otpId,
          otpCode: code.trim(),
          targetPublicKey,
          expirationSeconds,
        })
        if ('status' in answer && answer.status === 'MFA_REQUIRED') {
          awaitMfa(answer, pending)
          return
        }
        if (!('credentialBundle' in answer) || typeof answer.credentialBundle !== 'string') {
          throw createWalletError('Failed to submit OTP code. Server did not return required fields.')
        }
        const isNewUser = answer.isNewUser === true
        ctx.setPendingSignIn({ ...pending, isNewUser })
        set({ isNewUser })
        // The signer's orgId wins: the one signup answered may belong to an account that moved off this contact.
        await finishLogin({ bundle: answer.credentialBundle, orgId: answer.orgId ?? orgId })
      } catch (error) {
        fail(error)
      }
    },

    async completeMagicLink({ bundle, orgId }) {
      set({ status: 'AUTHENTICATING_EMAIL', error: null })
      try {
        if (!bundle || !orgId) throw createWalletError('Could not find email auth init session!')
        const targetPublicKey = await stamper.getPublicKey()
        const answer = await client.openMagicLink({
          orgId,
          token: bundle,
          targetPublicKey,
          expirationSeconds,
        })
        if ('status' in answer && answer.status === 'MFA_REQUIRED') {
          const pendingOrgId = answer.orgId ?? orgId
          awaitMfa(answer, { orgId: pendingOrgId, otpId: '', channel: 'email', isNewUser: false })
          return
        }
        if (!('credentialBundle' in answer))
          throw createWalletError('Could not find email auth init session!')
        set({ isNewUser: answer.isNewUser })
        await finishLogin({ bundle: answer.credentialBundle, orgId: answer.orgId })
      } catch (error) {
        fail(error)
      }
    },

    async authenticateWithJwt({ jwt, authProvider }) {
      ctx.setPendingSignIn(null)
      set({ status: 'AUTHENTICATING_JWT', error: null, otpId: null, isNewUser: undefined })
      try {
        const targetPublicKey = await stamper.getPublicKey()
        const token = typeof jwt === 'string' ? jwt : await jwt({ nonce: getOAuthNonce(targetPublicKey) })
        const answer = await client.authJwt({
          jwt: token,
          authProvider,
          targetPublicKey,
          expirationSeconds,
        })
        if ('status' in answer) {
          awaitMfa(answer, { orgId: answer.orgId, otpId: '', channel: 'email', isNewUser: false })
          return
        }
        set({ isNewUser: answer.isNewUser })
        await finishLogin({ bundle: answer.credentialBundle, orgId: answer.orgId })
      } catch (error) {
        fail(error)
      }
    },

    async validateMultiFactors({ multiFactorCode, multiFactorId }) {
      const pending = ctx.getPendingSignIn()
      try {
        if (!pending?.encryptedPayload) throw createWalletError(noPendingMfaContextMessage)
        if (multiFactorId !== undefined && multiFactorId !== pending.mfaFactorId) {
          throw createWalletError(mfaFactorIdMismatchMessage)
        }
        const factorId = multiFactorId ?? pending.mfaFactorId
        if (!factorId) throw createWalletError(mfaFactorIdMismatchMessage)
        set({ status: 'AWAITING_MFA_AUTH', error: null })
        const targetPublicKey = await stamper.getPublicKey()
        const answer = await client.validateMultiFactors({
          encryptedPayload: pending.encryptedPayload,
          multiFactors: [{ multiFactorId: factorId, multiFactorCode: multiFactorCode.replace(/\s/g, '') }],
          targetPublicKey,
        })
        const bundle = answer.payload?.credentialBundle
        if (typeof bundle !== 'string' || bundle.length === 0) {
          throw createWalletError(noCredentialBundleFromValidateMessage)
        }
        set({ isNewUser: answer.isNewUser === true, mfaStatus: { mfaRequired: false, mfaFactorId: null } })
        await finishLogin({ bundle, orgId: answer.orgId ?? pending.orgId })
      } catch (error) {
        if (isMfaContextRefused(error)) {
          // Expired or spent at the signer: this pending sign-in is over; start again.
          ctx.setPendingSignIn(null)
          set({ mfaStatus: { mfaRequired: false, mfaFactorId: null } })
        }
        fail(error)
      }
    },

    async logout() {
      ctx.setPendingSignIn(null)
      const { user } = ctx.get()
      if (user !== null) {
        // Before the local state goes: a copied session key must stop working now, not at expiry.
        // A failure (offline, already expired) still signs out here.
        const revoke = async () => client.revokeSession(stamper, user.orgId)
        await withTimeout(revoke(), logoutRevokeTimeoutMs, () =>
          createWalletError('The signer did not answer in time.'),
        ).catch(() => undefined)
      }
      ctx.disconnect({ persist: true })
      set({ error: null })
      try {
        await stamper.reset()
      } catch {
        // A logout error is logged only (docs/signer.md#signer-status); the page is signed out either way.
      }
    },
  }
}

/** Whether the signer refused a pending MFA sign-in itself (expired, spent, another browser's). */
function isMfaContextRefused(error: unknown): boolean {
  return error instanceof AppError && error.details?.reason === 'MFA_CHALLENGE_REFUSED'
}
